/**
 * `serve` with IAM-authorized methods: unsigned requests refused, SigV4 verified (real
 * `curl --aws-sigv4`), guests let in with --allow-unsigned, open methods stay open.
 */
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
