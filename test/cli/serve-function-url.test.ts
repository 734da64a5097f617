/**
 * Lambda function URLs built by aws-cdk-lib's `Function.addFunctionUrl` (both invoke modes, both
 * auth types, CORS) through the real server, curl and Node's http client: the function URL event,
 * the payload 2.0 answer, response streaming as written (the first chunk arrives before the handler
 * ends), `awslambda.HttpResponseStream.from` preludes, and every refusal and failure.
 */
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { Duration, Fn, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, inlineFunction, parseCurlResponse, Running, serve, synth } from './local/support';
import { runCli } from '../support/cli';

const KEY = 'AKIDLOCALTEST0001';
const SECRET = 'local/secret+key/for/tests';

const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(event) });';

/** Writes, waits 600 ms, writes, ends: with a prelude (status, headers, cookies). */
const STREAMED = `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
  const stream = awslambda.HttpResponseStream.from(responseStream, { statusCode: 201, headers: { "content-type": "text/plain", "x-streamed": "yes" }, cookies: ["a=1"] });
  stream.write("first\\n");
  await new Promise((r) => setTimeout(r, 600));
  stream.write("second\\n");
  stream.end();
});`;

const ROUTES: Record<string, string> = {
  plain: `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    responseStream.setContentType("text/event-stream");
    responseStream.write("data: 1\\n\\n");
    responseStream.end("data: 2\\n\\n");
  });`,
  midThrow: `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    responseStream.write("partial");
    await new Promise((r) => setTimeout(r, 100));
    throw new Error("broke mid-stream");
  });`,
  earlyThrow: 'exports.handler = awslambda.streamifyResponse(async () => { throw new Error("before any byte"); });',
  notAsync: 'exports.handler = awslambda.streamifyResponse(() => undefined);',
  endWithChunk: `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    responseStream = awslambda.HttpResponseStream.from(responseStream, { statusCode: 404, headers: { "x-foo": "bar" } });
    responseStream.end("Not Found");
  });`,
  lateFrom: `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    responseStream.write("already");
    awslambda.HttpResponseStream.from(responseStream, { statusCode: 404 });
    responseStream.end();
  });`,
  empty: `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    awslambda.HttpResponseStream.from(responseStream, { statusCode: 204, headers: { "x-empty": "1" } });
    responseStream.end();
  });`,
  badPrelude: `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    responseStream.setContentType("application/vnd.awslambda.http-integration-response");
    responseStream.write("not json");
    responseStream.write(new Uint8Array(8));
    responseStream.end("body");
  });`,
  buffered: 'exports.handler = async () => ({ statusCode: 202, body: "not a streaming handler" });',
};

/** The endpoint of the streaming HTTP_PROXY method: writes, waits 600 ms, writes, ends (or breaks off at /broken). */
let backend: http.Server;
let running: Running;
let assemblyDir: string;
/** Construct id → the URL's base. */
const urls = new Map<string, string>();

