/**
 * `serve` with IAM-authorized methods: unsigned requests refused, SigV4 verified (real
 * `curl --aws-sigv4`, the AWS SDK's signer with headers and presigned URLs), replayed signatures
 * and malformed Authorization headers refused with API Gateway's 403s, guests let in with
 * --allow-unsigned, open methods stay open.
 */
import * as http from 'http';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, Running, serve, synth } from './local/support';

const KEY = 'AKIDLOCALTEST0001';
const SECRET = 'local/secret+key/for/tests';

function buildApi(stack: Stack): void {
  const fn = new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify({ identity: e.requestContext.identity, body: e.body, query: e.queryStringParameters }) });'),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  const items = api.root.addResource('items');
  items.addMethod('GET', new apigw.LambdaIntegration(fn), { authorizationType: apigw.AuthorizationType.IAM });
  items.addMethod('POST', new apigw.LambdaIntegration(fn), { authorizationType: apigw.AuthorizationType.IAM });
  items.addResource('{id}').addMethod('GET', new apigw.LambdaIntegration(fn), { authorizationType: apigw.AuthorizationType.IAM });
  api.root.addResource('docs').addResource('{proxy+}').addMethod('GET', new apigw.LambdaIntegration(fn), { authorizationType: apigw.AuthorizationType.IAM });
  api.root.addResource('open').addMethod('GET', new apigw.LambdaIntegration(fn));
}

let assembly: string;
let signed: Running;
let guest: Running;
let bare: Running;

beforeAll(async () => {
  assembly = synth(buildApi);
  signed = await serve(assembly, { credentials: { accessKeyId: KEY, secretAccessKey: SECRET } });
  guest = await serve(assembly, { allowUnsigned: true, credentials: { accessKeyId: KEY, secretAccessKey: SECRET } });
  bare = await serve(assembly);
});

afterAll(async () => {
  await Promise.all([signed?.close(), guest?.close(), bare?.close()]);
});

const sigv4 = (user: string) => ['--aws-sigv4', 'aws:amz:us-east-1:execute-api', '--user', user];

test('an unsigned request to an IAM method is 403 Missing Authentication Token', async () => {
  const response = parseCurlResponse((await curl(['-i', `${signed.url}items`])).stdout);
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"message":"Missing Authentication Token"}');
  expect(response.headers['x-amzn-errortype']).toBe('MissingAuthenticationTokenException');
});

test('curl --aws-sigv4 with the right key pair passes, and the identity carries the access key', async () => {
  const response = parseCurlResponse((await curl(['-i', ...sigv4(`${KEY}:${SECRET}`), `${signed.url}items?limit=5`])).stdout);
  expect(response.status).toBe(200);
  const body = JSON.parse(response.body);
  expect(body.identity).toMatchObject({ accessKey: KEY, caller: KEY, user: KEY, accountId: '123456789012' });
  expect(body.query).toEqual({ limit: '5' });
});

test('a signed POST with a JSON body passes', async () => {
  const response = parseCurlResponse((await curl(['-i', ...sigv4(`${KEY}:${SECRET}`), '-H', 'Content-Type: application/json', '-d', '{"name":"pen"}', `${signed.url}items`])).stdout);
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body).body).toBe('{"name":"pen"}');
});

test('a wrong secret is 403 with the gateway signature message', async () => {
  const response = parseCurlResponse((await curl(['-i', ...sigv4(`${KEY}:wrong-secret`), `${signed.url}items`])).stdout);
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"message":"The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}');
  expect(response.headers['x-amzn-errortype']).toBe('InvalidSignatureException');
  const id = response.headers['x-amzn-requestid'];
  expect(signed.lines).toContain(`${id} GATEWAY SigV4 verification failed: signature does not match: the signature calculated for this request differs from the one provided; check the secret access key and the signing method`);
});

test('an unknown access key is 403 The security token included in the request is invalid.', async () => {
  const response = parseCurlResponse((await curl(['-i', ...sigv4(`AKIDOTHER:${SECRET}`), `${signed.url}items`])).stdout);
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"message":"The security token included in the request is invalid."}');
  expect(response.headers['x-amzn-errortype']).toBe('UnrecognizedClientException');
});

test('a declared payload hash that is not the hash of the body is refused', async () => {
  const response = parseCurlResponse((await curl(['-i', ...sigv4(`${KEY}:${SECRET}`), '-H', `x-amz-content-sha256: ${'0'.repeat(64)}`, '-d', 'x', `${signed.url}items`])).stdout);
  expect(response.status).toBe(403);
});

test('methods without authorization stay open', async () => {
  const response = parseCurlResponse((await curl(['-i', `${signed.url}open`])).stdout);
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body).identity.accessKey).toBeNull();
});

