/**
 * `AWS_IAM` routes of HTTP APIs built by aws-cdk-lib's HttpIamAuthorizer, through the real server:
 * requests signed by curl (`--aws-sigv4`) and by the AWS SDK's signer (@smithy/signature-v4, a
 * header and a presigned URL) pass, and the caller reaches `requestContext.authorizer.iam` (2.0)
 * or `requestContext.identity` (1.0); every refusal is 403.
 */
import * as http from 'http';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { curl, inlineFunction, parseCurlResponse, Running, serve, synth } from './local/support';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const KEY = 'AKIDLOCALTEST0001';
const SECRET = 'local/secret+key/for/tests';
const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify(event.requestContext) });';
const MISMATCH = '{"message":"The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}';

let assembly: string;
let signed: Running;
let guest: Running;
let bare: Running;

beforeAll(async () => {
  assembly = synth((stack: Stack) => {
    const echo = inlineFunction(stack, 'Echo', ECHO);
    const api = new apigwv2.HttpApi(stack, 'Api');
    const authorizer = new HttpIamAuthorizer();
    api.addRoutes({ path: '/items', methods: [apigwv2.HttpMethod.GET, apigwv2.HttpMethod.POST], integration: new HttpLambdaIntegration('V2', echo), authorizer });
    api.addRoutes({
      path: '/v1', methods: [apigwv2.HttpMethod.GET], integration: new HttpLambdaIntegration('V1', echo, { payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_1_0 }), authorizer,
    });
  }, { stackName: 'HttpIam' });
  const credentials = { accessKeyId: KEY, secretAccessKey: SECRET };
  signed = await serve(assembly, { quiet: true, credentials });
  guest = await serve(assembly, { quiet: true, credentials, allowUnsigned: true });
  bare = await serve(assembly, { quiet: true });
});

afterAll(async () => {
  await signed?.close();
  await guest?.close();
  await bare?.close();
});

const sigv4 = (user: string) => ['--aws-sigv4', 'aws:amz:us-east-1:execute-api', '--user', user];

async function call(running: Running, target: string, args: string[] = []) {
  return parseCurlResponse((await curl(['-i', ...args, `${running.url.replace(/\/$/, '')}${target}`])).stdout);
}

test('curl --aws-sigv4 with the server\'s key pair passes; the caller reaches requestContext.authorizer.iam', async () => {
  const answer = await call(signed, '/items', sigv4(`${KEY}:${SECRET}`));
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).authorizer).toEqual({
    iam: { accessKey: KEY, accountId: '123456789012', callerId: KEY, cognitoIdentity: null, principalOrgId: null, userArn: 'arn:aws:iam::123456789012:user/local', userId: KEY },
  });
});

test('payload 1.0: the caller fills requestContext.identity', async () => {
  const answer = await call(signed, '/v1', sigv4(`${KEY}:${SECRET}`));
  expect(answer.status).toBe(200);
  const context = JSON.parse(answer.body);
  expect(context.identity).toMatchObject({ accessKey: KEY, accountId: '123456789012', caller: KEY, user: KEY, userArn: 'arn:aws:iam::123456789012:user/local' });
  expect(context).not.toHaveProperty('authorizer');
});

test('an unsigned request is 403 Forbidden, with a hint in the terminal', async () => {
  const answer = await call(signed, '/items');
  expect(answer).toMatchObject({ status: 403, body: '{"message":"Forbidden"}' });
  expect(signed.lines).toContain(`${answer.headers['apigw-requestid']} GATEWAY GET /items requires IAM authorization and the request is not signed (start with --allow-unsigned to let guests in); answered 403`);
});

test('a wrong secret or an unknown key is 403 with the service\'s message', async () => {
  expect(await call(signed, '/items', sigv4(`${KEY}:wrong`))).toMatchObject({ status: 403, body: MISMATCH });
  expect(await call(signed, '/items', sigv4(`AKIDSOMEONEELSE:${SECRET}`))).toMatchObject({ status: 403, body: '{"message":"The security token included in the request is invalid."}' });
});

test('without credentials a signed request cannot be verified: 403', async () => {
  expect(await call(bare, '/items', sigv4(`${KEY}:${SECRET}`))).toMatchObject({ status: 403, body: '{"message":"The security token included in the request is invalid."}' });
});

test('--allow-unsigned lets an unsigned request in as a guest; a bad signature is still refused', async () => {
  const answer = await call(guest, '/items');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).authorizer.iam).toMatchObject({ accessKey: null, cognitoIdentity: { amr: ['unauthenticated'] } });
  expect((await call(guest, '/items', sigv4(`${KEY}:wrong`))).status).toBe(403);
});

describe('the AWS SDK signer (@smithy/signature-v4)', () => {
  const signer = new SignatureV4({ service: 'execute-api', region: 'us-east-1', credentials: { accessKeyId: KEY, secretAccessKey: SECRET }, sha256: Hash.bind(null, 'sha256') });

  function sdkRequest(method: string, path: string, body?: string) {
    const url = new URL(signed.url);
    return { method, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path, query: {}, headers: { host: url.host }, body };
  }

  function send(request: { method: string; path: string; query?: Record<string, unknown>; headers: Record<string, string>; body?: unknown }) {
    const url = new URL(signed.url);
    const query = Object.entries(request.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method: request.method, path: query === '' ? request.path : `${request.path}?${query}`, headers: request.headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => { body += d; });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end(request.body as string | undefined);
    });
  }

  test('a signed POST with a body passes; the same signature on another body is refused', async () => {
    const request = await signer.sign(sdkRequest('POST', '/items', '{"a":1}'));
    expect((await send(request)).status).toBe(200);
    expect(await send({ ...request, body: '{"a":2}' })).toEqual({ status: 403, body: MISMATCH });
  });

  test('a presigned URL passes', async () => {
    const presigned = await signer.presign(sdkRequest('GET', '/items'), { expiresIn: 60 });
    const answer = await send(presigned);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).authorizer.iam.accessKey).toBe(KEY);
  });
});

test('the listing names AWS_IAM; the routes are served', () => {
  expect(signed.server.routeTable().some((l) => /GET\s+\S+\/items\s+-> HttpIam\/Echo \(payload 2\.0\)\s+\[AWS_IAM\]$/.test(l.trim()))).toBe(true);
  expect(readLocalApp(assembly).unserved).toEqual([]);
});
