/**
 * `serve` with HTTP_PROXY integrations built by aws-cdk-lib's HttpIntegration (proxy: true)
 * against a real upstream server on 127.0.0.1: path, query and header mapping, `{proxy+}`,
 * the response passed back as it is (with the gateway's header rules), the integration timeout
 * (504), an unreachable endpoint (500), and a VPC link (not emulated: announced, 500).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { curl, parseCurlResponse, Running, serve, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  readonly body: string;
}

let upstream: http.Server;
let upstreamPort: number;
let closedPort: number;
const seen: Seen[] = [];

function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString() });
      if (req.url!.startsWith('/slow')) {
        setTimeout(() => res.end('late'), 1500);
        return;
      }
      if (req.url!.startsWith('/fail')) {
        res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '5' });
        res.end('upstream down');
        return;
      }
      res.writeHead(201, [
        ['Content-Type', 'application/json'], ['X-Upstream', 'yes'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'],
        ['Server', 'upstream/1.0'], ['WWW-Authenticate', 'Basic realm="x"'], ['Via', '1.1 somewhere'],
      ]);
      res.end(JSON.stringify({ echoed: req.url }));
    });
  });
  return new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => {
    upstreamPort = (upstream.address() as AddressInfo).port;
    resolve();
  }));
}

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function buildApi(stack: Stack): void {
  const up = `http://127.0.0.1:${upstreamPort}`;
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod', variables: { upstreamHost: `127.0.0.1:${upstreamPort}` } } });
  api.root.addResource('items').addResource('{id}').addMethod('GET', new apigw.HttpIntegration(`${up}/things/{id}`, {
    options: {
      requestParameters: {
        'integration.request.path.id': 'method.request.path.id',
        'integration.request.header.X-Tenant': 'method.request.querystring.tenant',
        'integration.request.header.X-Stage': 'context.stage',
        'integration.request.querystring.source': "'apigw'",
      },
    },
  }), { requestParameters: { 'method.request.path.id': true, 'method.request.querystring.tenant': false } });
  api.root.addResource('proxy').addResource('{proxy+}').addMethod('ANY', new apigw.HttpIntegration(`${up}/{proxy}`, {
    httpMethod: 'ANY',
    options: { requestParameters: { 'integration.request.path.proxy': 'method.request.path.proxy' } },
  }), { requestParameters: { 'method.request.path.proxy': true } });
  api.root.addResource('multi').addMethod('GET', new apigw.HttpIntegration(`${up}/multi`, {
    options: {
      requestParameters: {
        'integration.request.multivaluequerystring.tags': 'method.request.multivaluequerystring.tag',
        'integration.request.multivalueheader.X-Many': 'method.request.multivalueheader.X-In',
        'integration.request.header.X-Missing': 'method.request.header.X-Absent',
        'integration.request.header.X-Request-Id': 'context.requestId',
        'integration.request.header.X-Stage-Host': 'stageVariables.upstreamHost',
      },
    },
  }));
  api.root.addResource('slow').addMethod('GET', new apigw.HttpIntegration(`${up}/slow`, { options: { timeout: Duration.millis(500) } }));
  api.root.addResource('down').addMethod('GET', new apigw.HttpIntegration(`http://127.0.0.1:${closedPort}/x`));
  api.root.addResource('staged').addMethod('GET', new apigw.HttpIntegration('http://${stageVariables.upstreamHost}/from-stage'));
  api.root.addResource('private').addMethod('GET', new apigw.Integration({
    type: apigw.IntegrationType.HTTP_PROXY,
    integrationHttpMethod: 'GET',
    uri: 'http://internal.example/x',
    options: { connectionType: apigw.ConnectionType.VPC_LINK, vpcLink: apigw.VpcLink.fromVpcLinkId(stack, 'Link', 'abc123') },
  }));
}

let running: Running;
let assembly: string;

beforeAll(async () => {
  await startUpstream();
  closedPort = await freePort();
  assembly = synth(buildApi);
  running = await serve(assembly);
});

afterAll(async () => {
  await running?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

async function call(args: string[]) {
  const result = await curl(['-i', ...args]);
  return { ...parseCurlResponse(result.stdout), raw: result.stdout };
}

/** Values of a header the upstream received (any case), in order. */
function received(request: Seen, name: string): string[] {
  return request.rawHeaders.flatMap((h, i) => (i % 2 === 0 && h.toLowerCase() === name ? [request.rawHeaders[i + 1]] : []));
}