test('--allow-unsigned lets an unsigned request in as a guest; signed requests are still verified', async () => {
  const response = parseCurlResponse((await curl(['-i', `${guest.url}items`])).stdout);
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body).identity).toMatchObject({ cognitoAuthenticationType: 'unauthenticated', accessKey: null });
  const wrong = parseCurlResponse((await curl(['-i', ...sigv4(`${KEY}:nope`), `${guest.url}items`])).stdout);
  expect(wrong.status).toBe(403);
});

test('without credentials a signed request cannot be verified: 403, with a hint in the terminal', async () => {
  const response = parseCurlResponse((await curl(['-i', ...sigv4(`${KEY}:${SECRET}`), `${bare.url}items`])).stdout);
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"message":"The security token included in the request is invalid."}');
  expect(bare.lines).toContain(`${response.headers['x-amzn-requestid']} GATEWAY signed request, but the server has no credentials to verify it with (start with --credentials KEY:SECRET)`);
});

const MISMATCH = '{"message":"The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}';

describe('the AWS SDK signer (@smithy/signature-v4)', () => {
  const signer = new SignatureV4({ service: 'execute-api', region: 'us-east-1', credentials: { accessKeyId: KEY, secretAccessKey: SECRET }, sha256: Hash.bind(null, 'sha256') });
  const origin = () => new URL(signed.url);

  function sdkRequest(method: string, path: string, query: Record<string, string> = {}, body?: string) {
    const url = origin();
    return { method, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: `/prod${path}`, query, headers: { host: url.host }, body };
  }

  /** The wire target of a signed request (`path` replaces it, to replay the signature elsewhere). */
  function target(request: { path: string; query?: Record<string, unknown> }): string {
    const query = Object.entries(request.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
    return query === '' ? request.path : `${request.path}?${query}`;
  }

  type Sendable = { method: string; path: string; query?: Record<string, unknown>; headers: Record<string, string>; body?: unknown };

  function send(request: Sendable, path?: string) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const url = origin();
      const options = { host: url.hostname, port: url.port, method: request.method, path: path ?? target(request), headers: request.headers };
      const req = http.request(options, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => { body += d; });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(request.body as string | undefined);
    });
  }

  test('a signed GET with a query and a signed POST with a body pass', async () => {
    const get = await send(await signer.sign(sdkRequest('GET', '/items', { limit: '1 2', q: 'a+b' })));
    expect(get.status).toBe(200);
    expect(JSON.parse(get.body)).toMatchObject({ identity: { accessKey: KEY }, query: { limit: '1 2', q: 'a+b' } });
    const post = await send(await signer.sign(sdkRequest('POST', '/items', {}, '{"name":"pen"}')));
    expect([post.status, JSON.parse(post.body).body]).toEqual([200, '{"name":"pen"}']);
  });

  test('a presigned URL passes; past its expiry it is 403 Signature expired', async () => {
    const presigned = await signer.presign(sdkRequest('GET', '/items/abc'), { expiresIn: 60 });
    expect((await send(presigned as any)).status).toBe(200);
    const old = await signer.presign(sdkRequest('GET', '/items/abc'), { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    const refused = await send(old as any);
    expect(refused.status).toBe(403);
    expect(refused.headers['x-amzn-errortype']).toBe('InvalidSignatureException');
    expect(JSON.parse(refused.body).message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 60 sec\.\)$/);
  });

  test.each([
    ['/items', {}, '/prod/items/.'],
    ['/docs/abc', {}, '/prod/docs/x/../abc'],
    ['/items', { limit: '1 2' }, '/prod/items?limit=1+2'],
  ])('a signature for %s %j replayed on %s: 403, the function not run', async (path, query, replayed) => {
    const request = await signer.sign(sdkRequest('GET', path, query));
    expect((await send(request)).status).toBe(200);
    const replay = await send(request, replayed);
    expect([replay.status, replay.body, replay.headers['x-amzn-errortype']]).toEqual([403, MISMATCH, 'InvalidSignatureException']);
  });

  test.each([
    ['AWS4-HMAC-SHA256 Credential=x', "Authorization header requires 'Signature' parameter. Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 Credential=x", 'IncompleteSignatureException'],
    ['Bearer token', "'token' not a valid key=value pair (missing equal-sign) in Authorization header: 'Bearer token'.", 'IncompleteSignatureException'],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api/aws4_request, SignedHeaders=constructor;host;__proto__;x-amz-date, Signature=${'0'.repeat(64)}`, null, 'InvalidSignatureException'],
  ])('a malformed Authorization header %s: 403 with the service wording, never 500', async (authorization, message, errorType) => {
    const url = origin();
    const response = await send({ method: 'GET', path: '/prod/items', headers: { 'host': url.host, 'x-amz-date': new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''), 'authorization': authorization } });
    expect(response.status).toBe(403);
    expect(response.headers['x-amzn-errortype']).toBe(errorType);
    if (message !== null) {
      expect(JSON.parse(response.body).message).toBe(message);
    }
    expect(signed.lines).toContainEqual(expect.stringMatching(new RegExp(`^${response.headers['x-amzn-requestid']} GATEWAY SigV4 verification failed: `)));
  });
});
