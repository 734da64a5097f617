/**
 * Names that come from a template (references, Fn::Sub variables, environment variables, stage
 * variables, gateway response headers) are own keys: `constructor` or `toString` never resolve
 * to Object.prototype's members, and `__proto__` is an ordinary key.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { evaluate, IntrinsicEnvironment, pseudoParameters, tryEvaluateString } from '../../../../src/cli/local/template/intrinsics';
import { ROOT } from '../../../support/cli';

const env: IntrinsicEnvironment = {
  pseudo: pseudoParameters('eu-west-1', 'Backend'),
  ref: (id) => (id === 'Api' ? 'api-id' : undefined),
  getAtt: () => undefined,
};

test.each([
  [{ Ref: 'constructor' }],
  [{ Ref: 'toString' }],
  [{ 'Fn::Sub': '${constructor}' }],
  [{ 'Fn::Sub': ['${hasOwnProperty}', {}] }],
  [{ 'Fn::Sub': ['${x}', 'not variables'] }],
  [{ 'Fn::Join': ['', ['a', { Ref: '__proto__' }]] }],
])('%j is not known locally (no inherited member)', (expression) => {
  expect(tryEvaluateString(expression, env)).toBeUndefined();
});

test('known references and own Fn::Sub variables still evaluate', () => {
  expect(tryEvaluateString({ 'Fn::Sub': ['${AWS::Region}/${v}/${Api}', { v: { Ref: 'Api' } }] }, env)).toBe('eu-west-1/api-id/api-id');
});

test('an object with a __proto__ key evaluates to an object with that own key', () => {
  const result = evaluate(JSON.parse('{"__proto__": {"Ref": "AWS::Region"}, "b": "c"}'), env) as Record<string, unknown>;
  expect(Object.keys(result)).toEqual(['__proto__', 'b']);
  expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('eu-west-1');
});

test('environment and stage variables named __proto__ or constructor are own keys of the function and API', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-keys-'));
  try {
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'cdk-latest', 'assembly'), dir, { recursive: true });
    const file = path.join(dir, 'Backend.template.json');
    const template = JSON.parse(fs.readFileSync(file, 'utf8'));
    const resources = template.Resources;
    const fn = Object.keys(resources).find((id) => resources[id].Type === 'AWS::Lambda::Function')!;
    const stage = Object.keys(resources).find((id) => resources[id].Type === 'AWS::ApiGateway::Stage')!;
    fs.writeFileSync(file, JSON.stringify(template).replace(
      '"Handler":"index.handler"',
      '"Handler":"index.handler","Environment":{"Variables":{"__proto__":"p","constructor":{"Ref":"AWS::Region"}}}',
    ).replace(
      `"StageName":"${resources[stage].Properties.StageName}"`,
      `"StageName":"${resources[stage].Properties.StageName}","Variables":{"__proto__":"sv"}`,
    ));
    const app = readLocalApp(dir, ['Backend']);
    const environment = app.functions.get(`Backend/${fn}`)!.environment;
    expect(Object.getOwnPropertyDescriptor(environment, '__proto__')?.value).toBe('p');
    expect(Object.getOwnPropertyDescriptor(environment, 'constructor')?.value).toBe('us-east-1');
    const variables = app.apis[0].stageVariables.prod;
    expect(Object.getOwnPropertyDescriptor(variables, '__proto__')?.value).toBe('sv');
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