test('path parameter, query string, mapped header and query parameter, context and literal values reach the endpoint', async () => {
  const response = await call(['-H', 'X-Custom: c1', '-H', 'X-Forwarded-For: 10.0.0.9', `${running.url}items/a%20b?tenant=acme&x=1&x=2`]);
  expect(response.status).toBe(201);
  expect(seen).toHaveLength(1);
  const request = seen[0];
  expect(request.method).toBe('GET');
  expect(request.url).toBe('/things/a%20b?tenant=acme&x=1&x=2&source=apigw');
  expect(received(request, 'x-tenant')).toEqual(['acme']);
  expect(received(request, 'x-stage')).toEqual(['prod']);
  expect(received(request, 'x-custom')).toEqual(['c1']);
  // Host is the endpoint's; the client's forwarding chain is extended with its address.
  expect(received(request, 'host')).toEqual([`127.0.0.1:${upstreamPort}`]);
  expect(received(request, 'x-forwarded-for')).toEqual(['10.0.0.9, 127.0.0.1']);
  expect(received(request, 'x-amzn-trace-id')[0]).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
});

test('multi-value sources map every value; a source the request lacks leaves its target out', async () => {
  const response = await call(['-H', 'X-In: one', '-H', 'X-In: two', `${running.url}multi?tag=a&tag=b`]);
  expect(response.status).toBe(201);
  expect(seen[0].url).toBe('/multi?tag=a&tag=b&tags=a&tags=b');
  expect(received(seen[0], 'x-many')).toEqual(['one', 'two']);
  expect(received(seen[0], 'x-missing')).toEqual([]);
  expect(received(seen[0], 'x-request-id')).toEqual([response.headers['x-amzn-requestid']]);
  expect(received(seen[0], 'x-stage-host')).toEqual([`127.0.0.1:${upstreamPort}`]);
});

test('{proxy+}: any method, the greedy path, the query and the body go through', async () => {
  const response = await call(['-X', 'POST', '-H', 'Content-Type: text/plain', '--data-binary', 'hello body', `${running.url}proxy/a/b%20c%2Fd/100%25?q=1`]);
  expect(response.status).toBe(201);
  expect(seen[0].method).toBe('POST');
  // Decoded, then encoded again segment by segment (an encoded slash becomes a separator).
  expect(seen[0].url).toBe('/a/b%20c/d/100%25?q=1');
  expect(seen[0].body).toBe('hello body');
  expect(received(seen[0], 'content-type')).toEqual(['text/plain']);
  expect(received(seen[0], 'content-length')).toEqual(['10']);
});

test('a client trace header reaches the endpoint with its Root and the gateway\'s Parent, as it reaches a function', async () => {
  const incoming = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
  const response = await call(['-H', `X-Amzn-Trace-Id: ${incoming}`, `${running.url}items/a?tenant=acme`]);
  expect(response.status).toBe(201);
  expect(received(seen[0], 'x-amzn-trace-id')).toEqual([expect.stringMatching(/^Root=1-5759e988-bd862e3fe1be46a994272793;Parent=(?!53995c3f42cd8ad8)[0-9a-f]{16};Sampled=1$/)]);
});

test('the response comes back as it is: status, headers (repeated Set-Cookie kept), body; Server and WWW-Authenticate remapped, Via dropped', async () => {
  const response = await call([`${running.url}proxy/anything`]);
  expect(response.status).toBe(201);
  expect(JSON.parse(response.body)).toEqual({ echoed: '/anything' });
  expect(response.headers['x-upstream']).toBe('yes');
  expect(response.raw).toMatch(/\r\nSet-Cookie: a=1\r\n/);
  expect(response.raw).toMatch(/\r\nSet-Cookie: b=2\r\n/);
  expect(response.headers['x-amzn-remapped-server']).toBe('upstream/1.0');
  expect(response.headers['x-amzn-remapped-www-authenticate']).toBe('Basic realm="x"');
  expect(response.headers['www-authenticate']).toBeUndefined();
  expect(response.headers.via).toBeUndefined();
  expect(response.headers['x-amzn-requestid']).toMatch(/^[0-9a-f-]{36}$/);
});

