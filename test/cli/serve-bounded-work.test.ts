/**
 * `serve` against requests and backends built to stall or flood it: a policy wildcard against a
 * path of thousands of segments, user-written regular expressions (identity validation, selection
 * pattern, a template's origin check) against long client or function text, methods API Gateway
 * does not have, interim (1xx) statuses from a
 * function, an endpoint, a MOCK response, a template override or a gateway response, an
 * endpoint that streams 100 MB, and the binary rules recorded on the service. Each answer is
 * final and as the gateway gives it, and another API answers within a second meanwhile.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { curl, inlineFunction, parseCurlResponse, Running, serve, synth } from './local/support';

const MAX = 10 * 1024 * 1024;

const ECHO_SOURCE = `
exports.handler = async (e) => {
  const q = e.queryStringParameters || {};
  if (q.status) return { statusCode: Number(q.status), body: 'interim?' };
  if (q.b64) return { statusCode: 200, headers: { 'Content-Type': 'image/png' }, isBase64Encoded: true, body: q.b64 };
  return { statusCode: 200, body: JSON.stringify({ httpMethod: e.httpMethod, path: e.path }) };
};`;

const FAILING_SOURCE = `
exports.handler = async (e) => { throw new Error('a'.repeat(100000)); };`;

const AUTHORIZER_SOURCE = `
exports.handler = async (event) => ({
  principalId: 'user',
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:*:*:*/*/*/public/*' }] },
});`;

/** Writes `total` bytes in 64 KiB chunks as the reader takes them; stops when the reader leaves. */
function streamBytes(res: http.ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  res.on('close', () => { sent = total; });
  const write = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', write);
        return;
      }
    }
    res.end();
  };
  write();
}

let upstream: http.Server;
let up: string;

function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    if (req.url === '/switch') {
      res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      res.socket?.end();
      return;
    }
    if (req.url === '/reported') {
      res.writeHead(200, { 'Content-Length': String(2 * MAX) });
      res.write('x'.repeat(1000));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    streamBytes(res, 100 * 1024 * 1024);
  });
  return new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => {
    up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    resolve();
  }));
}

function buildApis(stack: Stack): void {
  const echo = inlineFunction(stack, 'Echo', ECHO_SOURCE);
  const authorizer = new apigw.TokenAuthorizer(stack, 'PublicOnly', {
    handler: inlineFunction(stack, 'AuthFn', AUTHORIZER_SOURCE),
    resultsCacheTtl: Duration.seconds(0),
  });
  const validated = new apigw.TokenAuthorizer(stack, 'Validated', {
    handler: inlineFunction(stack, 'AuthFn2', AUTHORIZER_SOURCE),
    validationRegex: '(a|aa)*b',
    resultsCacheTtl: Duration.seconds(0),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' }, binaryMediaTypes: ['*/*'] });
  api.root.addResource('public').addResource('{proxy+}').addMethod('GET', new apigw.LambdaIntegration(echo), { authorizer });
  api.root.addResource('validated').addResource('public').addResource('ok').addMethod('GET', new apigw.LambdaIntegration(echo), { authorizer: validated });
  api.root.addResource('selected').addMethod('GET', new apigw.LambdaIntegration(inlineFunction(stack, 'Failing', FAILING_SOURCE), {
    proxy: false,
    integrationResponses: [
      { selectionPattern: '(a|aa)*b', statusCode: '400' },
      { statusCode: '200', responseTemplates: { 'application/json': 'default' } },
    ],
  }), { methodResponses: [{ statusCode: '200' }, { statusCode: '400' }] });
  api.root.addResource('origin').addMethod('GET', new apigw.MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    integrationResponses: [{
      statusCode: '200',
      responseTemplates: { 'application/json': "#if($input.params().header.get('Origin').matches('https://(a|aa)*\\.example'))allowed#{else}refused#end" },
    }],
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('any').addMethod('ANY', new apigw.LambdaIntegration(echo));
  api.root.addResource('fn').addMethod('GET', new apigw.LambdaIntegration(echo));
  api.root.addResource('huge').addMethod('GET', new apigw.HttpIntegration(`${up}/huge`));
  api.root.addResource('reported').addMethod('GET', new apigw.HttpIntegration(`${up}/reported`));
  api.root.addResource('switch').addMethod('GET', new apigw.HttpIntegration(`${up}/switch`));
  api.root.addResource('huge-mapped').addMethod('GET', new apigw.HttpIntegration(`${up}/huge`, {
    proxy: false,
    options: { integrationResponses: [{ statusCode: '200' }] },
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('mock101').addMethod('GET', new apigw.MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    integrationResponses: [{ statusCode: '101' }],
  }), { methodResponses: [{ statusCode: '101' }] });
  api.root.addResource('override100').addMethod('GET', new apigw.MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '#set($context.responseOverride.status = 100)ok' } }],
  }), { methodResponses: [{ statusCode: '200' }] });

  const other = new apigw.RestApi(stack, 'Other', { deployOptions: { stageName: 'prod' }, binaryMediaTypes: ['*/png'] });
  other.root.addResource('ping').addMethod('GET', new apigw.MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': 'pong' } }],
  }), { methodResponses: [{ statusCode: '200' }] });
  other.root.addResource('fn').addMethod('GET', new apigw.LambdaIntegration(echo));
  new apigw.GatewayResponse(stack, 'InterimMissing', { restApi: other, type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '101' });
}

