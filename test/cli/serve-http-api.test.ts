/**
 * HTTP APIs (API Gateway v2) served from a real CDK stack (`HttpApi`, `HttpLambdaIntegration` with
 * payload 2.0 and 1.0, `HttpUrlIntegration`, `HttpJwtAuthorizer`) through the real server and
 * curl: stages, routing, both event formats, the 2.0 response inference, errors as HTTP APIs
 * answer them, HTTP_PROXY, and the start-up listing.
 */
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration, HttpUrlIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { APIGW_ID, curl, inlineFunction, parseCurlResponse, Running, serve, synth, TRACE_ID } from './local/support';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(event) });';

/** A plain HTTP server the HTTP_PROXY route forwards to: it answers what it received. */
let backend: http.Server;
let backendUrl: string;
let running: Running;
let root: string;

beforeAll(async () => {
  backend = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(207, { 'content-type': 'application/json', 'x-backend': 'yes' });
      const body = Buffer.concat(chunks);
      // A large body is answered by its length (the answer stays under the 10 MB payload limit).
      const text = body.length > 1024 ? undefined : body.toString();
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, length: body.length, body: text }));
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;

  const assembly = synth((stack: Stack) => {
    const echo = inlineFunction(stack, 'Echo', ECHO);
    const fn = (id: string, source: string) => new HttpLambdaIntegration(id, inlineFunction(stack, id, source));
    const api = new apigwv2.HttpApi(stack, 'Api', { defaultIntegration: new HttpLambdaIntegration('Fallback', echo) });
    const echo2 = new HttpLambdaIntegration('Echo2', echo);
    const route = (routePath: string, methods: apigwv2.HttpMethod[], integration: apigwv2.HttpRouteIntegration) => {
      api.addRoutes({ path: routePath, methods, integration });
    };
    route('/items/{id}', [apigwv2.HttpMethod.GET], echo2);
    route('/items/{id}', [apigwv2.HttpMethod.ANY], fn('AnyItem', 'exports.handler = async () => "any item";'));
    route('/items/special', [apigwv2.HttpMethod.GET], fn('Inferred', 'exports.handler = async () => ({ hello: "world" });'));
    route('/files/{proxy+}', [apigwv2.HttpMethod.ANY], echo2);
    route('/v1/{id}', [apigwv2.HttpMethod.GET, apigwv2.HttpMethod.POST], new HttpLambdaIntegration('Echo1', echo, { payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_1_0 }));
    route('/string', [apigwv2.HttpMethod.GET], fn('Text', 'exports.handler = async () => "plain text";'));
    route('/cookies', [apigwv2.HttpMethod.GET], fn('Cookies', 'exports.handler = async () => ({ statusCode: 201, headers: { "x-one": "a", "content-type": "application/octet-stream" }, cookies: ["a=1", "b=2; Path=/"], body: Buffer.from([0, 255, 1]).toString("base64"), isBase64Encoded: true });'));
    route('/boom', [apigwv2.HttpMethod.GET], fn('Boom', 'exports.handler = async () => { throw new Error("boom"); };'));
    route('/malformed', [apigwv2.HttpMethod.GET], fn('Malformed', 'exports.handler = async () => ({ statusCode: "abc" });'));
    route('/bad-base64', [apigwv2.HttpMethod.GET], fn('BadBase64', 'exports.handler = async () => ({ statusCode: 200, body: "%%%", isBase64Encoded: true });'));
    route('/v1-boom', [apigwv2.HttpMethod.GET], new HttpLambdaIntegration('Boom1', inlineFunction(stack, 'Boom1Fn', 'exports.handler = async () => { throw new Error("boom"); };'), { payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_1_0 }));
    route('/url/{proxy+}', [apigwv2.HttpMethod.ANY], new HttpUrlIntegration('Url', `${backendUrl}/echo/{proxy}`));
    route('/down', [apigwv2.HttpMethod.GET], new HttpUrlIntegration('Down', 'http://127.0.0.1:1/nothing'));
    route('/by-stage', [apigwv2.HttpMethod.GET], new HttpUrlIntegration('ByStage', `${backendUrl}/stage/\${stageVariables.color}/end`));
    route('/slow', [apigwv2.HttpMethod.GET], new HttpLambdaIntegration('Slow', inlineFunction(stack, 'Slow', 'exports.handler = () => new Promise((r) => setTimeout(() => r("late"), 1500));'), {
      timeout: Duration.millis(300),
    }));
    const vpcLinked = new apigwv2.CfnIntegration(stack, 'VpcLinked', {
      apiId: api.apiId, integrationType: 'HTTP_PROXY', integrationMethod: 'ANY', integrationUri: 'http://internal.example', connectionType: 'VPC_LINK', connectionId: 'link', payloadFormatVersion: '1.0',
    });
    new apigwv2.CfnRoute(stack, 'Private', { apiId: api.apiId, routeKey: 'GET /private', target: `integrations/${vpcLinked.ref}` });
    api.addRoutes({
      path: '/secure',
      methods: [apigwv2.HttpMethod.GET],
      integration: echo2,
      authorizer: new HttpJwtAuthorizer('Jwt', 'https://issuer.example.com', { jwtAudience: ['aud'] }),
    });
    const dev = api.addStage('Dev', { stageName: 'dev', autoDeploy: true });
    (dev.node.defaultChild as apigwv2.CfnStage).stageVariables = { color: 'blue' };

    // An API with no $default stage: only its named stage is reachable.
    const other = new apigwv2.HttpApi(stack, 'Other', { createDefaultStage: false });
    other.addRoutes({ path: '/hello', methods: [apigwv2.HttpMethod.GET], integration: new HttpLambdaIntegration('OtherEcho', echo) });
    other.addStage('Prod', { stageName: 'prod', autoDeploy: true });

    // An API with a CORS configuration (the function's own CORS header is replaced by the gateway's).
    const withCors = new apigwv2.HttpApi(stack, 'WithCors', {
      corsPreflight: {
        allowOrigins: ['http://localhost:5173'],
        allowMethods: [apigwv2.CorsHttpMethod.GET, apigwv2.CorsHttpMethod.POST],
        allowHeaders: ['content-type', 'authorization'],
        exposeHeaders: ['x-total'],
        maxAge: Duration.seconds(600),
        allowCredentials: true,
      },
    });
    withCors.addRoutes({
      path: '/items',
      methods: [apigwv2.HttpMethod.GET],
      integration: fn('CorsItems', 'exports.handler = async () => ({ statusCode: 200, headers: { "access-control-allow-origin": "*", "x-total": "3" }, body: "[]" });'),
    });
  }, { stackName: 'HttpApis' });
  root = assembly;
  running = await serve(assembly, { quiet: true });
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => backend?.close(resolve));
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