test('an upstream 5xx is passed through, not replaced by a gateway error', async () => {
  const response = await call([`${running.url}proxy/fail`]);
  expect(response.status).toBe(503);
  expect(response.body).toBe('upstream down');
  expect(response.headers['retry-after']).toBe('5');
  expect(response.headers['x-amzn-errortype']).toBeUndefined();
});

test('no complete response within TimeoutInMillis: 504 Endpoint request timed out', async () => {
  const started = Date.now();
  const response = await call([`${running.url}slow`]);
  expect(response.status).toBe(504);
  expect(response.body).toBe('{"message":"Endpoint request timed out"}');
  expect(Date.now() - started).toBeLessThan(1400);
  expect(running.lines.some((l) => l.includes(`http://127.0.0.1:${upstreamPort}/slow did not answer within the integration timeout (500 ms)`))).toBe(true);
});

test('an endpoint that refuses the connection: 500 Internal server error, the reason in the terminal', async () => {
  const response = await call([`${running.url}down`]);
  expect(response.status).toBe(500);
  expect(response.body).toBe('{"message":"Internal server error"}');
  expect(response.headers['x-amzn-errortype']).toBe('InternalServerErrorException');
  expect(running.lines.some((l) => l.includes('GET /down: HTTP_PROXY integration: ECONNREFUSED connecting to http://127.0.0.1:'))).toBe(true);
});

test('an Authorization header with a SigV4 signature is not forwarded; another one is', async () => {
  await call(['-H', 'Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=00', `${running.url}proxy/signed`]);
  await call(['-H', 'Authorization: Bearer abc', `${running.url}proxy/bearer`]);
  expect(received(seen[0], 'authorization')).toEqual([]);
  expect(received(seen[1], 'authorization')).toEqual(['Bearer abc']);
});

test('a stage variable in the URI is filled in from the stage', async () => {
  const response = await call([`${running.url}staged`]);
  expect(response.status).toBe(201);
  expect(seen[0].url).toBe('/from-stage');
});

test('a VPC link is not emulated: a start-up warning, and the method answers 500', async () => {
  const app = readLocalApp(assembly);
  expect(app.warnings).toContainEqual(expect.stringMatching(/^LocalTest\/ApiprivateGET[0-9A-F]+: HTTP_PROXY integration through a VPC link \(ConnectionType VPC_LINK\) is not emulated/));
  const response = await call([`${running.url}private`]);
  expect(response.status).toBe(500);
  expect(seen).toHaveLength(0);
});

test('the execution log records the endpoint request and response', async () => {
  const app = readLocalApp(assembly);
  const invoker = new Invoker(app.functions, { log: () => undefined });
  try {
    const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions });
    const log = new ExecutionLog();
    const response = await gateway.handle({
      method: 'GET', target: '/prod/items/42?tenant=t1', rawHeaders: [['Authorization', 'Bearer secret-token-value']], body: Buffer.alloc(0), sourceIp: '127.0.0.1',
    }, log);
    expect(response.statusCode).toBe(201);
    const text = log.lines.join('\n');
    expect(text).toContain(`Endpoint request URI: http://127.0.0.1:${upstreamPort}/things/42?tenant=t1&source=apigw`);
    expect(text).toMatch(/Endpoint request headers: \{.*Authorization=\*+alue.*X-Tenant=t1/);
    expect(text).toContain('Received response. Status: 201, Integration latency: ');
    expect(text).toContain('Endpoint response body before transformations: {"echoed":"/things/42?tenant=t1&source=apigw"}');
    expect(text).toContain('Method completed with status: 201');

    const binaryLog = new ExecutionLog();
    await gateway.handle({
      method: 'POST', target: '/prod/proxy/bin', rawHeaders: [['Content-Type', 'application/octet-stream']], body: Buffer.from([0xff, 0xfe, 0x00]), sourceIp: '127.0.0.1',
    }, binaryLog);
    expect(binaryLog.lines.join('\n')).toContain('Endpoint request body after transformations: [Binary Data] (3 bytes)');
    expect(seen[seen.length - 1].url).toBe('/bin');
  } finally {
    await invoker.close();
  }
});
