/**
 * `serve`: a real synthesized REST API served in-process on a free port, driven with Node's fetch
 * and real curl.
 */
import * as path from 'path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { APIGW_ID, curl, FIXTURES, parseCurlResponse, Running, serve, synth, TRACE_ID, UUID } from './local/support';

function buildApi(stack: Stack): void {
  const behaviours = new lambda.Function(stack, 'Behaviours', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(path.join(FIXTURES, 'behaviours')),
    timeout: Duration.seconds(5),
  });
  const callback = new lambda.Function(stack, 'Callback', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'callback.handler',
    code: lambda.Code.fromAsset(path.join(FIXTURES, 'behaviours')),
  });
  const inline = new lambda.Function(stack, 'Inline', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: "inline:" + e.resource + ":" + JSON.stringify(e.pathParameters) });'),
  });
  const shortTimeout = new lambda.Function(stack, 'ShortTimeout', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(path.join(FIXTURES, 'behaviours')),
    timeout: Duration.seconds(1),
  });
  const esm = new lambda.Function(stack, 'Esm', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(path.join(FIXTURES, 'esm')),
  });
  const broken = new lambda.Function(stack, 'Broken', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'broken.handler',
    code: lambda.Code.fromAsset(path.join(FIXTURES, 'esm')),
  });
  // A runtime no family runs here.
  const ruby = new lambda.Function(stack, 'Ruby', {
    runtime: lambda.Runtime.RUBY_3_3,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(path.join(FIXTURES, 'ruby')),
  });
  const api = new apigw.RestApi(stack, 'Api', {
    restApiName: 'LocalTestApi',
    deployOptions: { stageName: 'test' },
    defaultCorsPreflightOptions: { allowOrigins: apigw.Cors.ALL_ORIGINS },
    binaryMediaTypes: ['application/octet-stream'],
  });
  behaviours.addEnvironment('GREETING', 'hello');
  behaviours.addEnvironment('REGION_VAR', stack.region);
  behaviours.addEnvironment('API_VAR', api.restApiId);
  const to = (fn: lambda.IFunction, options: apigw.LambdaIntegrationOptions = {}) => new apigw.LambdaIntegration(fn, options);

  const items = api.root.addResource('items');
  items.addMethod('GET', to(behaviours));
  items.addMethod('POST', to(behaviours));
  items.addMethod('DELETE', to(callback));
  items.addResource('special').addMethod('GET', to(inline));
  const item = items.addResource('{id}');
  item.addMethod('GET', to(behaviours));
  const parts = item.addResource('parts');
  parts.addMethod('ANY', to(behaviours));
  parts.addMethod('GET', to(inline));
  const files = api.root.addResource('files');
  files.addResource('{proxy+}').addMethod('ANY', to(behaviours));
  files.addResource('readme').addMethod('GET', to(inline));
  api.root.addResource('short-timeout').addMethod('GET', to(shortTimeout));
  api.root.addResource('gateway-timeout').addMethod('GET', to(behaviours, { timeout: Duration.seconds(1) }));
  api.root.addResource('esm').addMethod('GET', to(esm));
  api.root.addResource('broken').addMethod('GET', to(broken));
  api.root.addResource('ruby').addMethod('GET', to(ruby));
  api.root.addResource('keyed').addMethod('GET', to(inline), { apiKeyRequired: true });
  api.root.addResource('mock').addMethod('GET', new apigw.MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{"mock":true}' }, responseParameters: { 'method.response.header.X-Mock': "'yes'" } }],
  }), { methodResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.X-Mock': true } }] });
  api.root.addResource('nomap').addMethod('GET');
}

let assembly: string;
let running: Running;
let base: string;

beforeAll(async () => {
  assembly = synth(buildApi);
  running = await serve(assembly);
  base = running.url.replace(/\/$/, '');
});

afterAll(async () => {
  await running?.close();
});