async function call(target: string, args: string[] = [], base = running.url): Promise<Answer> {
  const result = await curl(['-i', ...args, `${base.replace(/\/$/, '')}${target}`]);
  return parseCurlResponse(result.stdout);
}

async function event(target: string, args: string[] = [], base?: string): Promise<any> {
  const answer = await call(target, args, base);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body);
}

describe('stages', () => {
  test('the $default stage is served at the root; a named stage under its name; the listing names both', () => {
    const urls = running.server.endpoints[0].urls;
    expect(urls).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/dev\/$/)]);
  });

  test('a named stage is selected by its path segment, its variables reach the event, and rawPath keeps the stage segment', async () => {
    const e = await event('/items/7', [], running.server.endpoints[0].urls[1]);
    expect(e.requestContext.stage).toBe('dev');
    expect(e.rawPath).toBe('/dev/items/7');
    expect(e.requestContext.http.path).toBe('/dev/items/7');
    expect(e.stageVariables).toEqual({ color: 'blue' });
    expect(e.pathParameters).toEqual({ id: '7' });
  });

  test('a path whose first segment is no stage goes to the $default stage, which has no stage variables', async () => {
    const e = await event('/items/7');
    expect(e.requestContext.stage).toBe('$default');
    expect(e.rawPath).toBe('/items/7');
    expect(e).not.toHaveProperty('stageVariables');
  });

  test('an API without a $default stage answers 404 Not Found outside its stages', async () => {
    const other = running.server.endpoints[1];
    expect(other.urls).toEqual([expect.stringMatching(/\/prod\/$/)]);
    const base = `http://127.0.0.1:${other.port}`;
    const outside = await call('/hello', [], base);
    expect(outside.status).toBe(404);
    expect(outside.body).toBe('{"message":"Not Found"}');
    expect(outside.headers['content-type']).toBe('application/json');
    expect(outside.headers['apigw-requestid']).toMatch(APIGW_ID);
    expect((await event('/prod/hello', [], base)).routeKey).toBe('GET /hello');
  });
});