beforeAll(async () => {
  backend = http.createServer((req, res) => {
    res.writeHead(203, { 'content-type': 'text/plain', 'x-backend': 'yes' });
    res.write('first\n');
    setTimeout(() => (req.url === '/broken' ? res.destroy() : res.end('second\n')), 600);
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  const assembly = synth((stack: Stack) => {
    const url = (id: string, source: string, options: lambda.FunctionUrlOptions) => {
      const fn = inlineFunction(stack, id, source);
      fn.addFunctionUrl(options);
    };
    url('Echo', ECHO, { authType: lambda.FunctionUrlAuthType.NONE });
    url('Streamed', STREAMED, { authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    // An ES module handler: its environments are worker threads, whose chunks go through the host as well.
    const esm = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-stream-esm-'));
    fs.writeFileSync(path.join(esm, 'index.mjs'), STREAMED.replace('exports.handler =', 'export const handler ='));
    new lambda.Function(stack, 'StreamedEsm', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromAsset(esm) })
      .addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    for (const [id, source] of Object.entries(ROUTES)) {
      url(id, source, { authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    }
    // A streaming handler behind a BUFFERED URL: its bytes are gathered into one payload.
    url('GatheredStream', `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
      responseStream.write('{"statusCode":200,');
      await new Promise((r) => setTimeout(r, 50));
      responseStream.end('"body":"whole"}');
    });`, { authType: lambda.FunctionUrlAuthType.NONE });
    // Lambda streams on its Node.js runtimes only: a Python function's result is read as a BUFFERED URL reads it.
    new lambda.Function(stack, 'Python', { runtime: lambda.Runtime.PYTHON_3_11, handler: 'index.handler', code: lambda.Code.fromInline('def handler(event, context):\n    return {"statusCode": 200, "body": "from python"}\n') })
      .addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    url('Iam', ECHO, { authType: lambda.FunctionUrlAuthType.AWS_IAM, invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    url('Cors', 'exports.handler = async () => ({ statusCode: 200, headers: { "access-control-allow-origin": "*", "x-total": "3" }, body: "[]" });', {
      authType: lambda.FunctionUrlAuthType.NONE,
      cors: {
        allowedOrigins: ['http://localhost:5173'],
        allowedMethods: [lambda.HttpMethod.GET, lambda.HttpMethod.POST],
        allowedHeaders: ['content-type'],
        exposedHeaders: ['x-total'],
        maxAge: Duration.seconds(600),
        allowCredentials: true,
      },
    });

    // A REST API whose methods stream (raw overrides: aws-cdk-lib 2.189 has no prop for it).
    const rest = new apigw.RestApi(stack, 'Rest', { deployOptions: { stageName: 'prod' } });
    const streamedMethod = (route: string, fnId: string, source: string) => {
      const fn = inlineFunction(stack, fnId, source);
      const method = rest.root.addResource(route).addMethod('GET', new apigw.LambdaIntegration(fn));
      const cfn = method.node.defaultChild as apigw.CfnMethod;
      cfn.addPropertyOverride('Integration.ResponseTransferMode', 'STREAM');
      cfn.addPropertyOverride('Integration.Uri', Fn.join('', ['arn:aws:apigateway:', stack.region, ':lambda:path/2021-11-15/functions/', fn.functionArn, '/response-streaming-invocations']));
    };
    streamedMethod('stream', 'RestStreamed', STREAMED);
    streamedMethod('no-prelude', 'RestNoPrelude', ROUTES.plain);
    streamedMethod('buffered', 'RestBuffered', 'exports.handler = async () => ({ statusCode: 200, body: "buffered" });');
    streamedMethod('mid-throw', 'RestMidThrow', `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
      awslambda.HttpResponseStream.from(responseStream, { statusCode: 200 }).write("partial");
      await new Promise((r) => setTimeout(r, 100));
      throw new Error("broke mid-stream");
    });`);
    for (const route of ['relayed', 'broken']) {
      const relayed = rest.root.addResource(route).addMethod('GET', new apigw.HttpIntegration(`${backendUrl}/${route}`));
      (relayed.node.defaultChild as apigw.CfnMethod).addPropertyOverride('Integration.ResponseTransferMode', 'STREAM');
    }
    rest.root.addResource('classic').addMethod('GET', new apigw.LambdaIntegration(inlineFunction(stack, 'Classic', 'exports.handler = async () => ({ statusCode: 200, body: "classic" });')));
  }, { stackName: 'Urls' });
  assemblyDir = assembly;
  running = await serve(assembly, { quiet: true, credentials: { accessKeyId: KEY, secretAccessKey: SECRET } });
  for (const endpoint of running.server.endpoints) {
    urls.set(endpoint.api.constructPath!.split('/')[1], endpoint.urls[0].replace(/\/$/, ''));
  }
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => backend?.close(resolve));
});

async function call(id: string, target = '/', args: string[] = []) {
  const result = await curl(['-i', ...args, `${urls.get(id)}${target}`]);
  return { ...parseCurlResponse(result.stdout), code: result.code, stderr: result.stderr };
}

/** GETs a URL with Node's http client, noting when each chunk arrived and when the response ended. */
function timedGet(base: string): Promise<{ status: number; chunks: Array<{ text: string; at: number }>; endedAt: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Array<{ text: string; at: number }> = [];
    http.get(`${base}/`, (res) => {
      res.on('data', (chunk: Buffer) => chunks.push({ text: chunk.toString(), at: performance.now() }));
      res.on('end', () => resolve({ status: res.statusCode!, chunks, endedAt: performance.now() }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

test('each URL is served on its own port at the root, listed with its auth type and invoke mode', () => {
  const ports = new Set([...urls.values()].map((u) => new URL(u).port));
  expect(ports.size).toBe(urls.size);
  const table = running.server.routeTable().join('\n');
  expect(table).toMatch(/ANY\s+http:\/\/127\.0\.0\.1:\d+\/\s+-> Urls\/Streamed\s+\[function URL NONE; RESPONSE_STREAM\]/);
  expect(table).toMatch(/-> Urls\/Iam\s+\[function URL AWS_IAM; RESPONSE_STREAM\]/);
  expect(table).toMatch(/-> Urls\/Cors\s+\[function URL NONE; BUFFERED; CORS\]/);
});

test('a BUFFERED URL sends the function URL event and reads the answer as payload 2.0', async () => {
  const answer = await call('Echo', '/items/7?a=1&a=2', ['-H', 'Cookie: c=1; d=2', '-H', 'X-One: x']);
  expect(answer.status).toBe(200);
  expect(answer.headers['x-amzn-requestid']).toBeDefined();
  const event = JSON.parse(answer.body);
  expect(event).toMatchObject({
    version: '2.0',
    routeKey: '$default',
    rawPath: '/items/7',
    rawQueryString: 'a=1&a=2',
    cookies: ['c=1', 'd=2'],
    queryStringParameters: { a: '1,2' },
    isBase64Encoded: false,
  });
  expect(event.headers['x-one']).toBe('x');
  const urlId = event.requestContext.apiId;
  expect(urlId).toMatch(/^[0-9a-f]{32}$/);
  expect(event.requestContext).toMatchObject({
    accountId: 'anonymous',
    domainName: `${urlId}.lambda-url.us-east-1.on.aws`,
    domainPrefix: urlId,
    routeKey: '$default',
    stage: '$default',
    http: { method: 'GET', path: '/items/7', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
  });
  expect(event.requestContext.authorizer).toBeUndefined();
  expect(event.pathParameters).toBeUndefined();
});

test.each(['Streamed', 'StreamedEsm'])('RESPONSE_STREAM (%s): the prelude sets status, headers and cookies; the first chunk arrives before the handler ends', async (id) => {
  const answer = await timedGet(urls.get(id)!);
  expect(answer.status).toBe(201);
  expect(answer.chunks.map((c) => c.text).join('')).toBe('first\nsecond\n');
  expect(answer.chunks[0].text).toBe('first\n');
  // The handler waits 600 ms between its writes: the first chunk came well before the end.
  expect(answer.endedAt - answer.chunks[0].at).toBeGreaterThan(300);
  const headers = await call(id);
  expect(headers.headers['x-streamed']).toBe('yes');
  expect(headers.headers['set-cookie']).toBe('a=1');
  expect(headers.headers['transfer-encoding']).toBe('chunked');
  expect(headers.headers['content-length']).toBeUndefined();
});

test('a client that goes away mid-stream does not disturb the server: the function ends its stream, the next request is answered', async () => {
  await new Promise<void>((resolve, reject) => {
    const req = http.get(`${urls.get('Streamed')}/`, (res) => res.once('data', () => {
      req.destroy();
      resolve();
    }));
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
  });
  await new Promise((r) => setTimeout(r, 800));
  const answer = await timedGet(urls.get('Streamed')!);
  expect(answer.chunks.map((c) => c.text).join('')).toBe('first\nsecond\n');
});

test('RESPONSE_STREAM without a prelude: a 200 with the stream\'s content type', async () => {
  const answer = await call('plain');
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('text/event-stream');
  expect(answer.body).toBe('data: 1\n\ndata: 2\n\n');
});

test('a handler that throws mid-stream: the client gets what was written, then the connection is cut', async () => {
  const answer = await call('midThrow');
  expect(answer.status).toBe(200);
  expect(answer.body).toBe('partial');
  // curl: 18 (transfer closed with outstanding read data remaining) for a chunked body cut short.
  expect(answer.code).toBe(18);
  expect(running.lines.some((l) => l.includes('Error: broke mid-stream'))).toBe(true);
});

test('a handler that throws before writing, or returns no promise, answers 502', async () => {
  for (const id of ['earlyThrow', 'notAsync']) {
    const answer = await call(id);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toEqual({ Message: 'Internal Server Error' });
  }
  expect(running.lines.some((l) => l.includes('Streaming does not support non-async handlers.'))).toBe(true);
});

test('HttpResponseStream.from after a write throws Runtime.InvalidStreamingOperation (the bytes already written stay)', async () => {
  const answer = await call('lateFrom');
  expect(answer.status).toBe(200);
  expect(answer.body).toBe('already');
  expect(answer.code).toBe(18);
  expect(running.lines.some((l) => l.includes('Runtime.InvalidStreamingOperation') && l.includes('Cannot set content-type, too late.'))).toBe(true);
});

test('HttpResponseStream.from then end() alone: a 200 without the prelude\'s status and headers (the runtime writes the prelude on the first write only)', async () => {
  const answer = await call('empty');
  expect(answer.status).toBe(200);
  expect(answer.headers['x-empty']).toBeUndefined();
  expect(answer.body).toBe('');
});

test('HttpResponseStream.from then end(chunk): the chunk goes without the prelude, answered 502', async () => {
  const answer = await call('endWithChunk');
  expect(answer.status).toBe(502);
  expect(answer.headers['x-foo']).toBeUndefined();
  expect(running.lines.some((l) => l.includes('the stream ended before the end of its metadata prelude (8 NUL bytes); answered 502'))).toBe(true);
});

test('a prelude that is not JSON answers 502', async () => {
  const answer = await call('badPrelude');
  expect(answer.status).toBe(502);
  expect(running.lines.some((l) => l.includes('the metadata prelude is not JSON; answered 502'))).toBe(true);
});

test('a handler that does not stream behind a RESPONSE_STREAM URL answers with its payload 2.0 result', async () => {
  const answer = await call('buffered');
  expect(answer.status).toBe(202);
  expect(answer.body).toBe('not a streaming handler');
});

test('a Python function behind a RESPONSE_STREAM URL answers with its buffered result (no managed streaming for Python)', async () => {
  const answer = await call('Python');
  expect(answer.status).toBe(200);
  expect(answer.body).toBe('from python');
  expect(answer.headers['content-length']).toBe('11');
});

test('a streaming handler behind a BUFFERED URL: its bytes are gathered into one payload', async () => {
  const answer = await call('GatheredStream');
  expect(answer.status).toBe(200);
  expect(answer.body).toBe('whole');
  expect(answer.headers['transfer-encoding']).toBeUndefined();
});

describe('AWS_IAM', () => {
  test('a request signed for lambda with the server\'s key passes; the caller reaches requestContext.authorizer.iam', async () => {
    const answer = await call('Iam', '/', ['--aws-sigv4', 'aws:amz:us-east-1:lambda', '--user', `${KEY}:${SECRET}`]);
    expect(answer.status).toBe(200);
    const event = JSON.parse(answer.body);
    expect(event.requestContext.accountId).toBe('123456789012');
    expect(event.requestContext.authorizer).toEqual({
      iam: { accessKey: KEY, accountId: '123456789012', callerId: KEY, cognitoIdentity: null, principalOrgId: null, userArn: 'arn:aws:iam::123456789012:user/local', userId: KEY },
    });
  });

  test.each([
    ['unsigned', [] as string[], 'the request is not signed'],
    ['signed for execute-api', ['--aws-sigv4', 'aws:amz:us-east-1:execute-api', '--user', `${KEY}:${SECRET}`], "credential scope service is 'execute-api'; the request must be signed for 'lambda'"],
    ['signed with another secret', ['--aws-sigv4', 'aws:amz:us-east-1:lambda', '--user', `${KEY}:wrong`], 'signature does not match'],
  ])('%s: 403 {"Message":"Forbidden"}', async (_, args, reason) => {
    const answer = await call('Iam', '/', args);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ Message: 'Forbidden' });
    expect(running.lines.some((l) => l.includes(reason) && l.endsWith('answered 403'))).toBe(true);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) => ['-X', 'OPTIONS', '-H', `Origin: ${origin}`, '-H', 'Access-Control-Request-Method: POST'];

  test('a preflight from an allowed origin is answered by the URL with the configured headers', async () => {
    const answer = await call('Cors', '/anything', preflight('http://localhost:5173'));
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '600',
    });
  });

  test('a preflight from another origin is refused: no CORS headers', async () => {
    const answer = await call('Cors', '/anything', preflight('http://evil.example'));
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-methods']).toBeUndefined();
  });

  test('the function\'s CORS headers are replaced by the URL\'s for an allowed origin', async () => {
    const answer = await call('Cors', '/', ['-H', 'Origin: http://localhost:5173']);
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(answer.headers['access-control-expose-headers']).toBe('x-total');
  });
});

test('a request body over 6 MB answers 413 without invoking the function', async () => {
  const big = Buffer.alloc(6 * 1024 * 1024 + 1, 'a');
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(`${urls.get('Echo')}/`, { method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': big.length } }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(big);
  });
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body).Message).toMatch(/Request must be smaller than 6291456 bytes/);
});

describe('REST API methods with ResponseTransferMode STREAM', () => {
  const rest = (route: string) => `${urls.get('Rest')}/${route}`;

  test('the prelude sets status and headers; the first chunk arrives before the handler ends', async () => {
    const answer = await timedGet(rest('stream'));
    expect(answer.status).toBe(201);
    expect(answer.chunks.map((c) => c.text).join('')).toBe('first\nsecond\n');
    expect(answer.endedAt - answer.chunks[0].at).toBeGreaterThan(300);
    const head = parseCurlResponse((await curl(['-i', rest('stream')])).stdout);
    expect(head.headers['x-streamed']).toBe('yes');
    expect(head.headers['x-amzn-requestid']).toBeDefined();
    expect(head.headers['transfer-encoding']).toBe('chunked');
  });

  test('the listing marks the streamed methods', () => {
    expect(running.server.routeTable().join('\n')).toMatch(/GET\s+http:\/\/127\.0\.0\.1:\d+\/prod\/stream\s+-> Urls\/RestStreamed \(STREAM\)/);
  });

  test.each([
    ['no-prelude', 'is text/event-stream, not application/vnd.awslambda.http-integration-response (no metadata prelude)'],
    ['buffered', 'the function answered without a response stream'],
  ])('%s: a response without the metadata prelude is malformed: 502', async (route, reason) => {
    const answer = parseCurlResponse((await curl(['-i', rest(route)])).stdout);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toEqual({ message: 'Internal server error' });
    expect(running.lines.some((l) => l.includes('malformed Lambda proxy response stream') && l.includes(reason))).toBe(true);
  });

  test('a handler that throws mid-stream: what was written, then the connection is cut', async () => {
    const result = await curl(['-i', rest('mid-throw')]);
    expect(parseCurlResponse(result.stdout).body).toBe('partial');
    expect(result.code).toBe(18);
  });

  test('HTTP_PROXY: the endpoint\'s status, headers and body relayed as they come', async () => {
    const answer = await timedGet(rest('relayed'));
    expect(answer.status).toBe(203);
    expect(answer.chunks.map((c) => c.text).join('')).toBe('first\nsecond\n');
    expect(answer.endedAt - answer.chunks[0].at).toBeGreaterThan(300);
    const head = parseCurlResponse((await curl(['-i', rest('relayed')])).stdout);
    expect(head.headers['x-backend']).toBe('yes');
    expect(head.headers['transfer-encoding']).toBe('chunked');
    expect(running.server.routeTable().join('\n')).toMatch(/\/prod\/relayed\s+-> HTTP_PROXY GET http:\/\/127\.0\.0\.1:\d+\/relayed \(STREAM\)/);
  });

  test('HTTP_PROXY: an endpoint that breaks off midway cuts the client\'s connection after what it sent', async () => {
    const result = await curl(['-i', rest('broken')]);
    expect(parseCurlResponse(result.stdout).body).toBe('first\n');
    expect(result.code).toBe(18);
  });

  test('test-invoke on a streamed method shows the whole body', async () => {
    const restId = running.server.endpoints.find((e) => e.api.constructPath === 'Urls/Rest')!.api.logicalId;
    const run = await runCli(['test-invoke', '--app', assemblyDir, '--api', restId, '--method', 'GET', '--path', '/stream', '--json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.status).toBe(201);
    expect(result.body).toBe('first\nsecond\n');
  });

  test('a buffered method of the same API keeps its Content-Length answer', async () => {
    const answer = parseCurlResponse((await curl(['-i', rest('classic')])).stdout);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('classic');
    expect(answer.headers['content-length']).toBe('7');
  });
});
