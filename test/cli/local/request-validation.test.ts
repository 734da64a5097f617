/**
 * The pieces of request validation on their own: models read from templates the way CloudFormation
 * takes them (a JSON string schema, a `$ref` naming the deployed API's id), the required-parameter
 * check, and how the model is chosen by the request's media type.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { synth } from './support';
import { parseQuery } from '../../../src/cli/local/common/query-string';
import { BodyModelSpec } from '../../../src/cli/local/model/rest-api';
import { readRequestValidation } from '../../../src/cli/local/rest/reader/validator-reader';
import { compileModels, ModelLookup } from '../../../src/cli/local/rest/validation/model-compiler';
import { readModelSchemas } from '../../../src/cli/local/rest/validation/model-schemas';
import { bodyProblems, missingParameters, modelFor, requestMediaType } from '../../../src/cli/local/rest/validation/request-checks';
import { pseudoParameters } from '../../../src/cli/local/template/intrinsics';
import { libFile } from '../../support/compiled';

const environment = { pseudo: pseudoParameters('us-east-1', 'Stack'), ref: (id: string) => (id === 'Api' ? 'Api' : undefined), getAtt: () => undefined };

function template(models: Record<string, unknown>): Record<string, any> {
  const resources: Record<string, any> = { Api: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'api' } } };
  for (const [id, properties] of Object.entries(models)) {
    resources[id] = { Type: 'AWS::ApiGateway::Model', Properties: { RestApiId: { Ref: 'Api' }, ContentType: 'application/json', ...(properties as object) } };
  }
  return resources;
}

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

test('each model is compiled once, for the first method that validates a body with it; a model no method uses is not compiled', () => {
  const resources = template({
    Pet: { Name: 'Pet', Schema: { type: 'object', required: ['name'] } },
    Unused: { Name: 'Unused', Schema: { properties: { a: { $ref: 'https://apigateway.amazonaws.com/restapis/Api/models/Nowhere' } } } },
  });
  resources.Validator = { Type: 'AWS::ApiGateway::RequestValidator', Properties: { RestApiId: { Ref: 'Api' }, ValidateRequestBody: true } };
  const warnings: string[] = [];
  const read = readRequestValidation({ stackName: 'Stack', resources, apiLogicalId: 'Api', environment, warnings });
  const method = { RequestValidatorId: { Ref: 'Validator' }, RequestModels: { 'Application/JSON': { Ref: 'Pet' }, '$default': 'Missing' } };
  const first = read('M1', method)!;
  const second = read('M2', method)!;
  expect(first.bodyModels.get('application/json')).toBe(second.bodyModels.get('application/json'));
  expect(warnings).toEqual([
    'Stack/M1: model Missing ($default) cannot validate request bodies: no model Missing of this API is in the template; the method answers 500 for bodies of that type (API Gateway refuses such a model at deploy)',
    'Stack/M2: model Missing ($default) cannot validate request bodies: no model Missing of this API is in the template; the method answers 500 for bodies of that type (API Gateway refuses such a model at deploy)',
  ]);
});

test('a validator that checks nothing, or none, costs the method nothing; an unknown validator id is a warning', () => {
  const resources = template({});
  resources.Nothing = { Type: 'AWS::ApiGateway::RequestValidator', Properties: { RestApiId: { Ref: 'Api' } } };
  const warnings: string[] = [];
  const read = readRequestValidation({ stackName: 'Stack', resources, apiLogicalId: 'Api', environment, warnings });
  expect(read('M1', { RequestValidatorId: { Ref: 'Nothing' } })).toBeUndefined();
  expect(read('M2', {})).toBeUndefined();
  expect(read('M3', { RequestValidatorId: { Ref: 'Elsewhere' } })).toBeUndefined();
  expect(read('M4', { RequestValidatorId: 'abc123' })).toBeUndefined();
  expect(warnings).toEqual([
    'Stack/M3: its RequestValidatorId is not a request validator of this API in the template; requests are not validated',
    'Stack/M4: its RequestValidatorId is not a request validator of this API in the template; requests are not validated',
  ]);
});

test('required parameters: present and not blank, by location, in the template\'s order', () => {
  const required = [
    { location: 'path', name: 'id' },
    { location: 'multivaluequerystring', name: 'tag' },
    { location: 'header', name: 'x-tenant' },
    { location: 'querystring', name: '__proto__' },
  ] as const;
  const headers: Record<string, string> = { 'x-tenant': 'acme' };
  const request = (query: string, pathParameters: Record<string, string> = {}) => ({
    pathParameters,
    query: parseQuery(query),
    header: (n: string) => headers[n],
  });
  expect(missingParameters(required, request(''))).toEqual(['id', 'tag', '__proto__']);
  expect(missingParameters(required, request('tag=&tag=%20&__proto__=x', { id: '7' }))).toEqual(['tag']);
  expect(missingParameters(required, request('tag=a&tag=&__proto__=x', { id: '7' }))).toEqual([]);
  expect(missingParameters(required, request('tag=a&__proto__=%20', { id: '7' }))).toEqual(['__proto__']);
  expect(missingParameters(required, request('tag=a&__proto__=x', { id: '7' }))).toEqual([]);
});

test.each([
  [undefined, 'application/json'],
  ['', 'application/json'],
  ['TEXT/Plain; charset=UTF-8', 'text/plain'],
  ['application/vnd.api+json', 'application/vnd.api+json'],
])('the media type of Content-Type %p is %p', (header, type) => {
  expect(requestMediaType(header)).toBe(type);
});

test('a media type\'s own model wins over $default; without either the body is not validated', () => {
  const own: BodyModelSpec = { name: 'Own' };
  const fallback: BodyModelSpec = { name: 'Fallback' };
  expect(modelFor(new Map([['text/plain', own], ['$default', fallback]]), 'text/plain')).toBe(own);
  expect(modelFor(new Map([['text/plain', own], ['$default', fallback]]), 'application/xml')).toBe(fallback);
  expect(modelFor(new Map([['text/plain', own]]), 'application/json')).toBeUndefined();
});

/** Whether reading the assembly in a fresh Node.js process (the compiled lib/, whose vendored copy is lib/vendor/ajv-draft-04.js) loads ajv-draft-04. */
function loadsAjv(assembly: string): boolean {
  const root = path.join(__dirname, '..', '..', '..');
  const script = `require(${JSON.stringify(libFile('cli/local/read-local-app.js'))}).readLocalApp(${JSON.stringify(assembly)});
    process.stdout.write(String(Object.keys(require.cache).some((f) => f.includes('ajv-draft-04'))));`;
  const child = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
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