describe('routing', () => {
  test('a literal segment beats a path variable', async () => {
    const answer = await call('/items/special');
    expect(answer.body).toBe('{"hello":"world"}');
  });

  test("a route of the request's method beats ANY on the same path; another method takes the ANY route", async () => {
    expect((await event('/items/1')).routeKey).toBe('GET /items/{id}');
    const other = await call('/items/1', ['-X', 'DELETE']);
    expect(other).toMatchObject({ status: 200, body: 'any item' });
  });

  test('a greedy path variable takes the rest of the path, decoded', async () => {
    const e = await event('/files/a/b%20c/d.txt');
    expect(e.routeKey).toBe('ANY /files/{proxy+}');
    expect(e.pathParameters).toEqual({ proxy: 'a/b c/d.txt' });
  });

  test('a request no route matches goes to the $default route with the whole path', async () => {
    const e = await event('/nowhere/at/all', ['-X', 'PATCH']);
    expect(e.routeKey).toBe('$default');
    expect(e.rawPath).toBe('/nowhere/at/all');
    expect(e.requestContext.routeKey).toBe('$default');
    expect(e).not.toHaveProperty('pathParameters');
  });

  test('without a $default route, no match is 404 {"message":"Not Found"}', async () => {
    const base = `http://127.0.0.1:${running.server.endpoints[1].port}/prod`;
    const answer = await call('/missing', [], base);
    expect(answer.status).toBe(404);
    expect(answer.body).toBe('{"message":"Not Found"}');
  });
});

