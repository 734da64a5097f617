/**
 * Request validators built by aws-cdk-lib (`RequestValidator`, `addRequestValidator`, `Model` /
 * `addModel` with draft 4 schemas and a `$ref` between models, required `requestParameters`): the
 * gateway's 400 answers byte for byte, which model a body is checked against, the execution log's
 * lines, where the step sits, and a model whose schema cannot be compiled.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, serve, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { LocalApp } from '../../src/cli/local/model/local-app';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, GatewayResponse, LocalGateway } from '../../src/cli/local/rest/gateway';
import { runCli } from '../support/cli';

const INVALID_BODY = '{"message": "Invalid request body"}';

function buildApi(stack: Stack): void {
  const echo = new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify({ reached: true, body: e.body }) });'),
  });
  const integration = new apigw.LambdaIntegration(echo);
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  const pet = api.addModel('PetModel', {
    modelName: 'Pet',
    contentType: 'application/json',
    schema: {
      schema: apigw.JsonSchemaVersion.DRAFT4,
      type: apigw.JsonSchemaType.OBJECT,
      required: ['name', 'kind'],
      properties: {
        name: { type: apigw.JsonSchemaType.STRING },
        kind: { type: apigw.JsonSchemaType.STRING, enum: ['dog', 'cat', 'fish'] },
        price: { type: apigw.JsonSchemaType.NUMBER, minimum: 25, maximum: 500 },
      },
    },
  });
  const order = new apigw.Model(stack, 'OrderModel', {
    restApi: api,
    modelName: 'Order',
    contentType: 'application/json',
    schema: {
      schema: apigw.JsonSchemaVersion.DRAFT4,
      type: apigw.JsonSchemaType.OBJECT,
      required: ['pet', 'quantity'],
      properties: {
        pet: { ref: `https://apigateway.amazonaws.com/restapis/${api.restApiId}/models/${pet.modelId}` },
        quantity: { type: apigw.JsonSchemaType.INTEGER },
      },
    },
  });
  const note = api.addModel('NoteModel', {
    modelName: 'Note',
    contentType: 'text/plain',
    schema: { schema: apigw.JsonSchemaVersion.DRAFT4, type: apigw.JsonSchemaType.STRING },
  });
  const broken = new apigw.Model(stack, 'BrokenModel', {
    restApi: api,
    modelName: 'Broken',
    contentType: 'application/json',
    schema: { schema: apigw.JsonSchemaVersion.DRAFT4, type: 'nonsense' as apigw.JsonSchemaType },
  });
  api.addGatewayResponse('BadParameters', { type: apigw.ResponseType.BAD_REQUEST_PARAMETERS, responseHeaders: { 'x-refused': "'parameters'" } });
  const bodyOnly = new apigw.RequestValidator(stack, 'BodyOnly', { restApi: api, requestValidatorName: 'body-only', validateRequestBody: true });
  const paramsOnly = api.addRequestValidator('ParamsOnly', { requestValidatorName: 'params-only', validateRequestParameters: true });
  const both = api.addRequestValidator('Both', { requestValidatorName: 'all', validateRequestBody: true, validateRequestParameters: true });
  const required = { 'method.request.header.x-tenant': true, 'method.request.querystring.q': true, 'method.request.querystring.optional': false };

  api.root.addResource('pets').addMethod('POST', integration, {
    requestValidator: bodyOnly,
    requestModels: { 'application/json': pet },
    requestParameters: required,
  });
  api.root.addResource('search').addMethod('POST', integration, {
    requestValidator: paramsOnly,
    requestModels: { 'application/json': pet },
    requestParameters: required,
  });
  const orders = api.root.addResource('orders').addResource('{id}');
  orders.addMethod('POST', integration, {
    requestValidator: both,
    requestModels: { 'application/json': order },
    requestParameters: { ...required, 'method.request.path.id': true },
  });
  orders.addMethod('PUT', integration, {
    requestValidator: bodyOnly,
    requestModels: { 'text/plain': note, '$default': order },
  });
  api.root.addResource('unvalidated').addMethod('POST', integration, {
    requestModels: { 'application/json': pet },
    requestParameters: required,
  });
  api.root.addResource('broken').addMethod('POST', integration, {
    requestValidator: bodyOnly,
    requestModels: { 'application/json': broken },
  });
  api.root.addResource('signed').addMethod('POST', integration, {
    authorizationType: apigw.AuthorizationType.IAM,
    requestValidator: both,
    requestModels: { 'application/json': pet },
    requestParameters: required,
  });
}

let assembly: string;
let app: LocalApp;
let invoker: Invoker;

beforeAll(() => {
  assembly = synth(buildApi);
  app = readLocalApp(assembly);
  invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
});

afterAll(async () => {
  await invoker?.close();
});

interface Sent {
  readonly response: GatewayResponse;
  readonly status: number;
  readonly body: string;
  readonly header: (name: string) => string | undefined;
  readonly log: string[];
  readonly notes: string[];
}

interface SendOptions {
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly testInvoke?: boolean;
}

async function send(method: string, target: string, options: SendOptions = {}): Promise<Sent> {
  const notes: string[] = [];
  const note = (_id: string, text: string) => notes.push(text);
  const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions, testInvoke: options.testInvoke, note });
  const log = new ExecutionLog();
  const response = await gateway.handle({
    method,
    target,
    rawHeaders: Object.entries(options.headers ?? {}),
    body: Buffer.from(options.body ?? '', 'utf8'),
    sourceIp: '127.0.0.1',
  }, log);
  return {
    response,
    status: response.statusCode,
    body: response.body.toString(),
    header: (name) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
    log: log.lines.map((l) => l.replace(/^.* UTC \d{4} : /, '')),
    notes,
  };
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const GOOD_PET = JSON.stringify({ name: 'Rex', kind: 'dog', price: 30 });
const GOOD_ORDER = JSON.stringify({ pet: { name: 'Rex', kind: 'dog' }, quantity: 2 });
const PARAMS = { 'x-tenant': 'acme' };

function expectReached(sent: Sent): void {
  expect(sent.status).toBe(200);
  expect(JSON.parse(sent.body).reached).toBe(true);
}

function expectInvalidBody(sent: Sent): void {
  expect(sent.status).toBe(400);
  expect(sent.body).toBe(INVALID_BODY);
  expect(sent.header('x-amzn-ErrorType')).toBe('BadRequestException');
  expect(sent.header('Content-Type')).toBe('application/json');
  expect(sent.header('x-refused')).toBeUndefined();
}

describe('required request parameters (params-only validator)', () => {
  test('missing parameters are one 400 naming each, in the template\'s order, with a space after the colon', async () => {
    const sent = await send('POST', '/prod/search');
    expect(sent.status).toBe(400);
    expect(sent.body).toBe('{"message": "Missing required request parameters: [x-tenant, q]"}');
    expect(sent.header('x-amzn-ErrorType')).toBe('BadRequestException');
    // The API's BAD_REQUEST_PARAMETERS gateway response applies to this answer, not to a body's.
    expect(sent.header('x-refused')).toBe('parameters');
    expect(sent.log).toContain('Request validation failed: Missing required request parameters: [x-tenant, q]');
    expect(sent.notes).toEqual(['POST /search: Missing required request parameters: [x-tenant, q] (validator params-only)']);
  });

  test('a blank value counts as missing; an optional parameter is never required', async () => {
    const blankQuery = await send('POST', '/prod/search?q=&optional=', { headers: PARAMS });
    expect(blankQuery.body).toBe('{"message": "Missing required request parameters: [q]"}');
    const blankHeader = await send('POST', '/prod/search?q=cats', { headers: { 'x-tenant': '   ' } });
    expect(blankHeader.body).toBe('{"message": "Missing required request parameters: [x-tenant]"}');
  });

  test('with every required parameter the request reaches the function, and the body is not checked', async () => {
    expectReached(await send('POST', '/prod/search?q=cats', { headers: { 'X-Tenant': 'acme', ...JSON_TYPE }, body: '{"not":"a pet"}' }));
  });
});

describe('request bodies (body-only validator)', () => {
  test('a body that matches the model reaches the function', async () => {
    expectReached(await send('POST', '/prod/pets', { headers: JSON_TYPE, body: GOOD_PET }));
  });

  test.each([
    ['a missing required property', { name: 'Rex' }, 'object has missing required properties (["kind"])'],
    ['a wrong type', { name: 7, kind: 'dog' }, 'instance type (integer) does not match any allowed primitive type (allowed: ["string"])'],
    ['a value outside the enum', { name: 'Rex', kind: 'bird' }, 'instance value ("bird") not found in enum (possible values: ["dog","cat","fish"])'],
    ['a number under the minimum', { name: 'Rex', kind: 'dog', price: 24 }, 'numeric instance is lower than the required minimum (minimum: 25, found: 24)'],
    ['a number over the maximum', { name: 'Rex', kind: 'dog', price: 501 }, 'numeric instance is greater than the required maximum (maximum: 500, found: 501)'],
  ])('%s is 400 Invalid request body; the execution log says why', async (_what, body, reason) => {
    const sent = await send('POST', '/prod/pets', { headers: JSON_TYPE, body: JSON.stringify(body) });
    expectInvalidBody(sent);
    expect(sent.log).toContain(`Request body does not match model schema for content type application/json: [${reason}]`);
    expect(sent.log).toContain('Method completed with status: 400');
    expect(sent.notes[0]).toMatch(/^POST \/pets: request body does not match model Pet \(application\/json\): /);
  });

  test('the boundaries of the model are allowed', async () => {
    for (const price of [25, 500]) {
      expectReached(await send('POST', '/prod/pets', { headers: JSON_TYPE, body: JSON.stringify({ name: 'Rex', kind: 'cat', price }) }));
    }
  });

  test('an empty body and a body that is not JSON are invalid', async () => {
    for (const body of ['', '{"name":']) {
      const sent = await send('POST', '/prod/pets', { headers: JSON_TYPE, body });
      expectInvalidBody(sent);
      expect(sent.log).toContain('Request body does not match model schema for content type application/json: [Unknown error parsing request body]');
    }
  });

  test('the model is chosen by the media type (parameters and case ignored); without Content-Type the body counts as JSON', async () => {
    expectInvalidBody(await send('POST', '/prod/pets', { headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body: '{}' }));
    expectInvalidBody(await send('POST', '/prod/pets', { body: '{}' }));
  });

  test('a content type without a model (and no $default) is not validated', async () => {
    expectReached(await send('POST', '/prod/pets', { headers: { 'Content-Type': 'text/plain' }, body: 'anything' }));
  });

  test('$default applies to content types without their own model; a $ref between models is followed', async () => {
    expectReached(await send('PUT', '/prod/orders/1', { headers: { 'Content-Type': 'application/xml' }, body: GOOD_ORDER }));
    const badNested = await send('PUT', '/prod/orders/1', { headers: { 'Content-Type': 'application/xml' }, body: JSON.stringify({ pet: { name: 'Rex' }, quantity: 1 }) });
    expectInvalidBody(badNested);
    expect(badNested.log).toContain('Request body does not match model schema for content type application/xml: [object has missing required properties (["kind"])]');
    expect(badNested.notes[0]).toContain('/pet: object has missing required properties (["kind"])');
    const wrongQuantity = await send('PUT', '/prod/orders/1', { headers: JSON_TYPE, body: JSON.stringify({ pet: { name: 'Rex', kind: 'dog' }, quantity: 1.5 }) });
    expectInvalidBody(wrongQuantity);
  });

  test('a content type with its own model uses it, not $default', async () => {
    expectReached(await send('PUT', '/prod/orders/1', { headers: { 'Content-Type': 'text/plain' }, body: '"a note"' }));
    expectInvalidBody(await send('PUT', '/prod/orders/1', { headers: { 'Content-Type': 'text/plain' }, body: GOOD_ORDER }));
  });

  test('a body-only validator does not check parameters', async () => {
    expectReached(await send('POST', '/prod/pets', { headers: JSON_TYPE, body: GOOD_PET }));
  });
});

describe('a validator for both', () => {
  test('parameters are checked before the body', async () => {
    const sent = await send('POST', '/prod/orders/7', { headers: JSON_TYPE, body: '{}' });
    expect(sent.body).toBe('{"message": "Missing required request parameters: [x-tenant, q]"}');
    const badBody = await send('POST', '/prod/orders/7?q=1', { headers: { ...PARAMS, ...JSON_TYPE }, body: '{}' });
    expectInvalidBody(badBody);
    expectReached(await send('POST', '/prod/orders/7?q=1', { headers: { ...PARAMS, ...JSON_TYPE }, body: GOOD_ORDER }));
  });

  test('the console\'s TEST validates as well', async () => {
    const sent = await send('POST', '/orders/7?q=1', { headers: { ...PARAMS, ...JSON_TYPE }, body: '{"pet":{}}', testInvoke: true });
    expectInvalidBody(sent);
    expect(sent.log).toContain('Request body does not match model schema for content type application/json: [object has missing required properties (["quantity"]), object has missing required properties (["name","kind"])]');
  });

  test('validation comes after authorization: an unsigned request to an IAM method is refused before its body is looked at', async () => {
    const sent = await send('POST', '/prod/signed', { headers: JSON_TYPE, body: '{}' });
    expect(sent.status).toBe(403);
    expect(sent.body).not.toContain('Invalid request body');
  });
});

test('a method without a validator is not validated, models and required parameters notwithstanding', async () => {
  const sent = await send('POST', '/prod/unvalidated', { headers: JSON_TYPE, body: '{"not":"a pet"}' });
  expectReached(sent);
  expect(restApi(app.apis[0]).root.literalChildren.get('unvalidated')!.methods.get('POST')!.requestValidation).toBeUndefined();
});

test('a model whose schema ajv refuses is a start-up warning naming it and its method, and that method answers 500', async () => {
  const warning = app.warnings.find((w) => w.includes('model Broken'));
  expect(warning).toMatch(/^LocalTest\/ApibrokenPOST[0-9A-F]+: model Broken \(application\/json\) cannot validate request bodies: its schema is not a valid JSON Schema draft 4 \(schema is invalid: data\/type must be equal to one of the allowed values/);
  expect(warning).toMatch(/the method answers 500 for bodies of that type \(API Gateway refuses such a model at deploy\)$/);
  const sent = await send('POST', '/prod/broken', { headers: JSON_TYPE, body: '{}' });
  expect(sent.status).toBe(500);
  expect(sent.body).toBe('{"message":"Internal server error"}');
  expect(sent.notes).toEqual([expect.stringMatching(/^POST \/broken: model Broken cannot validate the request body \(its schema is not a valid JSON Schema draft 4 /)]);
  // The other models of the API are unaffected.
  expectReached(await send('POST', '/prod/pets', { headers: JSON_TYPE, body: GOOD_PET }));
});

test('end to end: serve answers curl with the gateway\'s exact bytes', async () => {
  const running = await serve(assembly);
  try {
    const invalid = parseCurlResponse((await curl(['-i', '-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"name":"Rex"}', `${running.url}pets`])).stdout);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toBe(INVALID_BODY);
    expect(invalid.headers['content-type']).toBe('application/json');
    expect(invalid.headers['x-amzn-errortype']).toBe('BadRequestException');
    expect(invalid.headers['content-length']).toBe(String(INVALID_BODY.length));
    const missing = parseCurlResponse((await curl(['-i', '-X', 'POST', `${running.url}search?optional=1`])).stdout);
    expect(missing.status).toBe(400);
    expect(missing.body).toBe('{"message": "Missing required request parameters: [x-tenant, q]"}');
    const valid = parseCurlResponse((await curl(['-i', '-X', 'POST', '-H', 'Content-Type: application/json', '--data', GOOD_PET, `${running.url}pets`])).stdout);
    expect(valid.status).toBe(200);
    expect(JSON.parse(valid.body)).toEqual({ reached: true, body: GOOD_PET });
  } finally {
    await running.close();
  }
});

test('test-invoke (a real CLI process) answers the validator\'s 400 and logs why; exit 0', async () => {
  const run = await runCli(['test-invoke', '--app', assembly, '--method', 'POST', '--path', '/pets', '--header', 'Content-Type:application/json', '--body', '{"name":"Rex","kind":"bird"}']);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Request: \/pets\nStatus: 400\nLatency: \d+ ms\nResponse body:\n\{"message": "Invalid request body"\}\nResponse headers:\n\{Content-Type=application\/json, x-amzn-RequestId=[0-9a-f-]{36}, x-amzn-ErrorType=BadRequestException, /);
  expect(run.stdout).toContain(' : Request body does not match model schema for content type application/json: [instance value ("bird") not found in enum (possible values: ["dog","cat","fish"])]\n');
});
