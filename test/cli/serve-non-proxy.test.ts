/**
 * Non-proxy HTTP and AWS service integrations and the MOCK CORS preflight with several origins,
 * built with aws-cdk-lib's `HttpIntegration({ proxy: false })`, `AwsIntegration` (DynamoDB PutItem
 * and GetItem, against a local server that speaks DynamoDB's JSON 1.0 protocol and checks the
 * SigV4 signature) and `defaultCorsPreflightOptions`: request templates and parameters, the
 * integration response selected by the status code, response parameters and templates, the
 * integration timeout (504) and an unreachable endpoint (500).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { startFakeDynamoDb, FakeDynamoDb } from './local/dynamodb-fake';
import { curl, parseCurlResponse, serve, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

let upstream: http.Server;
let upstreamUrl: string;
const received: Received[] = [];

function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url!.startsWith('/slow')) {
        setTimeout(() => res.end('late'), 800).unref();
        return;
      }
      if (req.url!.startsWith('/pets/missing')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"reason":"no pet"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Upstream': 'up-1' });
      res.end(JSON.stringify({ name: 'Rex', url: req.url }));
    });
  });
  return new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => {
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    resolve();
  }));
}

function buildApi(stack: Stack): void {
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  const pet = api.root.addResource('pets').addResource('{id}');
  pet.addMethod('GET', new apigw.HttpIntegration(`${upstreamUrl}/pets/{petId}`, {
    proxy: false,
    httpMethod: 'POST',
    options: {
      requestParameters: {
        'integration.request.path.petId': 'method.request.path.id',
        'integration.request.querystring.verbose': "'yes'",
        'integration.request.header.X-Caller': 'method.request.header.X-User',
      },
      requestTemplates: { 'application/json': '{"wanted": "$input.params(\'id\')", "stage": "$context.stage"}' },
      integrationResponses: [
        {
          statusCode: '200',
          responseParameters: { 'method.response.header.X-From-Upstream': 'integration.response.header.X-Upstream' },
          responseTemplates: { 'application/json': '{"pet": "$input.path(\'$.name\')"}' },
        },
        { statusCode: '404', selectionPattern: '404', responseTemplates: { 'application/json': '{"missing": $input.json(\'$.reason\')}' } },
      ],
    },
  }), {
    requestParameters: { 'method.request.path.id': true, 'method.request.header.X-User': false },
    methodResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.X-From-Upstream': true } }, { statusCode: '404' }],
  });
  api.root.addResource('overridden').addMethod('POST', new apigw.HttpIntegration(`${upstreamUrl}/pets/{petId}`, {
    proxy: false,
    options: {
      requestParameters: { 'integration.request.path.petId': "'from-mapping'", 'integration.request.header.X-Set': "'from-mapping'" },
      requestTemplates: {
        'application/json': '#set($context.requestOverride.header.X-Set = "from-template")#set($context.requestOverride.querystring.page = "3")#set($context.requestOverride.path.petId = "p9")$input.body',
      },
      integrationResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.X-Via': "'mapped'" } }],
    },
  }), { methodResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.X-Via': true } }] });
  api.root.addResource('slow').addMethod('GET', new apigw.HttpIntegration(`${upstreamUrl}/slow`, {
    proxy: false,
    options: { timeout: Duration.millis(300), integrationResponses: [{ statusCode: '200' }] },
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('down').addMethod('GET', new apigw.HttpIntegration('http://127.0.0.1:1/nothing', {
    proxy: false,
    options: { integrationResponses: [{ statusCode: '200' }] },
  }), { methodResponses: [{ statusCode: '200' }] });

  const table = api.root.addResource('table').addResource('{id}');
  table.addMethod('PUT', new apigw.AwsIntegration({
    service: 'dynamodb',
    action: 'PutItem',
    options: {
      requestTemplates: { 'application/json': '{"TableName": "Pets", "Item": {"id": {"S": "$input.params(\'id\')"}, "name": {"S": "$util.escapeJavaScript($input.path(\'$.name\'))"}}}' },
      integrationResponses: [
        { statusCode: '200', responseTemplates: { 'application/json': '{"stored": "$input.params(\'id\')"}' } },
        { statusCode: '400', selectionPattern: '4\\d\\d', responseTemplates: { 'application/json': '{"error": "$input.path(\'$.__type\').replaceAll(\'.*#\', \'\')"}' } },
      ],
    },
  }), { methodResponses: [{ statusCode: '200' }, { statusCode: '400' }] });
  table.addMethod('GET', new apigw.AwsIntegration({
    service: 'dynamodb',
    action: 'GetItem',
    options: {
      requestTemplates: { 'application/json': '{"TableName": "Pets", "Key": {"id": {"S": "$input.params(\'id\')"}}}' },
      integrationResponses: [{
        statusCode: '200',
        responseTemplates: { 'application/json': '#set($item = $input.path(\'$.Item\'))#if(!$item)#set($context.responseOverride.status = 404){"found": false}#else{"id": "$item.id.S", "name": "$util.escapeJavaScript($item.name.S)"}#end' },
      }],
    },
  }), { methodResponses: [{ statusCode: '200' }, { statusCode: '404' }] });

  api.root.addResource('cors', { defaultCorsPreflightOptions: { allowOrigins: ['https://a.example', 'https://b.example'] } })
    .addMethod('GET', new apigw.MockIntegration({ integrationResponses: [{ statusCode: '200' }] }), { methodResponses: [{ statusCode: '200' }] });
}

const CREDENTIALS = { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-secret' };
const SAVED_ENV = { ...process.env };
let dynamo: FakeDynamoDb;
let assembly: string;
let invoker: Invoker;
let gateway: LocalGateway;
const notes: string[] = [];

beforeAll(async () => {
  await startUpstream();
  dynamo = await startFakeDynamoDb(CREDENTIALS);
  assembly = synth(buildApi);
  const app = readLocalApp(assembly);
  invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
  gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions, note: (_, text) => notes.push(text) });
});

beforeEach(() => {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.url;
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_ENDPOINT_URL;
});

afterAll(async () => {
  process.env = SAVED_ENV;
  await invoker?.close();
  await dynamo?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function send(method: string, target: string, options: { body?: string; headers?: Array<[string, string]> } = {}) {
  const log = new ExecutionLog();
  const response = await gateway.handle({
    method, target, rawHeaders: options.headers ?? [], body: Buffer.from(options.body ?? '', 'utf8'), sourceIp: '127.0.0.1',
  }, log);
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    headers[name.toLowerCase()] = value;
  }
  return { status: response.statusCode, headers, body: response.body.toString(), log: log.lines.map((l) => l.replace(/^.* UTC \d{4} : /, '')) };
}

describe('HTTP integration (non-proxy)', () => {
  test('the mapped request reaches the endpoint: method, path and query parameters, headers and the templated body; nothing unmapped', async () => {
    received.length = 0;
    const response = await send('GET', '/prod/pets/p%201?unmapped=1', { headers: [['X-User', 'ann'], ['X-Other', 'o']] });
    expect(response.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0].method).toBe('POST');
    expect(received[0].url).toBe('/pets/p%201?verbose=yes');
    expect(received[0].headers['x-caller']).toBe('ann');
    expect(received[0].headers['x-other']).toBeUndefined();
    expect(JSON.parse(received[0].body)).toEqual({ wanted: 'p 1', stage: 'prod' });
    expect(response.body).toBe('{"pet": "Rex"}');
    expect(response.headers['x-from-upstream']).toBe('up-1');
  });

  test('$context.requestOverride in the request template replaces the mapped path, query and header values', async () => {
    received.length = 0;
    const response = await send('POST', '/prod/overridden', { body: '{"a":1}', headers: [['Content-Type', 'application/json']] });
    expect(response.status).toBe(200);
    expect(received[0].url).toBe('/pets/p9?page=3');
    expect(received[0].headers['x-set']).toBe('from-template');
    expect(received[0].headers['content-type']).toBe('application/json');
    expect(received[0].body).toBe('{"a":1}');
    // Without a response template the endpoint's body passes as it is.
    expect(JSON.parse(response.body)).toEqual({ name: 'Rex', url: '/pets/p9?page=3' });
    expect(response.headers['x-via']).toBe('mapped');
  });

  test('the endpoint\'s status code selects the integration response', async () => {
    const response = await send('GET', '/prod/pets/missing');
    expect(response.status).toBe(404);
    expect(response.body).toBe('{"missing": "no pet"}');
  });

  test('past the integration timeout: 504 Endpoint request timed out', async () => {
    const response = await send('GET', '/prod/slow');
    expect(response.status).toBe(504);
    expect(response.body).toBe('{"message":"Endpoint request timed out"}');
    expect(response.log).toContain('Execution failed due to a timeout error');
  });

  test('an endpoint that cannot be reached: 500 Internal server error, logged as a configuration error', async () => {
    const response = await send('GET', '/prod/down');
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"message":"Internal server error"}');
    expect(response.log.some((l) => l.startsWith('Execution failed due to configuration error: '))).toBe(true);
  });
});

describe('AWS service integration (DynamoDB)', () => {
  test('PutItem then GetItem: the templates build the service requests, signed; the responses are mapped', async () => {
    const put = await send('PUT', '/prod/table/t-1', { body: '{"name":"Fido \\"the dog\\""}', headers: [['Content-Type', 'application/json']] });
    expect(put.status).toBe(200);
    expect(put.body).toBe('{"stored": "t-1"}');
    const request = dynamo.requests[dynamo.requests.length - 1];
    expect(request.headers['x-amz-target']).toBe('DynamoDB_20120810.PutItem');
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
    expect(JSON.parse(request.body)).toEqual({ TableName: 'Pets', Item: { id: { S: 't-1' }, name: { S: 'Fido "the dog"' } } });
    const got = await send('GET', '/prod/table/t-1');
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toEqual({ id: 't-1', name: 'Fido "the dog"' });
  });

  test('$context.responseOverride.status in the response template: an item that is not there is 404', async () => {
    const got = await send('GET', '/prod/table/none');
    expect(got.status).toBe(404);
    expect(got.body).toBe('{"found": false}');
  });

  test('a service error status selects the error response (a wrong secret: the signature does not verify)', async () => {
    process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret';
    const put = await send('PUT', '/prod/table/t-2', { body: '{"name":"x"}', headers: [['Content-Type', 'application/json']] });
    expect(put.status).toBe(400);
    expect(put.body).toBe('{"error": "InvalidSignatureException"}');
  });

  test('without an endpoint variable: 500, and the note names the variable to set', async () => {
    delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
    notes.length = 0;
    const put = await send('PUT', '/prod/table/t-3', { body: '{"name":"x"}', headers: [['Content-Type', 'application/json']] });
    expect(put.status).toBe(500);
    expect(put.body).toBe('{"message":"Internal server error"}');
    expect(notes.join('\n')).toMatch(/AWS_ENDPOINT_URL_DYNAMODB/);
  });
});

describe('CORS preflight with several allowed origins (MOCK with a response template)', () => {
  test.each([
    ['https://b.example', 'https://b.example'],
    ['https://a.example', 'https://a.example'],
    // Another origin gets the first allowed one, which a browser refuses.
    ['https://evil.example', 'https://a.example'],
  ])('Origin %s → Access-Control-Allow-Origin %s', async (origin, allowed) => {
    const response = await send('OPTIONS', '/prod/cors', { headers: [['Origin', origin], ['Access-Control-Request-Method', 'GET']] });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(allowed);
    expect(response.headers.vary).toBe('Origin');
  });
});

test('through the real server: curl reaches the HTTP endpoint through the mapping', async () => {
  const running = await serve(assembly);
  try {
    const response = parseCurlResponse((await curl(['-i', `${running.url}pets/42`])).stdout);
    expect(response.status).toBe(200);
    expect(response.body).toBe('{"pet": "Rex"}');
    expect(response.headers['x-from-upstream']).toBe('up-1');
  } finally {
    await running.close();
  }
});
