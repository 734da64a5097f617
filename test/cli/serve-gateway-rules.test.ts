/**
 * The gateway's own request and response rules for Lambda proxy integrations, on a real stack
 * built with aws-cdk-lib: header names and the headers the gateway drops or remaps, slashes and
 * percent-encodings in paths and queries, routing when a resource lacks the method, the response
 * rules (no statusCode, headers in both maps, binary media types by the first Accept type), the
 * client's trace header, and an integration that calls Lambda with another method than POST.
 * Driven in-process through the LocalGateway, and once through a real `serve` with curl.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, serve, synth, TRACE_ID } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { LocalApp } from '../../src/cli/local/model/local-app';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';

const SHAPER_SOURCE = `
exports.handler = async (event) => {
  console.log('SHAPER ' + event.pathParameters.kind);
  switch (event.pathParameters.kind) {
    case 'empty': return {};
    case 'status-only': return { statusCode: 204 };
    case 'both': return { statusCode: 200, headers: { 'X-One': 'single', 'X-Two': 'single', 'x-same': 'm1' }, multiValueHeaders: { 'x-one': ['m1', 'm2'], 'X-Same': ['m1'] }, body: 'both' };
    case 'reserved': return { statusCode: 200, headers: { Date: 'Mon, 01 Jan 2001 00:00:00 GMT', Server: 'fn', Connection: 'close', Via: '1.1 fn', 'Content-Length': '999', Warn: '199 fn' }, body: 'reserved' };
    case 'png': return { statusCode: 200, headers: { 'Content-Type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'), isBase64Encoded: true };
    default: return { statusCode: 400, body: 'unknown kind' };
  }
};`;

function buildApi(stack: Stack): void {
  const echo = new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline("exports.handler = async (e) => { console.log('ECHO ' + e.path); return { statusCode: 200, body: JSON.stringify(e) }; };"),
  });
  const shaper = new lambda.Function(stack, 'Shaper', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(SHAPER_SOURCE) });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' }, binaryMediaTypes: ['image/png', 'application/octet-stream'] });
  const echoing = new apigw.LambdaIntegration(echo);
  const users = api.root.addResource('users');
  users.addResource('me').addMethod('PATCH', echoing);
  users.addResource('{userId}').addMethod('GET', echoing);
  const things = api.root.addResource('things');
  things.addResource('real').addMethod('GET', echoing);
  things.addResource('{proxy+}').addMethod('ANY', echoing);
  api.root.addResource('responses').addResource('{kind}').addMethod('GET', new apigw.LambdaIntegration(shaper));
  const notPost = api.root.addResource('not-post').addMethod('GET', echoing);
  (notPost.node.defaultChild as apigw.CfnMethod).addPropertyOverride('Integration.IntegrationHttpMethod', 'GET');
}

let app: LocalApp;
let invoker: Invoker;
let gateway: LocalGateway;
const functionLines: string[] = [];
let assembly: string;

beforeAll(() => {
  assembly = synth(buildApi);
  app = readLocalApp(assembly);
  invoker = new Invoker(app.functions, { log: (_id, _level, text) => functionLines.push(text), maxWorkersPerFunction: 1 });
  gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions, allowUnsigned: true });
});

afterAll(async () => {
  await invoker?.close();
});

async function send(target: string, rawHeaders: Array<[string, string]> = [], options: { method?: string; body?: Buffer; log?: ExecutionLog } = {}) {
  const response = await gateway.handle({ method: options.method ?? 'GET', target, rawHeaders, body: options.body ?? Buffer.alloc(0), sourceIp: '127.0.0.1', port: 3000 }, options.log);
  const headers: Record<string, string[]> = {};
  for (const [name, value] of response.headers) {
    (headers[name] ??= []).push(value);
  }
  return { status: response.statusCode, headers, body: response.body };
}

async function event(target: string, rawHeaders: Array<[string, string]> = [], options: { method?: string; body?: Buffer } = {}) {
  const response = await send(target, rawHeaders, options);
  expect(response.status).toBe(200);
  return JSON.parse(response.body as string);
}

describe('request headers', () => {
  test('Authorization, Host and User-Agent arrive in the gateway casing; other names as sent', async () => {
    const e = await event('/prod/users/42', [['authorization', 'Bearer t'], ['host', 'api.local:3000'], ['user-agent', 'ua/1'], ['tEsT-HEADeR', 'aValUE'], ['content-type', 'text/plain']]);
    expect(Object.keys(e.headers)).toEqual([
      'Authorization', 'Host', 'User-Agent', 'tEsT-HEADeR', 'content-type', 'X-Amzn-Trace-Id', 'X-Forwarded-For', 'X-Forwarded-Port', 'X-Forwarded-Proto',
    ]);
    expect(e.headers.Authorization).toBe('Bearer t');
    expect(e.multiValueHeaders['User-Agent']).toEqual(['ua/1']);
    expect(e.requestContext.identity.userAgent).toBe('ua/1');
  });

  test('connection-level headers are not forwarded to the function', async () => {
    const e = await event('/prod/users/42', [
      ['Connection', 'keep-alive'], ['Expect', '100-continue'], ['TE', 'trailers'], ['Upgrade', 'h2c'], ['Max-Forwards', '3'], ['Content-MD5', 'x'],
      ['Trailer', 'x'], ['Proxy-Authenticate', 'x'], ['WWW-Authenticate', 'x'], ['Server', 'x'], ['Transfer-Encoding', 'chunked'], ['Via', '1.1 proxy'], ['X-Kept', 'yes'],
    ]);
    expect(Object.keys(e.headers).filter((name) => !name.startsWith('X-Forwarded') && name !== 'X-Amzn-Trace-Id')).toEqual(['Via', 'X-Kept']);
  });

  test('a SigV4 Authorization header is dropped', async () => {
    const signed = await event('/prod/users/42', [['Authorization', 'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=abc'], ['X-Kept', 'yes']]);
    expect(signed.headers.Authorization).toBeUndefined();
    expect(signed.headers['X-Kept']).toBe('yes');
  });

  test('the client trace header is kept in the event and the response; without one the gateway makes one', async () => {
    const incoming = 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1';
    const traced = await send('/prod/users/42', [['X-Amzn-Trace-Id', incoming]]);
    expect(JSON.parse(traced.body as string).headers['X-Amzn-Trace-Id']).toBe(incoming);
    expect(traced.headers['X-Amzn-Trace-Id']).toEqual([incoming]);
    // Recorded: with a Parent, the function sees the client's Root with the gateway's own Parent.
    const withParent = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    const parented = await send('/prod/users/42', [['X-Amzn-Trace-Id', withParent]]);
    const seen = JSON.parse(parented.body as string);
    expect(seen.headers['X-Amzn-Trace-Id']).toMatch(/^Root=1-5759e988-bd862e3fe1be46a994272793;Parent=(?!53995c3f42cd8ad8)[0-9a-f]{16};Sampled=1$/);
    expect(seen.multiValueHeaders['X-Amzn-Trace-Id']).toEqual([seen.headers['X-Amzn-Trace-Id']]);
    expect(parented.headers['X-Amzn-Trace-Id']).toEqual([withParent]);
    const fresh = await send('/prod/users/42');
    expect(fresh.headers['X-Amzn-Trace-Id'][0]).toMatch(TRACE_ID);
    expect(JSON.parse(fresh.body as string).headers['X-Amzn-Trace-Id']).toBe(fresh.headers['X-Amzn-Trace-Id'][0]);
  });
});

describe('paths and query strings', () => {
  test.each([
    ['/prod/things/a//b/', '/things/a//b/', 'a//b', '/prod/things/a//b/'],
    ['/prod//things/x', '/things/x', 'x', '/prod//things/x'],
    ['//prod/things/x', '/things/x', 'x', '/prod/things/x'],
    ['/prod/things/a%2Bb/c+d%20e', '/things/a%2Bb/c+d%20e', 'a%2Bb/c+d%20e', '/prod/things/a%2Bb/c+d%20e'],
  ])('%s: path %s, proxy %s, requestContext.path %s', async (target, path, proxy, contextPath) => {
    const e = await event(target);
    expect(e.resource).toBe('/things/{proxy+}');
    expect(e.path).toBe(path);
    expect(e.pathParameters).toEqual({ proxy });
    expect(e.requestContext.path).toBe(contextPath);
  });

  test('a path parameter keeps its percent-encoding (%2F included); a trailing slash still matches', async () => {
    expect((await event('/prod/users/a%2Fb%20c')).pathParameters).toEqual({ userId: 'a%2Fb%20c' });
    const trailing = await event('/prod/users/42/');
    expect(trailing.pathParameters).toEqual({ userId: '42' });
    expect(trailing.path).toBe('/users/42/');
  });

  test('query: + is a space, %2B a plus, ; separates, a bad escape stays as sent', async () => {
    const e = await event('/prod/users/42?q=a+b&e=a%2Bb&bad=%zz&s=1;t=2');
    expect(e.queryStringParameters).toEqual({ q: 'a b', e: 'a+b', bad: '%zz', s: '1', t: '2' });
  });
});

describe('a resource that lacks the method', () => {
  test('GET /users/me goes to /users/{userId}; PATCH to /users/me', async () => {
    expect((await event('/prod/users/me')).resource).toBe('/users/{userId}');
    expect((await event('/prod/users/me', [], { method: 'PATCH' })).resource).toBe('/users/me');
  });

  test('POST /things/real goes to the greedy sibling', async () => {
    const e = await event('/prod/things/real', [], { method: 'POST' });
    expect(e.resource).toBe('/things/{proxy+}');
    expect(e.pathParameters).toEqual({ proxy: 'real' });
  });

  test('no resource has the method: 403 Missing Authentication Token', async () => {
    const response = await send('/prod/users/me', [], { method: 'POST' });
    expect(response.status).toBe(403);
    expect(response.body).toBe('{"message":"Missing Authentication Token"}');
    expect(response.headers['x-amzn-ErrorType']).toEqual(['MissingAuthenticationTokenException']);
  });
});

describe('the function response', () => {
  test('{} is a 200 with an empty JSON body; a statusCode alone is that status', async () => {
    const empty = await send('/prod/responses/empty');
    expect(empty).toMatchObject({ status: 200, body: '' });
    expect(empty.headers['Content-Type']).toEqual(['application/json']);
    expect(await send('/prod/responses/status-only')).toMatchObject({ status: 204, body: '' });
  });

  test('a name in both maps sends the multiValueHeaders values, then the headers value unless it is one of them', async () => {
    const response = await send('/prod/responses/both');
    expect(response.headers['X-One']).toEqual(['m1', 'm2', 'single']);
    expect(response.headers['X-Two']).toEqual(['single']);
    expect(response.headers['x-same']).toEqual(['m1']);
  });

  test('reserved headers are remapped or dropped; Warn passes', async () => {
    const response = await send('/prod/responses/reserved');
    expect(response.headers).toMatchObject({
      'x-amzn-Remapped-Date': ['Mon, 01 Jan 2001 00:00:00 GMT'], 'x-amzn-Remapped-Server': ['fn'], 'x-amzn-Remapped-Connection': ['close'], 'Warn': ['199 fn'],
    });
    expect(response.headers.Via).toBeUndefined();
    expect(response.headers['Content-Length']).toBeUndefined();
  });

  test('a base64 body is sent as bytes only when the first Accept type is binary', async () => {
    expect(await send('/prod/responses/png', [['Accept', 'image/png;q=0.1, text/html']])).toMatchObject({ status: 200, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    expect(await send('/prod/responses/png', [['Accept', 'text/html, image/png']])).toMatchObject({ status: 200, body: 'iVBORw==' });
  });

  test('a binary request body is passed base64-encoded', async () => {
    const e = await event('/prod/users/42', [['Content-Type', 'application/octet-stream']], { body: Buffer.from([0, 255, 1]) });
    expect(e).toMatchObject({ body: 'AP8B', isBase64Encoded: true });
  });
});

test('an integration that calls Lambda with GET answers 500 without running the function, logged as the console logs it', async () => {
  expect(app.warnings).toContainEqual(expect.stringMatching(/^LocalTest\/ApinotpostGET\w+: AWS_PROXY integration with IntegrationHttpMethod GET \(Lambda is invoked with POST only\); answered 500, as API Gateway answers it$/));
  const before = functionLines.filter((line) => line.includes('ECHO /not-post')).length;
  const log = new ExecutionLog();
  const response = await send('/prod/not-post', [], { log });
  expect(response.status).toBe(500);
  expect(response.body).toBe('{"message":"Internal server error"}');
  expect(response.headers['x-amzn-ErrorType']).toEqual(['InternalServerErrorException']);
  expect(log.lines.map((l) => l.replace(/^.* UTC \d{4} : /, ''))).toEqual(expect.arrayContaining([
    'Received response. Status: 403, Integration latency: 0 ms',
    expect.stringMatching(/^Lambda invocation failed with status: 403\. Lambda request id: [0-9a-f-]{36}$/),
    'Execution failed due to configuration error: ',
    'Method completed with status: 500',
  ]));
  expect(functionLines.filter((line) => line.includes('ECHO /not-post')).length).toBe(before);
});

test('end to end through serve and curl: slashes, header casing, trace header, remapped response headers', async () => {
  const running = await serve(assembly);
  try {
    const base = running.url.replace(/\/prod\/$/, '');
    const incoming = 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1';
    const result = await curl(['-i', '--path-as-is', '-H', 'authorization: Bearer t', '-H', `X-Amzn-Trace-Id: ${incoming}`, `${base}/prod//things/a//b/?q=a+b`]);
    const response = parseCurlResponse(result.stdout);
    expect(response.status).toBe(200);
    expect(response.headers['x-amzn-trace-id']).toBe(incoming);
    const e = JSON.parse(response.body);
    expect(e).toMatchObject({ path: '/things/a//b/', pathParameters: { proxy: 'a//b' }, queryStringParameters: { q: 'a b' } });
    expect(e.headers).toMatchObject({ 'Authorization': 'Bearer t', 'Host': expect.stringMatching(/^127\.0\.0\.1:\d+$/), 'X-Amzn-Trace-Id': incoming });
    const reserved = parseCurlResponse((await curl(['-i', `${base}/prod/responses/reserved`])).stdout);
    expect(reserved).toMatchObject({ status: 200, body: 'reserved' });
    expect(reserved.headers['x-amzn-remapped-server']).toBe('fn');
    expect(reserved.headers['content-length']).toBe('8');
  } finally {
    await running.close();
  }
});
