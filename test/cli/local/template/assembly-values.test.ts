/**
 * `Fn::ImportValue` across the stacks of one assembly: a CDK app whose function is in one stack and
 * whose table is in another (a cross-stack reference) reads the table's name through the exporting
 * stack's resolver: its template's name, else its stand-in (listed), else what was deployed.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { evaluate, pseudoParameters } from '../../../../src/cli/local/template/intrinsics';
import { valuesOf } from '../../../../src/cli/local/template/stack-environment';
import { assemblyExports } from '../../../../src/cli/local/template/stack-exports';

let assembly: string;
let itemsId: string;
let exportName: string;
let outputKey: string;

beforeAll(() => {
  assembly = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-imports-'));
  const app = new App({ outdir: assembly });
  const data = new Stack(app, 'Data');
  const items = new dynamodb.Table(data, 'Items', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const named = new dynamodb.Table(data, 'Named', { tableName: 'named-items', partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const api = new Stack(app, 'Api');
  const handler = new lambda.Function(api, 'Handler', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: process.env.TABLE_NAME });'),
    environment: { TABLE_NAME: items.tableName, NAMED: named.tableName },
  });
  new apigw.LambdaRestApi(api, 'Rest', { handler, deployOptions: { stageName: 'prod' } });
  app.synth();
  const template = JSON.parse(fs.readFileSync(path.join(assembly, 'Data.template.json'), 'utf8'));
  itemsId = Object.keys(template.Resources).find((id) => id.startsWith('Items'))!;
  outputKey = Object.keys(template.Outputs).find((key) => template.Outputs[key].Value.Ref === itemsId)!;
  exportName = template.Outputs[outputKey].Export.Name;
});

function handlerOf(app: ReturnType<typeof readLocalApp>) {
  return [...app.functions.values()].find((fn) => fn.logicalId.startsWith('Handler'))!;
}

test('a cross-stack reference reads the exporting stack: its template\'s name, else its stand-in, listed', () => {
  const fn = handlerOf(readLocalApp(assembly, ['Api']));
  expect(fn.environment).toMatchObject({ TABLE_NAME: `Data-${itemsId}-LOCAL`, NAMED: 'named-items' });
  expect(fn.standIns).toEqual([{ variable: 'TABLE_NAME', reference: `Ref ${itemsId}`, value: `Data-${itemsId}-LOCAL` }]);
  expect(fn.unresolvedVariables).toBeUndefined();
});

test('the exporting stack\'s deployed value, from an outputs file, answers the import even when that stack is not served', () => {
  const deployed = { source: '--outputs-file o.json', stacks: [{ stackName: 'Data', outputs: { [outputKey]: 'Data-Items-DEPLOYED' }, physicalIds: {}, pseudo: {} }] };
  const fn = handlerOf(readLocalApp(assembly, ['Api'], deployed));
  expect(fn.environment.TABLE_NAME).toBe('Data-Items-DEPLOYED');
  expect(fn.standIns).toBeUndefined();
  expect(exportName).toMatch(/^Data:ExportsOutputRef/);
});

test('one deployed stack of another name does not apply to a stack that is only read for its exports', () => {
  const deployed = { source: '--from-stack Other', stacks: [{ stackName: 'Other', outputs: {}, physicalIds: { [itemsId]: 'wrong' }, pseudo: {} }] };
  const fn = handlerOf(readLocalApp(assembly, ['Api'], deployed));
  expect(fn.environment.TABLE_NAME).toBe(`Data-${itemsId}-LOCAL`);
});

describe('exports', () => {
  const stacks = [
    { artifactId: 'A', template: { Outputs: { O: { Value: { Ref: 'X' }, Export: { Name: 'a-x' } }, Loop: { Value: { 'Fn::ImportValue': 'b-loop' }, Export: { Name: 'a-loop' } } } } },
    { artifactId: 'B', template: { Outputs: { L: { Value: { 'Fn::ImportValue': 'a-loop' }, Export: { Name: 'b-loop' } } } } },
  ];
  const env = (id: string) => ({ pseudo: pseudoParameters('us-east-1', id), ref: (ref: string) => (ref === 'X' ? 'x-value' : undefined), getAtt: () => undefined });
  const exports = assemblyExports(stacks, (id) => {
    const base = env(id);
    return valuesOf({ ...base, importValue: (name) => exports.known(name) });
  });

  test('an export is its stack\'s value; an unknown name and an import loop are unknown', () => {
    expect(exports.known('a-x')).toBe('x-value');
    expect(exports.text('a-x')).toEqual({ value: 'x-value', standIns: [] });
    expect(exports.known('nothing')).toBeUndefined();
    expect(exports.text('nothing')).toBeUndefined();
    expect(exports.known('a-loop')).toBeUndefined();
  });

  test('the evaluator asks the environment for an import', () => {
    expect(evaluate({ 'Fn::Join': ['/', [{ 'Fn::ImportValue': { 'Fn::Sub': 'a-${Name}' } }]] }, { ...env('C'), ref: (r) => (r === 'Name' ? 'x' : undefined), importValue: (n) => exports.known(n) })).toBe('x-value');
  });
});