async function get(pathAndQuery: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string; json: () => any }> {
  const response = await fetch(`${base}${pathAndQuery}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

describe('start-up', () => {
  test('serves the API at /<stage>/ and prints its routes with their functions', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/test\/$/);
    const table = running.server.routeTable().join('\n');
    expect(table).toMatch(new RegExp(`GET +${base.replace(/[.]/g, '\\.')}/items +-> LocalTest/Behaviours  \\[NONE\\]\\n`));
    expect(table).toContain('-> LocalTest/Inline');
    expect(table).toMatch(/OPTIONS +\S+\/items +-> MOCK/);
    expect(table).toMatch(/GET +\S+\/ruby +-> LocalTest\/Ruby \(not runnable: runtime ruby3\.3 is not run locally \(only nodejs, python runtimes are\)\)/);
  });
});

describe('Lambda proxy event and context', () => {
  test('GET carries every REST (v1) event field', async () => {
    const response = await get('/items?limit=5&tag=a&tag=b', { headers: { 'X-Custom': 'one' } });
    expect(response.status).toBe(200);
    const { event, context } = response.json();
    const requestId = response.headers.get('x-amzn-requestid');
    expect(requestId).toMatch(UUID);
    expect(event).toMatchObject({
      resource: '/items',
      path: '/items',
      httpMethod: 'GET',
      queryStringParameters: { limit: '5', tag: 'b' },
      multiValueQueryStringParameters: { limit: ['5'], tag: ['a', 'b'] },
      pathParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
    });
    expect(event.headers['X-Custom'] ?? event.headers['x-custom']).toBe('one');
    expect(event.multiValueHeaders['X-Custom'] ?? event.multiValueHeaders['x-custom']).toEqual(['one']);
    expect(event.headers['X-Forwarded-For']).toBe('127.0.0.1');
    expect(event.headers['X-Forwarded-Proto']).toBe('http');
    expect(event.headers['X-Amzn-Trace-Id']).toBe(response.headers.get('x-amzn-trace-id'));
    expect(event.requestContext).toMatchObject({
      stage: 'test',
      path: '/test/items',
      resourcePath: '/items',
      httpMethod: 'GET',
      requestId,
      extendedRequestId: response.headers.get('x-amz-apigw-id'),
      apiId: expect.stringMatching(/^Api/),
      identity: expect.objectContaining({ sourceIp: '127.0.0.1', userAgent: expect.any(String), accessKey: null }),
    });
    expect(event.requestContext.requestTime).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    expect(Math.abs(event.requestContext.requestTimeEpoch - Date.now())).toBeLessThan(10_000);
    expect(context).toMatchObject({ functionName: expect.stringMatching(/^LocalTest-Behaviours[0-9A-F]{8}$/), awsRequestId: requestId, memoryLimitInMB: '128' });
    expect(context.remaining).toBeGreaterThan(0);
    expect(context.remaining).toBeLessThanOrEqual(5000);
  });

  test('POST passes the JSON body as a string', async () => {
    const response = await get('/items', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'pen' }) });
    expect(response.status).toBe(200);
    const { event } = response.json();
    expect(event.httpMethod).toBe('POST');
    expect(event.body).toBe('{"name":"pen"}');
    expect(event.isBase64Encoded).toBe(false);
    const contentType = Object.entries(event.headers as Record<string, string>).find(([name]) => name.toLowerCase() === 'content-type');
    expect(contentType?.[1]).toBe('application/json');
  });

  test('a body of a binary media type arrives base64-encoded', async () => {
    const response = await get('/items', { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: new Uint8Array([1, 2, 255]) });
    const { event } = response.json();
    expect(event.isBase64Encoded).toBe(true);
    expect(event.body).toBe(Buffer.from([1, 2, 255]).toString('base64'));
  });

  test('environment variables: literals, AWS::Region and the REST API Ref resolved; Lambda variables set', async () => {
    const env = (await get('/items?mode=env')).json();
    expect(env).toEqual({
      GREETING: 'hello',
      REGION_VAR: 'us-east-1',
      API_VAR: expect.stringMatching(/^Api[0-9A-F]{8}$/),
      AWS_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_NAME: expect.stringMatching(/^LocalTest-Behaviours/),
    });
  });

  test('the handler module stays loaded between requests (warm worker)', async () => {
    const first = Number((await get('/items?mode=invocations')).text);
    const second = Number((await get('/items?mode=invocations')).text);
    expect(second).toBeGreaterThan(first);
  });

  test('callback-style and ES module handlers run', async () => {
    const cb = await get('/items', { method: 'DELETE' });
    expect([cb.status, cb.text]).toEqual([202, 'callback:DELETE']);
    const esm = await get('/esm');
    expect([esm.status, esm.text]).toEqual([200, 'esm:/esm']);
  });

  test('function console output goes to the terminal prefixed with the request id', async () => {
    const response = await get('/items?mode=echo');
    const id = response.headers.get('x-amzn-requestid');
    expect(running.lines).toContain(`${id} INFO mode=echo path=/items`);
    expect(running.lines.some((l) => l.startsWith(`${id} GET /test/items?mode=echo 200 `))).toBe(true);
  });
});

describe('response mapping', () => {
  test('gateway headers are added; the function decides CORS headers', async () => {
    const response = await get('/items');
    expect(response.headers.get('x-amzn-requestid')).toMatch(UUID);
    expect(response.headers.get('x-amz-apigw-id')).toMatch(APIGW_ID);
    expect(response.headers.get('x-amzn-trace-id')).toMatch(TRACE_ID);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const own = await get('/items?mode=headers');
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    expect(own.headers.get('access-control-allow-headers')).toBeNull();
  });

  test('statusCode, headers and multiValueHeaders (a name in both: the multi values, then the single one, as recorded), remapped reserved headers, body', async () => {
    const response = await get('/items?mode=headers');
    expect(response.status).toBe(201);
    expect(response.text).toBe('created');
    expect(response.headers.get('x-single')).toBe('one');
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(response.headers.get('x-both')).toBe('from-multi, from-headers');
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('x-amzn-remapped-server')).toBe('my-server');
  });

  test('isBase64Encoded bodies are decoded when Accept is a binary media type, else returned as text', async () => {
    const binary = await fetch(`${base}/items?mode=base64`, { headers: { Accept: 'application/octet-stream' } });
    expect([...new Uint8Array(await binary.arrayBuffer())]).toEqual([0, 1, 2, 250]);
    const text = await get('/items?mode=base64', { headers: { Accept: 'application/json' } });
    expect(text.text).toBe(Buffer.from([0, 1, 2, 250]).toString('base64'));
  });

  test('real curl: GET /items?limit=5 with the gateway headers', async () => {
    const run = await curl(['-i', `${base}/items?limit=5`]);
    expect(run.code).toBe(0);
    const response = parseCurlResponse(run.stdout);
    expect(response.status).toBe(200);
    expect(response.headers['x-amzn-requestid']).toMatch(UUID);
    expect(response.headers['x-amzn-trace-id']).toMatch(TRACE_ID);
    expect(JSON.parse(response.body).event.queryStringParameters).toEqual({ limit: '5' });
  });

  test('real curl: POST /items with Content-Type: application/json', async () => {
    const run = await curl(['-i', '-X', 'POST', '-H', 'Content-Type: application/json', '-d', '{"name":"pen"}', `${base}/items`]);
    const response = parseCurlResponse(run.stdout);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).event.body).toBe('{"name":"pen"}');
  });
});

describe('routing', () => {
  test.each([
    ['GET', '/items', '/items', null],
    ['GET', '/items/42', '/items/{id}', { id: '42' }],
    // Path parameters stay percent-encoded, as API Gateway passes them (recorded: `%2B` reaches the function as `%2B`).
    ['GET', '/items/a%20b', '/items/{id}', { id: 'a%20b' }],
    ['POST', '/items/42/parts', '/items/{id}/parts', { id: '42' }],
    ['GET', '/files/a', '/files/{proxy+}', { proxy: 'a' }],
    ['GET', '/files/a/b/c.txt', '/files/{proxy+}', { proxy: 'a/b/c.txt' }],
    // /files/readme has GET only: the other methods go on to {proxy+} (measured on API Gateway: routing is on the resource and method together).
    ['DELETE', '/files/readme', '/files/{proxy+}', { proxy: 'readme' }],
  ])('%s %s is routed to %s', async (method, requestPath, resource, pathParameters) => {
    const response = await get(`${requestPath}`, { method });
    expect(response.status).toBe(200);
    const { event } = response.json();
    expect(event.resource).toBe(resource);
    expect(event.pathParameters).toEqual(pathParameters);
  });

  test('a literal resource wins over {param} and over {proxy+}; an explicit method wins over ANY', async () => {
    expect((await get('/items/special')).text).toBe('inline:/items/special:null');
    expect((await get('/files/readme')).text).toBe('inline:/files/readme:null');
    expect((await get('/items/7/parts')).text).toBe('inline:/items/{id}/parts:{"id":"7"}');
  });

  test.each([
    ['GET', '/nowhere'],
    ['GET', '/files'],
    ['PATCH', '/items'],
    ['GET', '/items/1/2'],
  ])('%s %s matches nothing: 403 Missing Authentication Token', async (method, requestPath) => {
    const response = await get(requestPath, { method });
    expect(response.status).toBe(403);
    expect(response.text).toBe('{"message":"Missing Authentication Token"}');
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    expect(response.headers.get('x-amzn-requestid')).toMatch(UUID);
  });

  test('an unknown stage, a stage in another case, or no stage at all is 403 Forbidden (ForbiddenException), not Missing Authentication Token', async () => {
    const origin = base.replace(/\/test$/, '');
    for (const url of [`${origin}/prod/items`, `${origin}/`, `${origin}`, `${origin}/items`, `${origin}/Test/items`, `${origin}/TEST`]) {
      const response = await fetch(url);
      expect([url, response.status, await response.text()]).toEqual([url, 403, '{"message":"Forbidden"}']);
      expect(response.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
      expect(response.headers.get('x-amzn-requestid')).toMatch(UUID);
    }
    // The stage itself, with or without a slash, is routed (its root has no GET).
    for (const url of [`${origin}/test`, `${origin}/test/`]) {
      expect(await (await fetch(url)).text()).toBe('{"message":"Missing Authentication Token"}');
    }
  });
});

describe('CORS preflight from the MOCK integration', () => {
  test('OPTIONS answers with the configured status and headers (real curl)', async () => {
    const run = await curl(['-i', '-X', 'OPTIONS', '-H', 'Origin: http://localhost:5173', '-H', 'Access-Control-Request-Method: POST', `${base}/items`]);
    const response = parseCurlResponse(run.stdout);
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toBe('OPTIONS,GET,PUT,POST,DELETE,PATCH,HEAD');
    expect(response.headers['access-control-allow-headers']).toBe('Content-Type,X-Amz-Date,Authorization,X-Api-Key,X-Amz-Security-Token,X-Amz-User-Agent');
    expect(response.body).toBe('');
  });

  test('a MOCK method returns its integration response; one without a mapping is 500', async () => {
    const mock = await get('/mock');
    expect([mock.status, mock.text, mock.headers.get('x-mock')]).toEqual([200, '{"mock":true}', 'yes']);
    const nomap = await get('/nomap');
    expect([nomap.status, nomap.text]).toEqual([500, '{"message":"Internal server error"}']);
  });
});

describe('failures', () => {
  test.each([
    ['throw'],
    ['malformed'],
    ['extra-key'],
    ['undefined'],
  ])('mode=%s: 502 Internal server error', async (mode) => {
    const response = await get(`/items?mode=${mode}`);
    expect(response.status).toBe(502);
    expect(response.text).toBe('{"message":"Internal server error"}');
    expect(response.headers.get('x-amzn-errortype')).toBe('InternalServerErrorException');
  });

  test('mode=no-status: a response without statusCode is a 200 (as API Gateway answers it)', async () => {
    const response = await get('/items?mode=no-status');
    expect([response.status, response.text]).toEqual([200, 'x']);
  });

  test('a handler that throws is logged with the request id', async () => {
    const response = await get('/items?mode=throw');
    const id = response.headers.get('x-amzn-requestid');
    expect(running.lines).toContainEqual(expect.stringMatching(new RegExp(`^${id} GATEWAY LocalTest-Behaviours[0-9A-F]{8}: Error: boom from the handler$`)));
  });

  test('a handler that calls process.exit: 502, and the server keeps serving', async () => {
    const response = await get('/items?mode=exit');
    expect(response.status).toBe(502);
    expect(response.text).toBe('{"message":"Internal server error"}');
    expect((await get('/items')).status).toBe(200);
  });

  test('a module that fails to load: 502', async () => {
    const response = await get('/broken');
    expect([response.status, response.text]).toEqual([502, '{"message":"Internal server error"}']);
  });

  test('a runtime that does not run locally: 502', async () => {
    const response = await get('/ruby');
    expect([response.status, response.text]).toEqual([502, '{"message":"Internal server error"}']);
  });

  test('the function timeout (1 s, below the integration timeout) ends the invocation: 502, as Lambda reports a timeout error', async () => {
    const started = Date.now();
    const response = await get('/short-timeout?mode=sleep&ms=5000');
    const elapsed = Date.now() - started;
    expect([response.status, response.text]).toEqual([502, '{"message":"Internal server error"}']);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(4000);
    expect((await get('/short-timeout')).status).toBe(200);
  });

  test('the integration timeout (1 s) is 504 Endpoint request timed out', async () => {
    const started = Date.now();
    const response = await get('/gateway-timeout?mode=sleep&ms=3000');
    const elapsed = Date.now() - started;
    expect([response.status, response.text]).toEqual([504, '{"message":"Endpoint request timed out"}']);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2900);
  });

  test('a busy-looping function times out without blocking the server', async () => {
    const slow = get('/short-timeout?mode=spin&ms=3000');
    const fast = await get('/items/special');
    expect(fast.status).toBe(200);
    expect((await slow).status).toBe(502);
  });

  // API Gateway takes up to 10 MB; Lambda's own 6 MB event limit then refuses the invocation (500).
  test.each([
    [10 * 1024 * 1024, 500, '{"message":"Internal server error"}'],
    [10 * 1024 * 1024 + 1, 413, 'HTTP content length exceeded 10485760 bytes.'],
  ])('a body of %i bytes: %i', async (size, status, text) => {
    const response = await get('/items?mode=invocations', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: Buffer.alloc(size, 97) });
    expect([response.status, response.text]).toEqual([status, text]);
    expect((await get('/items/special')).status).toBe(200);
  });

  test('an API key is required where the method says so: 403 Forbidden without x-api-key, and with a key no usage plan holds', async () => {
    const refused = await get('/keyed');
    expect([refused.status, refused.text]).toEqual([403, '{"message":"Forbidden"}']);
    // This API has no usage plan, so no key can be valid (keys and plans: serve-api-keys.test.ts).
    expect((await get('/keyed', { headers: { 'x-api-key': 'local' } })).status).toBe(403);
  });
});

describe('concurrency', () => {
  test('a slow function does not block another function', async () => {
    const started = Date.now();
    const slow = get('/items?mode=sleep&ms=1500');
    const fast = await get('/items/special');
    expect(fast.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await slow).status).toBe(200);
  });

  test('concurrent requests to one function run in parallel workers', async () => {
    const started = Date.now();
    const results = await Promise.all([get('/items?mode=sleep&ms=800'), get('/items?mode=sleep&ms=800')]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