describe('payload format 2.0', () => {
  let e: any;
  beforeAll(async () => {
    e = await event('/items/42?b=2&a=1&a=x%20y', [
      '-X', 'GET', '-H', 'X-Multi: one', '-H', 'X-Multi: two', '-H', 'Cookie: c1=v1; c2=v2', '-H', 'User-Agent: tester/1.0', '-H', 'Content-Type: application/json',
      '--data-binary', '{"k":1}', '-X', 'GET',
    ]);
  });

  test('version, route key, raw path and raw query string', () => {
    expect(e).toMatchObject({ version: '2.0', routeKey: 'GET /items/{id}', rawPath: '/items/42', rawQueryString: 'b=2&a=1&a=x%20y' });
  });

  test('cookies from the Cookie header, which is not among the headers', () => {
    expect(e.cookies).toEqual(['c1=v1', 'c2=v2']);
    expect(e.headers).not.toHaveProperty('cookie');
  });

  test('headers: lower-case names, repeats joined with commas, the front door headers added', () => {
    expect(e.headers['x-multi']).toBe('one,two');
    expect(e.headers['user-agent']).toBe('tester/1.0');
    expect(e.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(e.headers['x-forwarded-proto']).toBe('http');
    expect(e.headers['x-forwarded-port']).toBe(String(running.server.endpoints[0].port));
    expect(e.headers['x-amzn-trace-id']).toMatch(TRACE_ID);
    expect(Object.keys(e.headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  test('query parameters decoded, repeats joined with commas; path parameters', () => {
    expect(e.queryStringParameters).toEqual({ b: '2', a: '1,x y' });
    expect(e.pathParameters).toEqual({ id: '42' });
  });

  test('the request context', () => {
    const port = running.server.endpoints[0].port;
    expect(e.requestContext).toEqual({
      accountId: '123456789012',
      apiId: expect.stringMatching(/^Api/),
      domainName: `127.0.0.1:${port}`,
      domainPrefix: '127',
      http: { method: 'GET', path: '/items/42', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'tester/1.0' },
      requestId: expect.stringMatching(APIGW_ID),
      routeKey: 'GET /items/{id}',
      stage: '$default',
      time: expect.stringMatching(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/),
      timeEpoch: expect.any(Number),
    });
    expect(Math.abs(e.requestContext.timeEpoch - Date.now())).toBeLessThan(60_000);
  });

  test('a JSON body arrives as text; a binary one (no text type) as base64', async () => {
    expect(e).toMatchObject({ body: '{"k":1}', isBase64Encoded: false });
    const binary = await event('/items/1', ['-X', 'GET', '-H', 'Content-Type: application/octet-stream', '--data-binary', 'raw bytes', '-X', 'GET']);
    expect(binary).toMatchObject({ body: Buffer.from('raw bytes').toString('base64'), isBase64Encoded: true });
    const form = await event('/items/1', ['-X', 'GET', '--data', 'a=1', '-X', 'GET']);
    expect(form).toMatchObject({ body: Buffer.from('a=1').toString('base64'), isBase64Encoded: true });
  });

  test('without a body, query or cookies, those fields are left out', async () => {
    const bare = await event('/items/1');
    expect(bare).not.toHaveProperty('body');
    expect(bare).not.toHaveProperty('cookies');
    expect(bare).not.toHaveProperty('queryStringParameters');
    expect(bare.isBase64Encoded).toBe(false);
    expect(bare.rawQueryString).toBe('');
  });
});

describe('payload format 2.0 responses', () => {
  test('an object without statusCode is a 200 application/json answer with the object as JSON', async () => {
    const answer = await call('/items/special');
    expect(answer).toMatchObject({ status: 200, body: '{"hello":"world"}' });
    expect(answer.headers['content-type']).toBe('application/json');
  });

  test('a string is a 200 application/json answer whose body is the string', async () => {
    const answer = await call('/string');
    expect(answer).toMatchObject({ status: 200, body: 'plain text' });
    expect(answer.headers['content-type']).toBe('application/json');
  });

  test('statusCode, headers, each cookie as a Set-Cookie header, and a base64 body decoded', async () => {
    const result = await curl(['-s', '-D', '-', '-o', '/dev/null', `${running.url}cookies`]);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 201 /);
    expect(result.stdout).toMatch(/\r\nx-one: a\r\n/i);
    expect(result.stdout).toMatch(/\r\nset-cookie: a=1\r\n/i);
    expect(result.stdout).toMatch(/\r\nset-cookie: b=2; Path=\/\r\n/i);
    expect(result.stdout).toMatch(/\r\ncontent-length: 3\r\n/i);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-http-api-')), 'body');
    await curl(['-s', '-o', file, `${running.url}cookies`]);
    expect(fs.readFileSync(file)).toEqual(Buffer.from([0, 255, 1]));
  });

  test('a function error is 500 {"message":"Internal Server Error"}, with a line saying why', async () => {
    const answer = await call('/boom');
    expect(answer).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(answer.headers['content-type']).toBe('application/json');
    expect(running.lines.some((l) => l.startsWith(answer.headers['apigw-requestid']) && l.includes('Error: boom; answered 500'))).toBe(true);
  });

  test('a malformed response (statusCode not a number) is 500', async () => {
    const answer = await call('/malformed');
    expect(answer).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(running.lines.some((l) => l.includes('statusCode must be an integer HTTP status (got "abc")'))).toBe(true);
  });

  test('isBase64Encoded with a body that is not base64 is 500', async () => {
    expect(await call('/bad-base64')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
  });
});

describe('payload format 1.0', () => {
  let e: any;
  beforeAll(async () => {
    e = await event('/v1/9?q=1&q=2', ['-H', 'X-Multi: one', '-H', 'X-Multi: two', '-H', 'Content-Type: text/plain', '--data-binary', 'hi'], running.server.endpoints[0].urls[1]);
  });

  test('version 1.0 with the REST proxy shape: resource, path with the stage, method, multi-value fields', () => {
    expect(e).toMatchObject({
      version: '1.0',
      resource: '/v1/{id}',
      path: '/dev/v1/9',
      httpMethod: 'POST',
      queryStringParameters: { q: '2' },
      multiValueQueryStringParameters: { q: ['1', '2'] },
      pathParameters: { id: '9' },
      stageVariables: { color: 'blue' },
      body: 'hi',
      isBase64Encoded: false,
    });
    expect(e.headers['x-multi']).toBe('two');
    expect(e.multiValueHeaders['x-multi']).toEqual(['one', 'two']);
  });

  test('the 1.0 request context of an HTTP API', () => {
    expect(e.requestContext).toMatchObject({
      accountId: '123456789012',
      httpMethod: 'POST',
      path: '/dev/v1/9',
      protocol: 'HTTP/1.1',
      resourceId: 'POST /v1/{id}',
      resourcePath: '/v1/{id}',
      stage: 'dev',
      requestId: expect.stringMatching(APIGW_ID),
      identity: expect.objectContaining({ sourceIp: '127.0.0.1', userAgent: expect.stringMatching(/^curl\//) }),
    });
  });

  test('a function error with payload 1.0 is 500 too', async () => {
    expect(await call('/v1-boom')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
  });
});

describe('HTTP_PROXY integrations', () => {
  test('the request goes to the URL with the path variable filled and the query string; the answer comes back as it is', async () => {
    const answer = await call('/url/a/b?x=1', ['-X', 'PUT', '-H', 'X-Custom: c', '--data-binary', 'payload']);
    expect(answer.status).toBe(207);
    expect(answer.headers['x-backend']).toBe('yes');
    expect(answer.headers['apigw-requestid']).toMatch(APIGW_ID);
    const seen = JSON.parse(answer.body);
    expect(seen).toMatchObject({ method: 'PUT', url: '/echo/a/b?x=1', body: 'payload' });
    expect(seen.headers['x-custom']).toBe('c');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  test("the URI's stage variables are the stage's (empty where the stage has none)", async () => {
    expect(JSON.parse((await call('/by-stage', [], running.server.endpoints[0].urls[1])).body).url).toBe('/stage/blue/end');
    expect(JSON.parse((await call('/by-stage')).body).url).toBe('/stage//end');
  });

  test('an endpoint that cannot be reached is 500 Internal Server Error', async () => {
    expect(await call('/down')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
  });
});

describe('CORS (CorsConfiguration)', () => {
  const corsBase = () => `http://127.0.0.1:${running.server.endpoints[2].port}`;
  const preflight = ['-X', 'OPTIONS', '-H', 'Access-Control-Request-Method: POST', '-H', 'Access-Control-Request-Headers: content-type'];

  test('the gateway answers a preflight itself (no OPTIONS route): 204 with the configured headers for an allowed origin', async () => {
    const answer = await call('/items', [...preflight, '-H', 'Origin: http://localhost:5173'], corsBase());
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'content-type,authorization',
      'access-control-expose-headers': 'x-total',
      'access-control-max-age': '600',
    });
  });

  test('a preflight from an origin not allowed gets no CORS headers', async () => {
    const answer = await call('/items', [...preflight, '-H', 'Origin: http://evil.example'], corsBase());
    expect(answer.status).toBe(204);
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  test("an allowed origin's request gets the configured headers; the function's own CORS headers are dropped", async () => {
    const answer = await call('/items', ['-H', 'Origin: http://localhost:5173'], corsBase());
    expect(answer).toMatchObject({ status: 200, body: '[]' });
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'x-total',
      'x-total': '3',
    });
    const plain = await call('/items', [], corsBase());
    expect(Object.keys(plain.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  test('OPTIONS that is no preflight (no Access-Control-Request-Method) is routed: 404 here', async () => {
    const answer = await call('/items', ['-X', 'OPTIONS', '-H', 'Origin: http://localhost:5173'], corsBase());
    expect(answer).toMatchObject({ status: 404, body: '{"message":"Not Found"}' });
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});

describe('limits', () => {
  test('no answer within the integration timeout is 503 {"message":"Service Unavailable"}', async () => {
    const answer = await call('/slow');
    expect(answer).toMatchObject({ status: 503, body: '{"message":"Service Unavailable"}' });
    expect(running.lines.some((l) => l.startsWith(answer.headers['apigw-requestid']) && l.includes('did not answer within the integration timeout (300 ms); answered 503'))).toBe(true);
  });

  test('a body over 10 MB is 413 {"message":"Request Entity Too Large"}; 10 MB is taken (and over Lambda\'s 6 MB invocation payload: 500)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-http-api-'));
    fs.writeFileSync(path.join(dir, 'over'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    fs.writeFileSync(path.join(dir, 'limit'), Buffer.alloc(10 * 1024 * 1024, 'a'));
    const over = await call('/string', ['-X', 'GET', '-H', 'Expect:', '-H', 'Content-Type: text/plain', '--data-binary', `@${path.join(dir, 'over')}`]);
    expect(over).toMatchObject({ status: 413, body: '{"message":"Request Entity Too Large"}' });
    const limit = await call('/url/big', ['-X', 'POST', '-H', 'Expect:', '-H', 'Content-Type: text/plain', '--data-binary', `@${path.join(dir, 'limit')}`]);
    expect(limit.status).toBe(207);
    expect(JSON.parse(limit.body).length).toBe(10 * 1024 * 1024);
    const toLambda = await call('/string', ['-X', 'GET', '-H', 'Expect:', '-H', 'Content-Type: text/plain', '--data-binary', `@${path.join(dir, 'limit')}`]);
    expect(toLambda).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(running.lines.some((l) => l.startsWith(toLambda.headers['apigw-requestid']) && l.includes('Lambda refused the invocation with 413'))).toBe(true);
  });
});

describe('what is not served', () => {
  test('a route to a private integration (VPC link) answers 500, and its listing says why', async () => {
    expect(await call('/private')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(running.server.routeTable().some((l) => /GET\s+\S+\/private\s+-> not served \(HTTP_PROXY integration through a VPC link \(a private integration: the VPC is not reachable locally\): answers 500\)/.test(l))).toBe(true);
  });

  test('a route with a JWT authorizer is served now: without a token it answers 401, and nothing is listed as not served', async () => {
    expect(await call('/secure')).toMatchObject({ status: 401, body: '{"message":"Unauthorized"}' });
    expect(readLocalApp(root).unserved).toEqual([]);
  });
});

describe('the start-up listing', () => {
  test('each route of each stage: method, URL, what answers, what is checked', () => {
    const lines = running.server.routeTable();
    const port = running.server.endpoints[0].port;
    const base = `http://127\\.0\\.0\\.1:${port}`;
    const line = (text: string) => expect(lines.find((l) => new RegExp(text).test(l.trim())) ?? `no line matches ${text}`).not.toMatch(/^no line/);
    line(`^GET\\s+${base}/items/\\{id\\}\\s+-> HttpApis/Echo \\(payload 2\\.0\\)\\s+\\[NONE\\]$`);
    line(`^POST\\s+${base}/dev/v1/\\{id\\}\\s+-> HttpApis/Echo \\(payload 1\\.0\\)\\s+\\[NONE\\]$`);
    line(`^ANY\\s+${base}/\\* \\(\\$default route\\)\\s+-> HttpApis/Echo \\(payload 2\\.0\\)`);
    line(`^ANY\\s+${base}/url/\\{proxy\\+\\}\\s+-> HTTP_PROXY ANY ${backendUrl.replace(/\./g, '\\.')}/echo/\\{proxy\\}`);
    line(`^GET\\s+${base}/secure\\s+-> HttpApis/Echo \\(payload 2\\.0\\)\\s+\\[JWT Jwt \\(issuer https://issuer\\.example\\.com\\)\\]$`);
    line(`^GET\\s+http://127\\.0\\.0\\.1:${running.server.endpoints[1].port}/prod/hello\\s+-> HttpApis/Echo`);
  });
});

describe('reloading', () => {
  test('a new synth keeps the port, adds and removes routes, and serves the new ones', async () => {
    const build = (paths: string[]) => synth((stack: Stack) => {
      const api = new apigwv2.HttpApi(stack, 'Api');
      const fn = inlineFunction(stack, 'Fn', 'exports.handler = async (event) => event.routeKey;');
      for (const p of paths) {
        api.addRoutes({ path: p, methods: [apigwv2.HttpMethod.GET], integration: new HttpLambdaIntegration(`I${p.replace(/\W/g, '')}`, fn) });
      }
    }, { stackName: 'Reloaded' });
    const server = await serve(build(['/one']), { quiet: true });
    try {
      const port = server.server.endpoints[0].port;
      const summary = await server.server.reload(readLocalApp(build(['/two'])));
      expect(summary.routesAdded).toEqual([`GET http://127.0.0.1:${port}/two`]);
      expect(summary.routesRemoved).toEqual([`GET http://127.0.0.1:${port}/one`]);
      expect(await call('/two', [], `http://127.0.0.1:${port}`)).toMatchObject({ status: 200, body: 'GET /two' });
      expect(await call('/one', [], `http://127.0.0.1:${port}`)).toMatchObject({ status: 404, body: '{"message":"Not Found"}' });
    } finally {
      await server.close();
    }
  });
});