let running: Running;
let otherUrl: string;

beforeAll(async () => {
  await startUpstream();
  running = await serve(synth(buildApis));
  otherUrl = running.server.endpoints[1].urls[0];
}, 60_000);

afterAll(async () => {
  await running?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function call(url: string, args: string[] = []) {
  const result = await curl(['-i', ...args, url]);
  return parseCurlResponse(result.stdout);
}

/** Runs `slow` while pinging the other API; returns its result and how long the ping took. */
async function whilePinging<T>(slow: () => Promise<T>): Promise<{ result: T; pingMs: number }> {
  const pending = slow();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  const ping = await call(`${otherUrl}ping`);
  const pingMs = Date.now() - started;
  expect([ping.status, ping.body]).toEqual([200, 'pong']);
  return { result: await pending, pingMs };
}

test('a policy wildcard against /public/ + "a/" x 5,000 allows at once; the other API stays responsive', async () => {
  const path = `public/${'a/'.repeat(5000)}end`;
  // Warm the authorizer and the function, so the timing below is the matching's.
  expect((await call(`${running.url}public/warm`, ['-H', 'Authorization: token'])).status).toBe(200);
  const started = Date.now();
  const { result, pingMs } = await whilePinging(() => call(`${running.url}${path}`, ['-H', 'Authorization: token']));
  expect(result.status).toBe(200);
  expect(JSON.parse(result.body)).toEqual({ httpMethod: 'GET', path: `/${path}` });
  expect(Date.now() - started).toBeLessThan(3000);
  expect(pingMs).toBeLessThan(1000);
});

describe('user-written regular expressions against what a client or a function sends', () => {
  test('an identity validation expression (a|aa)*b against a token of 5,000 "a": 401 at once', async () => {
    const { result, pingMs } = await whilePinging(() => call(`${running.url}validated/public/ok`, ['-H', `Authorization: ${'a'.repeat(5000)}`]));
    expect([result.status, result.body]).toEqual([401, '{"message":"Unauthorized"}']);
    expect(pingMs).toBeLessThan(1000);
    expect((await call(`${running.url}validated/public/ok`, ['-H', `Authorization: ${'a'.repeat(50)}b`])).status).toBe(200);
  });

  test('a selection pattern (a|aa)*b against an error message of 100,000 "a": the default response at once', async () => {
    const started = Date.now();
    const { result, pingMs } = await whilePinging(() => call(`${running.url}selected`));
    expect([result.status, result.body]).toEqual([200, 'default']);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(pingMs).toBeLessThan(1000);
  });

  test('a template\'s origin check against an Origin of 5,000 "a": answered at once, and correctly', async () => {
    const { result, pingMs } = await whilePinging(() => call(`${running.url}origin`, ['-H', `Origin: https://${'a'.repeat(5000)}`]));
    expect([result.status, result.body]).toEqual([200, 'refused']);
    expect(pingMs).toBeLessThan(1000);
    expect((await call(`${running.url}origin`, ['-H', 'Origin: https://aaa.example'])).body).toBe('allowed');
  });
});

describe('methods API Gateway does not have', () => {
  test.each(['any', 'fn', 'nowhere', 'public/x'])('PROPFIND /%s: 403 Missing Authentication Token, no function runs', async (path) => {
    const response = await call(`${running.url}${path}`, ['-X', 'PROPFIND', '-H', 'Authorization: token']);
    expect(response.status).toBe(403);
    expect(response.body).toBe('{"message":"Missing Authentication Token"}');
    expect(response.headers['x-amzn-errortype']).toBe('MissingAuthenticationTokenException');
  });

  test('the seven methods reach an ANY method', async () => {
    for (const method of ['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST', 'PUT']) {
      const response = await call(`${running.url}any`, ['-X', method]);
      expect([method, response.status, JSON.parse(response.body).httpMethod]).toEqual([method, 200, method]);
    }
    expect((await call(`${running.url}any`, ['-I'])).status).toBe(200);
  });
});

describe('every answer is final: an interim (1xx) status becomes 502', () => {
  test.each([100, 101, 103, 199])('a Lambda proxy statusCode %d', async (status) => {
    const response = await call(`${running.url}fn?status=${status}`);
    expect(response.status).toBe(502);
    expect(response.body).toBe('{"message":"Internal server error"}');
    expect(running.lines.some((l) => l.includes(`status ${status} is an interim (1xx) status, which cannot end an HTTP response`))).toBe(true);
  });

  test('an HTTP_PROXY endpoint answering 101 Switching Protocols', async () => {
    const response = await call(`${running.url}switch`);
    expect(response.status).toBe(502);
    expect(response.body).toBe('{"message":"Internal server error"}');
  });

  test('a MOCK integration response with status 101', async () => {
    expect((await call(`${running.url}mock101`)).status).toBe(502);
  });

  test('$context.responseOverride.status = 100', async () => {
    expect((await call(`${running.url}override100`)).status).toBe(502);
  });

  test('a GatewayResponse whose StatusCode is 101', async () => {
    const response = await call(`${otherUrl}nowhere`);
    expect(response.status).toBe(502);
    expect(response.body).toBe('{"message":"Internal server error"}');
    expect(running.lines.some((l) => l.includes('the response could not be sent as HTTP (status 101 is an interim (1xx) status'))).toBe(true);
  });
});

describe('the 10 MB payload quota on integration responses', () => {
  test.each(['huge', 'huge-mapped'])('/%s: an endpoint streaming 100 MB is cut off past 10 MB: 500, memory bounded, the other API answers', async (path) => {
    const rssBefore = process.memoryUsage().rss;
    const { result, pingMs } = await whilePinging(() => call(`${running.url}${path}`));
    expect(result.status).toBe(500);
    expect(result.body).toBe('{"message":"Internal server error"}');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(60 * 1024 * 1024);
    expect(pingMs).toBeLessThan(1000);
    expect(running.lines.some((l) => l.includes('Integration response is larger than allowed maximum of 10485760 bytes'))).toBe(true);
  });

  test('a Content-Length over the quota is refused before the body is read', async () => {
    const response = await call(`${running.url}reported`);
    expect(response.status).toBe(500);
    expect(running.lines.some((l) => l.includes(`Integration response of reported length ${2 * MAX} is larger than allowed maximum of 10485760 bytes`))).toBe(true);
  });
});

describe('binary handling as recorded on the service', () => {
  test('isBase64Encoded with a body that is not base64: 500, whatever the Accept', async () => {
    for (const accept of ['image/png', 'text/plain']) {
      const response = await call(`${running.url}fn?b64=${encodeURIComponent('not base64!')}`, ['-H', `Accept: ${accept}`]);
      expect(response.status).toBe(500);
      expect(response.body).toBe('{"message":"Internal server error"}');
    }
  });

  test('a valid base64 body is decoded for a binary Accept', async () => {
    const response = await call(`${running.url}fn?b64=${encodeURIComponent('aGk=')}`, ['-H', 'Accept: image/png']);
    expect([response.status, response.body]).toEqual([200, 'hi']);
  });

  test('an Accept the gateway cannot parse: the base64 text as it is, even with */*', async () => {
    const response = await call(`${running.url}fn?b64=${encodeURIComponent('aGk=')}`, ['-H', 'Accept: png']);
    expect([response.status, response.body]).toEqual([200, 'aGk=']);
  });

  test('a binary media type with a star only on the left (*/png) is no wildcard: the base64 text as it is', async () => {
    const response = await call(`${otherUrl}fn?b64=${encodeURIComponent('aGk=')}`, ['-H', 'Accept: image/png']);
    expect([response.status, response.body]).toEqual([200, 'aGk=']);
  });
});
