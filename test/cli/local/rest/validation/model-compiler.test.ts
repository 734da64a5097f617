/**
 * Models read from templates the way CloudFormation takes them (a JSON string schema, a `$ref`
 * naming the deployed API's id) and compiled; ajv is loaded only when a body is validated.
 */
import { spawnSync } from 'child_process';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { environment, template } from './model-template';
import { BodyModelSpec } from '../../../../../src/cli/local/model/rest-api';
import { compileModels, ModelLookup } from '../../../../../src/cli/local/rest/validation/model-compiler';
import { readModelSchemas } from '../../../../../src/cli/local/rest/validation/model-schemas';
import { bodyProblems } from '../../../../../src/cli/local/rest/validation/request-checks';
import { ROOT } from '../../../../support/cli';
import { libFile } from '../../../../support/compiled';
import { synth } from '../../support';

function compiled(models: Record<string, unknown>): ModelLookup {
  const schemas = readModelSchemas('Stack', template(models), 'Api', environment);
  return compileModels('Api', schemas.byName.values());
}

function check(model: BodyModelSpec | undefined, body: string): string[] {
  return bodyProblems(model as any, Buffer.from(body)).map((p) => p.text);
}

test('a schema written as a JSON string is read; a $ref with the deployed API\'s id resolves to this API\'s model', () => {
  const models = compiled({
    Tag: { Name: 'Tag', Schema: JSON.stringify({ type: 'string', minLength: 2 }) },
    Post: { Name: 'Post', Schema: { type: 'object', properties: { tag: { $ref: 'https://apigateway.amazonaws.com/restapis/a1b2c3d4e5/models/Tag' } } } },
  });
  expect(check(models('Post'), '{"tag":"ok"}')).toEqual([]);
  expect(check(models('Post'), '{"tag":"x"}')).toEqual(['string "x" is too short (length: 1, required minimum: 2)']);
});

test('the built-in Empty and Error models exist in every API', () => {
  const models = compiled({});
  expect(check(models('Empty'), '{}')).toEqual([]);
  expect(check(models('Empty'), '[]')).toEqual(['instance type (array) does not match any allowed primitive type (allowed: ["object"])']);
  expect(check(models('Error'), '{"message":1}')).toEqual(['instance type (integer) does not match any allowed primitive type (allowed: ["string"])']);
});

test('a $ref to a model that is not there, a schema string that is not JSON, and an unresolvable intrinsic are problems, not crashes', () => {
  const models = compiled({
    Dangling: { Name: 'Dangling', Schema: { properties: { a: { $ref: 'https://apigateway.amazonaws.com/restapis/Api/models/Nowhere' } } } },
    NotJson: { Name: 'NotJson', Schema: '{"type":' },
    Unknown: { Name: 'Unknown', Schema: { title: { Ref: 'SomethingElse' } } },
  });
  expect(models('Dangling')!.problem).toMatch(/^its schema cannot be compiled \(can't resolve reference https:\/\/apigateway\.amazonaws\.com\/restapis\/Api\/models\/Nowhere/);
  expect(models('NotJson')!.problem).toMatch(/^its schema is a string that is not JSON \(/);
  expect(models('Unknown')!.problem).toBe('its schema refers to something that is not known locally (Ref SomethingElse is not known locally)');
});

/** Whether reading the assembly in a fresh Node.js process (the compiled lib/, whose vendored copy is lib/vendor/ajv-draft-04.js) loads ajv-draft-04. */
function loadsAjv(assembly: string): boolean {
  const script = `require(${JSON.stringify(libFile('cli/local/read-local-app.js'))}).readLocalApp(${JSON.stringify(assembly)});
    process.stdout.write(String(Object.keys(require.cache).some((f) => f.includes('ajv-draft-04'))));`;
  const child = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(child.stderr).toBe('');
  return child.stdout === 'true';
}

test('ajv is loaded only for an app whose methods validate bodies', () => {
  const withoutValidator = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Api');
    api.root.addMethod('POST', new apigw.MockIntegration(), { requestModels: { 'application/json': apigw.Model.EMPTY_MODEL } });
  });
  const withValidator = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Api');
    api.root.addMethod('POST', new apigw.MockIntegration(), {
      requestValidatorOptions: { validateRequestBody: true },
      requestModels: { 'application/json': apigw.Model.EMPTY_MODEL },
    });
  });
  expect(loadsAjv(withoutValidator)).toBe(false);
  expect(loadsAjv(withValidator)).toBe(true);
});

describe('a model\'s `pattern` runs in linear time on the request body', () => {
  const models = compiled({
    Code: { Name: 'Code', Schema: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, note: { type: 'string', pattern: '(a|aa)*b' } } } },
    Ahead: { Name: 'Ahead', Schema: { type: 'string', pattern: '^(?=a)a$' } },
  });

  test.each([
    ['{"code":"ABC-1234"}', []],
    ['{"code":"abc-1234"}', ['ECMA 262 regex "^[A-Z]{3}-\\\\d{4}$" does not match input string "abc-1234"']],
    ['{"note":"xxabyy"}', []],
  ])('%s: as ECMA 262 reads the pattern (found anywhere unless anchored)', (body, problems) => {
    expect(check(models('Code'), body)).toEqual(problems);
  });

  test('a note of 100,000 characters against (a|aa)*b is checked at once', () => {
    const started = process.hrtime.bigint();
    expect(check(models('Code'), JSON.stringify({ note: 'a'.repeat(100_000) }))).toHaveLength(1);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });

  test('a pattern RE2 cannot run (lookahead) makes the model unusable, naming the pattern', () => {
    expect(models('Ahead')?.problem).toMatch(/^its schema cannot be compiled \(pattern "\^\(\?=a\)a\$" cannot be run in linear time: .*\)$/);
  });
});
