/**
 * Non-proxy Lambda integrations and MOCK integrations with mapping templates, built with
 * aws-cdk-lib's `LambdaIntegration({ proxy: false })` and `MockIntegration`: request templates
 * chosen by content type, passthrough behaviours, integration responses selected by
 * SelectionPattern on the function's error message, response parameters and templates (chosen by
 * Accept), `$context.responseOverride`, and the gateway's errors. Driven through the gateway in
 * process with its execution log; one request goes through the real server with curl.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, serve, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';

const HANDLER = `
exports.handler = async (event) => {
  if (event.action === 'fail') throw new Error('Bad input: ' + event.reason);
  if (event.action === 'explode') throw new TypeError('something else broke');
  if (event.action === 'nothing') return undefined;
  if (event.action === 'bytes') return Buffer.from([0xff, 0x00, 0x10, 0x41]).toString('base64');
  return { received: event, items: [{ id: 1, name: 'first' }, { id: 2, name: 'second' }] };
};`;

const ORDER_REQUEST = [
  '#set($body = $input.path(\'$\'))',
  '{',
  '  "action": "$util.escapeJavaScript($body.action)",',
  '  "reason": $input.json(\'$.reason\'),',
  '  "payload": $input.json(\'$\'),',
  '  "id": "$input.params(\'id\')",',
  '  "page": "$input.params(\'page\')",',
  '  "trace": "$input.params(\'x-trace\')",',
  '  "stage": "$context.stage",',
  '  "resourcePath": "$context.resourcePath",',
  '  "method": "$context.httpMethod",',
  '  "requestId": "$context.requestId",',
  '  "color": "$stageVariables.color"',
  '}',
].join('\n');

function buildApi(stack: Stack): void {
  const fn = new lambda.Function(stack, 'Orders', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(HANDLER) });
  const api = new apigw.RestApi(stack, 'Api', {
    deployOptions: { stageName: 'prod', variables: { color: 'blue' } },
    binaryMediaTypes: ['application/octet-stream'],
  });
  const orders = api.root.addResource('orders').addResource('{id}');
  orders.addMethod('POST', new apigw.LambdaIntegration(fn, {
    proxy: false,
    passthroughBehavior: apigw.PassthroughBehavior.NEVER,
    requestTemplates: { 'application/json': ORDER_REQUEST },
    integrationResponses: [
      {
        statusCode: '200',
        responseTemplates: { 'application/json': '#set($r = $input.path(\'$\')){"count": $r.items.size(), "first": "$r.items[0].name", "echo": $input.json(\'$.received\')}' },
        responseParameters: { 'method.response.header.X-First': 'integration.response.body.items[0].name', 'method.response.header.X-Static': "'static'" },
      },
      {
        statusCode: '400',
        selectionPattern: 'Bad input:.*',
        responseTemplates: { 'application/json': '{"error": "$util.escapeJavaScript($input.path(\'$.errorMessage\'))"}' },
        responseParameters: { 'method.response.header.X-Error': "'yes'" },
      },
    ],
  }), {
    methodResponses: [
      { statusCode: '200', responseParameters: { 'method.response.header.X-First': true, 'method.response.header.X-Static': true } },
      { statusCode: '400', responseParameters: { 'method.response.header.X-Error': true } },
    ],
  });
  // No templates at all: the body passes through and the function's answer comes back as it is.
  api.root.addResource('raw').addMethod('POST', new apigw.LambdaIntegration(fn, { proxy: false, integrationResponses: [{ statusCode: '200' }] }), {
    methodResponses: [{ statusCode: '200' }],
  });
  api.root.addResource('strict').addMethod('POST', new apigw.LambdaIntegration(fn, {
    proxy: false,
    passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_TEMPLATES,
    requestTemplates: { 'application/json': '$input.json(\'$\')' },
    integrationResponses: [{ statusCode: '200' }],
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('upload').addMethod('POST', new apigw.LambdaIntegration(fn, {
    proxy: false,
    contentHandling: apigw.ContentHandling.CONVERT_TO_TEXT,
    requestTemplates: { 'application/octet-stream': '{"action": "echo", "data": "$input.body"}' },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '$input.json(\'$.received.data\')' } }],
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('download').addMethod('GET', new apigw.LambdaIntegration(fn, {
    proxy: false,
    requestTemplates: { 'application/json': '{"action": "bytes"}' },
    integrationResponses: [{
      statusCode: '200',
      contentHandling: apigw.ContentHandling.CONVERT_TO_BINARY,
      responseParameters: { 'method.response.header.Content-Type': "'application/octet-stream'" },
    }],
  }), { methodResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.Content-Type': true } }] });
  const mock = (requestTemplate: string, responses: apigw.IntegrationResponse[]) => new apigw.MockIntegration({
    requestTemplates: { 'application/json': requestTemplate },
    integrationResponses: responses,
  });
  api.root.addResource('status').addMethod('GET', mock('{"statusCode": $input.params(\'code\')}', [
    { statusCode: '404', selectionPattern: '404', responseTemplates: { 'application/json': '{"message": "no such thing"}' } },
    { statusCode: '200', responseTemplates: { 'application/json': '{"ok": true}' } },
  ]), { methodResponses: [{ statusCode: '200' }, { statusCode: '404' }] });
  api.root.addResource('only-404').addMethod('GET', mock('{"statusCode": 200}', [{ statusCode: '404', selectionPattern: '404' }]), {
    methodResponses: [{ statusCode: '404' }],
  });
  api.root.addResource('greet').addMethod('GET', mock('{"statusCode": 200}', [{
    statusCode: '200',
    responseTemplates: {
      'application/json': '{"hello": "$input.params(\'name\')"}',
      'text/html': '<p>Hello $input.params(\'name\')</p>',
    },
  }]), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('override').addMethod('GET', mock('{"statusCode": 200}', [{
    statusCode: '200',
    responseTemplates: { 'application/json': '#set($context.responseOverride.status = 202)#set($context.responseOverride.header.X-Override = "$context.stage")accepted' },
  }]), { methodResponses: [{ statusCode: '200' }] });
  const keyed = api.root.addResource('keyed');
  keyed.addMethod('GET', mock('{"statusCode": 200}', [{
    statusCode: '200',
    responseTemplates: { 'application/json': '$context.identity.apiKey|$context.identity.apiKeyId|$context.identity.sourceIp' },
  }]), { apiKeyRequired: true, methodResponses: [{ statusCode: '200' }] });
  const key = new apigw.ApiKey(stack, 'Key', { value: 'mapping-test-key-0123456789' });
  new apigw.UsagePlan(stack, 'Plan', { apiStages: [{ api, stage: api.deploymentStage }] }).addApiKey(key);
  api.root.addResource('broken').addMethod('GET', mock('#if($input.body', [{ statusCode: '200' }]), { methodResponses: [{ statusCode: '200' }] });
}

let assembly: string;
let invoker: Invoker;
let gateway: LocalGateway;

beforeAll(() => {
  assembly = synth(buildApi);
  const app = readLocalApp(assembly);
  invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
  gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions });
});

afterAll(async () => {
  await invoker?.close();
});

interface Sent {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly log: string[];
}

async function send(method: string, target: string, options: { body?: string; headers?: Array<[string, string]> } = {}): Promise<Sent> {
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

const json: Array<[string, string]> = [['Content-Type', 'application/json']];

describe('Lambda non-proxy integration', () => {
  test('the request template builds the event from the body, parameters, context and stage variables; the response template maps the result', async () => {
    const response = await send('POST', '/prod/orders/o-7?page=2', { body: '{"action":"list","reason":"none"}', headers: [...json, ['X-Trace', 't-1']] });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body);
    expect(body.count).toBe(2);
    expect(body.first).toBe('first');
    expect(body.echo).toEqual({
      action: 'list',
      reason: 'none',
      payload: { action: 'list', reason: 'none' },
      id: 'o-7',
      page: '2',
      trace: 't-1',
      stage: 'prod',
      resourcePath: '/orders/{id}',
      method: 'POST',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      color: 'blue',
    });
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-first']).toBe('first');
    expect(response.headers['x-static']).toBe('static');
    expect(response.log).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Endpoint request body after transformations: \{\n {2}"action": "list",/),
      expect.stringMatching(/^Endpoint response body before transformations: \{"received":/),
      expect.stringMatching(/^Method response body after transformations: \{"count": 2,/),
    ]));
  });

  test('without Content-Type the application/json template applies', async () => {
    const response = await send('POST', '/prod/orders/o-8', { body: '{"action":"list"}' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).echo.id).toBe('o-8');
  });

  test('a function error whose errorMessage matches a SelectionPattern selects that response (status, template, parameters)', async () => {
    const response = await send('POST', '/prod/orders/o-9', { body: '{"action":"fail","reason":"no \'quantity\'"}', headers: json });
    expect(response.status).toBe(400);
    expect(response.body).toBe('{"error": "Bad input: no \\\'quantity\\\'"}');
    expect(response.headers['x-error']).toBe('yes');
    expect(response.headers['x-first']).toBeUndefined();
  });

  test('a function error no pattern matches gets the default response, with the error document as the body', async () => {
    const response = await send('POST', '/prod/raw', { body: '{"action":"explode"}', headers: json });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body);
    expect(body.errorMessage).toBe('something else broke');
    expect(body.errorType).toBe('TypeError');
    expect(Array.isArray(body.stackTrace)).toBe(true);
  });

  test('without templates the body passes through as the event, and the result comes back as it is', async () => {
    const response = await send('POST', '/prod/raw', { body: '{"action":"echo","n":1}', headers: json });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).received).toEqual({ action: 'echo', n: 1 });
    const nothing = await send('POST', '/prod/raw', { body: '{"action":"nothing"}', headers: json });
    expect(nothing.body).toBe('null');
  });

  test('PassthroughBehavior NEVER: a content type without a template is 415 Unsupported Media Type', async () => {
    const response = await send('POST', '/prod/orders/o-1', { body: '<a/>', headers: [['Content-Type', 'application/xml']] });
    expect(response.status).toBe(415);
    expect(response.body).toBe('{"message":"Unsupported Media Type"}');
    expect(response.headers['x-amzn-errortype']).toBe('UnsupportedMediaTypeException');
  });

  test('WHEN_NO_TEMPLATES with a template: an unmapped content type is 415; WHEN_NO_MATCH (the default) passes it through', async () => {
    expect((await send('POST', '/prod/strict', { body: 'x', headers: [['Content-Type', 'text/plain']] })).status).toBe(415);
    expect((await send('POST', '/prod/strict', { body: '{"action":"echo"}', headers: json })).status).toBe(200);
    const passed = await send('POST', '/prod/raw', { body: 'plain words', headers: [['Content-Type', 'text/plain']] });
    // Lambda needs a JSON event: text passed through cannot be one.
    expect(passed.status).toBe(400);
    expect(passed.body).toMatch(/^\{"message":"Could not parse request body into json: /);
  });

  test('a body that is not JSON, read by the template as JSON, is 400 and the function is not called', async () => {
    const response = await send('POST', '/prod/orders/o-2', { body: 'action=list', headers: json });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).message).toMatch(/^Could not parse request body into json: /);
    expect(response.headers['x-amzn-errortype']).toBe('BadRequestException');
    expect(response.log.some((l) => l.startsWith('Endpoint request URI'))).toBe(false);
  });
});

describe('content handling', () => {
  test('CONVERT_TO_TEXT: a binary request body reaches the template as base64', async () => {
    const log = new ExecutionLog();
    const response = await gateway.handle({
      method: 'POST',
      target: '/prod/upload',
      rawHeaders: [['Content-Type', 'application/octet-stream']],
      body: Buffer.from([0xff, 0x00, 0x10, 0x41]),
      sourceIp: '127.0.0.1',
    }, log);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('"/wAQQQ=="');
  });

  test('CONVERT_TO_BINARY on the integration response: the function\'s base64 text becomes bytes', async () => {
    const response = await gateway.handle({
      method: 'GET', target: '/prod/download', rawHeaders: [['Accept', 'application/octet-stream']], body: Buffer.alloc(0), sourceIp: '127.0.0.1',
    });
    expect(response.statusCode).toBe(200);
    expect(Buffer.isBuffer(response.body)).toBe(true);
    expect([...(response.body as Buffer)]).toEqual([0xff, 0x00, 0x10, 0x41]);
    expect(response.headers).toContainEqual(['Content-Type', 'application/octet-stream']);
  });
});

describe('MOCK integration with templates', () => {
  test('the request template\'s statusCode selects the integration response', async () => {
    const missing = await send('GET', '/prod/status?code=404');
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('{"message": "no such thing"}');
    const ok = await send('GET', '/prod/status?code=200');
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('{"ok": true}');
  });

  test('no integration response matches and none is the default: 500 with the configuration error in the log', async () => {
    const response = await send('GET', '/prod/only-404');
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"message":"Internal server error"}');
    expect(response.log).toContain('Execution failed due to configuration error: No match for output mapping and no default output mapping was specified for integration response');
  });

  test('the response template is chosen by Accept (else application/json), and sets the Content-Type', async () => {
    const html = await send('GET', '/prod/greet?name=Ann', { headers: [['Accept', 'text/html,application/xhtml+xml;q=0.9']] });
    expect(html.body).toBe('<p>Hello Ann</p>');
    expect(html.headers['content-type']).toBe('text/html');
    const other = await send('GET', '/prod/greet?name=Bo', { headers: [['Accept', 'image/png']] });
    expect(other.body).toBe('{"hello": "Bo"}');
    expect(other.headers['content-type']).toBe('application/json');
  });

  test('$context.responseOverride sets the status and headers', async () => {
    const response = await send('GET', '/prod/override');
    expect(response.status).toBe(202);
    expect(response.headers['x-override']).toBe('prod');
    expect(response.body).toBe('accepted');
  });

  test('$context.identity has the API key the request was let in with', async () => {
    const response = await send('GET', '/prod/keyed', { headers: [['x-api-key', 'mapping-test-key-0123456789']] });
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/^mapping-test-key-0123456789\|Key\w*\|127\.0\.0\.1$/);
  });

  test('a template that does not parse is 500, logged as a configuration error', async () => {
    const response = await send('GET', '/prod/broken');
    expect(response.status).toBe(500);
    expect(response.log).toEqual(expect.arrayContaining([expect.stringMatching(/^Execution failed due to configuration error: Unable to transform request: the mapping template does not parse: /)]));
  });
});

test('through the real server: curl gets the mapped response', async () => {
  const running = await serve(assembly);
  try {
    const run = await curl(['-i', '-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"action":"fail","reason":"empty"}', `${running.url}orders/o-3`]);
    const response = parseCurlResponse(run.stdout);
    expect(response.status).toBe(400);
    expect(response.body).toBe('{"error": "Bad input: empty"}');
    expect(response.headers['x-error']).toBe('yes');
  } finally {
    await running.close();
  }
});
