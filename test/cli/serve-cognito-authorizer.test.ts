/**
 * Cognito user pool authorizers built by aws-cdk-lib's CognitoUserPoolsAuthorizer on a real
 * UserPool: tokens minted by the real `vendor-outputs token` command and, for each way a token
 * can be wrong, by jose; each refusal is API Gateway's 401 `{"message":"Unauthorized"}`. Claims
 * reach `requestContext.authorizer.claims` as the gateway gives them (strings). `--jwks` makes
 * tokens of a real pool verify. `test-invoke --authorize` logs the authorization steps.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { exportJWK, generateKeyPair, JWTPayload, KeyLike, SignJWT } from 'jose';
import { curl, parseCurlResponse, startCli } from './local/support';
import { appTokenVerifier } from '../../src/cli/local/app-user-pools';
import { mintToken, TokenRequest } from '../../src/cli/local/auth/cognito/mint-token';
import { loadOrCreateSigningKey, signingKeyFile } from '../../src/cli/local/auth/cognito/signing-key';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { LocalApp } from '../../src/cli/local/model/local-app';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';
import { runCli } from '../support/cli';

const REAL_POOL = 'us-east-1_Real0001';
const REAL_ISSUER = `https://cognito-idp.us-east-1.amazonaws.com/${REAL_POOL}`;

function buildApp(stack: Stack): void {
  const echo = new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify({ authorizer: e.requestContext.authorizer }) });'),
  });
  const pool = new cognito.UserPool(stack, 'Pool');
  pool.addClient('Web');
  const poolAuthorizer = new apigw.CognitoUserPoolsAuthorizer(stack, 'PoolAuth', { cognitoUserPools: [pool], authorizerName: 'PoolAuthorizer' });
  const realAuthorizer = new apigw.CognitoUserPoolsAuthorizer(stack, 'RealAuth', {
    cognitoUserPools: [cognito.UserPool.fromUserPoolArn(stack, 'Real', `arn:aws:cognito-idp:us-east-1:111122223333:userpool/${REAL_POOL}`)],
    authorizerName: 'RealAuthorizer',
    identitySource: apigw.IdentitySource.header('X-Id-Token'),
  });
  const tokenAuthorizer = new apigw.TokenAuthorizer(stack, 'LambdaAuth', {
    authorizerName: 'LambdaAuthorizer',
    handler: new lambda.Function(stack, 'AuthFn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline(`exports.handler = async (e) => ({ principalId: 'p-' + e.authorizationToken,
        policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: e.methodArn }] } });`),
    }),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  const to = new apigw.LambdaIntegration(echo);
  api.root.addResource('profile').addMethod('GET', to, { authorizer: poolAuthorizer });
  api.root.addResource('items').addMethod('GET', to, { authorizer: poolAuthorizer, authorizationScopes: ['items/read', 'items/write'] });
  api.root.addResource('real').addMethod('GET', to, { authorizer: realAuthorizer });
  api.root.addResource('lambda').addMethod('GET', to, { authorizer: tokenAuthorizer });
  api.root.addResource('mapped').addMethod('GET', new apigw.MockIntegration({
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{"email":"$context.authorizer.claims.email","groups":"$context.authorizer.claims[\'cognito:groups\']"}' } }],
  }), { authorizer: poolAuthorizer, methodResponses: [{ statusCode: '200' }] });
}

let root: string;
let assembly: string;
let jwksFile: string;
let realKey: KeyLike;
let app: LocalApp;
let invoker: Invoker;
let gateway: LocalGateway;
const notes: string[] = [];

beforeAll(async () => {
  // The assembly in <root>/cdk.out: the local signing key goes to <root>/.vendor-outputs.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-cognito-'));
  assembly = path.join(root, 'cdk.out');
  const cdkApp = new App({ outdir: assembly });
  buildApp(new Stack(cdkApp, 'CognitoTest'));
  cdkApp.synth();
  // A "real pool" key pair: its public key is the JWKS a user saves from the pool.
  const pair = await generateKeyPair('RS256', { extractable: true });
  realKey = pair.privateKey;
  jwksFile = path.join(root, 'jwks.json');
  fs.writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'real-kid-1', alg: 'RS256', use: 'sig' }] }));
  app = readLocalApp(assembly);
  invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
  gateway = new LocalGateway({
    api: restApi(app.apis[0]),
    invoker,
    functions: app.functions,
    tokenVerifier: await appTokenVerifier(app, jwksFile),
    note: (_id, text) => notes.push(text),
  });
});

afterAll(async () => {
  await invoker?.close();
});

const profileAuthorizer = () => restApi(app.apis[0]).root.literalChildren.get('profile')!.methods.get('GET')!.cognitoAuthorizer!;
const poolId = () => profileAuthorizer().pools[0].poolId;

async function send(pathBelowStage: string, headers: Record<string, string> = {}, log?: ExecutionLog) {
  const response = await gateway.handle({
    method: 'GET', target: `/prod/${pathBelowStage}`, rawHeaders: Object.entries(headers), body: Buffer.alloc(0), sourceIp: '127.0.0.1',
  }, log);
  return { status: response.statusCode, body: String(response.body), headers: Object.fromEntries(response.headers) };
}

/** A token signed with the local key, as `vendor-outputs token` makes it, changed by `overrides`. */
async function localToken(overrides: Partial<TokenRequest> = {}): Promise<string> {
  const key = await loadOrCreateSigningKey(signingKeyFile(assembly));
  return mintToken(key, {
    use: 'id', poolId: poolId(), region: 'us-east-1', clientId: profileAuthorizer().pools[0].clientIds[0], username: 'ana', groups: [], scopes: [], expiresInSeconds: 3600, claims: {}, ...overrides,
  });
}

async function realPoolToken(claims: JWTPayload, kid = 'real-kid-1', key = realKey): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'real-sub', iss: REAL_ISSUER, token_use: 'id', iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid }).sign(key);
}

const UNAUTHORIZED = { status: 401, body: '{"message":"Unauthorized"}' };

test('the authorizers are read from the template: pools from ProviderARNs, header, TTL and the method scopes', () => {
  const profile = restApi(app.apis[0]).root.literalChildren.get('profile')!.methods.get('GET')!;
  expect(profile.authorizationType).toBe('COGNITO_USER_POOLS');
  expect(profile.cognitoAuthorizer).toEqual({
    logicalId: expect.stringMatching(/^PoolAuth/),
    name: 'PoolAuthorizer',
    identityHeader: 'Authorization',
    pools: [{ poolId: expect.stringMatching(/^us-east-1_Pool[0-9A-F]{8}$/), region: 'us-east-1', issuer: expect.stringMatching(/^https:\/\/cognito-idp\.us-east-1\.amazonaws\.com\/us-east-1_Pool/), clientIds: [expect.stringMatching(/^PoolWeb/)] }],
    ttlSeconds: 300,
  });
  expect(profile.authorizationScopes).toEqual([]);
  expect(restApi(app.apis[0]).root.literalChildren.get('items')!.methods.get('GET')!.authorizationScopes).toEqual(['items/read', 'items/write']);
  const real = restApi(app.apis[0]).root.literalChildren.get('real')!.methods.get('GET')!.cognitoAuthorizer!;
  expect(real.identityHeader).toBe('X-Id-Token');
  expect(real.pools).toEqual([{ poolId: REAL_POOL, region: 'us-east-1', issuer: REAL_ISSUER, clientIds: [] }]);
});

test('a valid ID token passes; its claims reach requestContext.authorizer.claims as strings, as the gateway gives them', async () => {
  const token = await localToken({ groups: ['admins', 'editors'], claims: { 'email': 'ana@example.com', 'email_verified': true, 'custom:tier': 3 } });
  const response = await send('profile', { Authorization: token });
  expect(response.status).toBe(200);
  const claims = JSON.parse(response.body).authorizer.claims;
  expect(claims).toEqual(expect.objectContaining({
    'cognito:username': 'ana',
    'cognito:groups': 'admins,editors',
    'token_use': 'id',
    'aud': expect.stringMatching(/^PoolWeb/),
    'iss': `https://cognito-idp.us-east-1.amazonaws.com/${poolId()}`,
    'email': 'ana@example.com',
    'email_verified': 'true',
    'custom:tier': '3',
    'auth_time': expect.stringMatching(/^\d{10}$/),
    'exp': expect.stringMatching(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}$/),
    'iat': expect.stringMatching(/ UTC \d{4}$/),
  }));
  expect(Object.values(claims).every((v) => typeof v === 'string')).toBe(true);
});

test('mapping templates read the claims as $context.authorizer.claims', async () => {
  const response = await send('mapped', { Authorization: await localToken({ groups: ['a', 'b'], claims: { email: 'ana@example.com' } }) });
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body)).toEqual({ email: 'ana@example.com', groups: 'a,b' });
});

test('the token is taken alone or after "Bearer "', async () => {
  const token = await localToken();
  expect((await send('profile', { Authorization: `Bearer ${token}` })).status).toBe(200);
  expect((await send('profile', { authorization: `bearer ${token}` })).status).toBe(200);
});

test.each([
  ['no Authorization header', async () => ({}), /the Authorization header is missing or empty/],
  ['not-a-jwt', async () => ({ Authorization: 'not-a-jwt' }), /not a JWT/],
  ['an expired token', async () => ({ Authorization: await localToken({ now: Math.floor(Date.now() / 1000) - 7200, expiresInSeconds: 3600 }) }), /the token expired at /],
  ['a token of another pool (wrong issuer)', async () => ({ Authorization: await localToken({ poolId: 'us-east-1_Other1' }) }), /issuer "https:\/\/cognito-idp\.us-east-1\.amazonaws\.com\/us-east-1_Other1" is not a pool of the authorizer/],
  ['a token signed by an unknown key', async () => ({ Authorization: await realPoolToken({ iss: 'x' }, 'stranger-kid') }), /signed with key "stranger-kid", which neither the local signing key nor --jwks holds/],
  ['a token whose signature does not verify', async () => {
    const [head, , sig] = (await localToken()).split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from((await localToken()).split('.')[1], 'base64url').toString()), 'cognito:username': 'root' })).toString('base64url');
    return { Authorization: `${head}.${forged}.${sig}` };
  }, /the signature does not verify/],
  ['an access token where the method has no scopes', async () => ({ Authorization: await localToken({ use: 'access' }) }), /token_use is "access"; a method without authorization scopes takes ID tokens/],
])('%s is 401 Unauthorized', async (_name, headers, why) => {
  notes.length = 0;
  const response = await send('profile', await headers());
  expect(response).toEqual(expect.objectContaining(UNAUTHORIZED));
  expect(response.headers['x-amzn-ErrorType']).toBe('UnauthorizedException');
  expect(notes).toEqual([expect.stringMatching(new RegExp(`^Cognito authorizer PoolAuthorizer: 401, ${why.source}`))]);
});

test('a method with scopes takes an access token holding one of them; an ID token or another scope is 401', async () => {
  const granted = await send('items', { Authorization: await localToken({ use: 'access', scopes: ['openid', 'items/write'] }) });
  expect(granted.status).toBe(200);
  expect(JSON.parse(granted.body).authorizer.claims).toEqual(expect.objectContaining({ token_use: 'access', scope: 'openid items/write', username: 'ana' }));
  notes.length = 0;
  expect(await send('items', { Authorization: await localToken() })).toEqual(expect.objectContaining(UNAUTHORIZED));
  expect(await send('items', { Authorization: await localToken({ use: 'access', scopes: ['items/delete'] }) })).toEqual(expect.objectContaining(UNAUTHORIZED));
  expect(await send('items', { Authorization: await localToken({ use: 'access' }) })).toEqual(expect.objectContaining(UNAUTHORIZED));
  expect(notes).toEqual([
    expect.stringMatching(/401, token_use is "id"; a method with authorization scopes \(items\/read, items\/write\) takes access tokens$/),
    'Cognito authorizer PoolAuthorizer: 401, the token\'s scope (items/delete) holds none of the method\'s scopes (items/read, items/write)',
    'Cognito authorizer PoolAuthorizer: 401, the token\'s scope (aws.cognito.signin.user.admin) holds none of the method\'s scopes (items/read, items/write)',
  ]);
});

test('with --jwks, tokens of the real pool verify in its identity source header; the local key is trusted there too', async () => {
  const real = await send('real', { 'X-Id-Token': await realPoolToken({ 'cognito:groups': ['ops'] }) });
  expect(real.status).toBe(200);
  expect(JSON.parse(real.body).authorizer.claims).toEqual(expect.objectContaining({ 'sub': 'real-sub', 'cognito:groups': 'ops' }));
  // The header the authorizer names is the only one read.
  expect(await send('real', { Authorization: await realPoolToken({}) })).toEqual(expect.objectContaining(UNAUTHORIZED));
  expect((await send('real', { 'X-Id-Token': await localToken({ poolId: REAL_POOL }) })).status).toBe(200);
});

test('the execution log records the Cognito authorization steps, the token masked', async () => {
  const token = await localToken();
  const log = new ExecutionLog();
  expect((await send('profile', { Authorization: token }, log)).status).toBe(200);
  const lines = log.lines.map((l) => l.replace(/^.* UTC \d{4} : /, ''));
  expect(lines).toEqual(expect.arrayContaining([
    expect.stringMatching(/^Starting authorizer: PoolAuth\w+ for request: [0-9a-f-]{36}$/),
    `Incoming identity: ${'*'.repeat(token.length - 4)}${token.slice(-4)}`,
    expect.stringMatching(/^Verified user pool token: token_use id, issuer https:\/\/cognito-idp\.us-east-1\.amazonaws\.com\/us-east-1_Pool\w+, sub [0-9a-f-]{36}$/),
    'Successfully completed authorizer execution',
  ]));
  expect(lines.join('\n')).not.toContain(token);
  const refusedLog = new ExecutionLog();
  await send('profile', { Authorization: 'not-a-jwt' }, refusedLog);
  expect(refusedLog.lines.some((l) => /: Unauthorized request: [0-9a-f-]{36}$/.test(l))).toBe(true);
});

test('a --jwks file that is not a JWK set of public RSA keys is refused with what is wrong', async () => {
  const write = (name: string, text: string) => {
    const file = path.join(root, name);
    fs.writeFileSync(file, text);
    return file;
  };
  await expect(appTokenVerifier(app, path.join(root, 'missing.json'))).rejects.toThrow(/^--jwks \S+missing\.json: cannot read the file \(ENOENT\)$/);
  await expect(appTokenVerifier(app, write('a.json', '{'))).rejects.toThrow(/^--jwks \S+a\.json: not JSON \(/);
  await expect(appTokenVerifier(app, write('b.json', '[]'))).rejects.toThrow(/: must be a JWK set, \{"keys": \[\.\.\.\]\}/);
  await expect(appTokenVerifier(app, write('c.json', '{"keys":[{"kty":"EC","kid":"x"}]}'))).rejects.toThrow(/: \/keys\/0 is not an RSA public key with kid, n and e/);
  await expect(appTokenVerifier(app, write('d.json', '{"keys":[{"kty":"RSA","kid":"x","n":"AQAB","e":"AQAB","d":"AQAB"}]}'))).rejects.toThrow(/: \/keys\/0 holds a private key; give the public keys only$/);
});

test('serve --jwks with a modulus that is not base64url: exit 2, naming the file and the key\'s pointer', async () => {
  const file = path.join(root, 'bad-modulus.json');
  fs.writeFileSync(file, JSON.stringify({ keys: [{ kty: 'RSA', kid: 'k', n: '!!! not base64 !!!', e: 'AQAB' }] }));
  const run = await runCli(['serve', '--app', assembly, '--port', '0', '--jwks', file]);
  expect(run.code).toBe(2);
  // The runtime warning of the app's Node.js 22 function may come first; the error is the last thing said.
  expect(run.stderr.endsWith(`vendor-outputs serve: --jwks ${file}: /keys/0/n is not base64url (got "!!! not base64 !!!"): `
    + "JWK members are base64url without padding, letters, digits, - and _ only (RFC 7515 2)\nRun 'vendor-outputs serve --help' for usage.\n")).toBe(true);
});

test('the local signing key is created once, owner-only, and ignored by git', async () => {
  const file = signingKeyFile(assembly);
  expect(file).toBe(path.join(root, '.vendor-outputs', 'local-signing-key.json'));
  expect((fs.statSync(file).mode % 0o1000).toString(8)).toBe('600');
  expect(fs.readFileSync(path.join(root, '.vendor-outputs', '.gitignore'), 'utf8')).toBe('*\n');
  const [a, b] = await Promise.all([loadOrCreateSigningKey(file), loadOrCreateSigningKey(file)]);
  expect(a.privateJwk.kid).toBe(b.privateJwk.kid);
  expect(a.publicJwk.d).toBeUndefined();
});

test('test-invoke --authorize runs the authorizer on the given headers and logs its steps; without it the TEST skips authorization', async () => {
  const token = (await runCli(['token', '--app', assembly, '--pool', poolId(), '--username', 'bo'])).stdout.trim();
  const invoke = (...args: string[]) => runCli(['test-invoke', '--app', assembly, '--method', 'GET', '--json', ...args]);
  const skipped = JSON.parse((await invoke('--path', '/profile')).stdout);
  expect(skipped.status).toBe(200);
  expect(skipped.log).not.toContain('Starting authorizer');
  const refused = JSON.parse((await invoke('--path', '/profile', '--authorize')).stdout);
  expect(refused.status).toBe(401);
  expect(refused.body).toBe('{"message":"Unauthorized"}');
  const allowed = JSON.parse((await invoke('--path', '/profile', '--authorize', '--header', `Authorization:${token}`)).stdout);
  expect(allowed.status).toBe(200);
  expect(JSON.parse(allowed.body).authorizer.claims['cognito:username']).toBe('bo');
  expect(allowed.log).toMatch(/: Starting authorizer: PoolAuth\w+ for request: /);
  expect(allowed.log).toContain('Successfully completed authorizer execution');
  expect(allowed.log).not.toContain(token);
  const viaLambda = JSON.parse((await invoke('--path', '/lambda', '--authorize', '--header', 'Authorization:tok-1')).stdout);
  expect(viaLambda.status).toBe(200);
  expect(viaLambda.log).toContain('Using valid authorizer policy for principal: p-tok-1');
  expect(viaLambda.log).toMatch(/methodArn":"arn:aws:execute-api:us-east-1:123456789012:Api\w+\/test-invoke-stage\/GET\/lambda"/);
  const usage = await invoke('--path', '/profile', '--jwks', jwksFile);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toBe("vendor-outputs test-invoke: --jwks only matters with --authorize (the TEST does not check authorization otherwise)\nRun 'vendor-outputs test-invoke --help' for usage.\n");
});

test('end to end: `serve --jwks` with curl and a token from `vendor-outputs token`', async () => {
  const minted = await runCli(['token', '--app', assembly, '--pool', poolId(), '--access', '--scopes', 'items/read', '--groups', 'admins']);
  expect(minted.code).toBe(0);
  const token = minted.stdout.trim();
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const server = startCli(['serve', '--app', assembly, '--port', '0', '--jwks', jwksFile]);
  try {
    const out = await server.waitFor('Press Ctrl+C');
    expect(out).toContain(`Cognito-authorized methods (and HTTP API routes whose JWT issuer is a user pool of the app) accept tokens from 'vendor-outputs token' (local signing key ${signingKeyFile(assembly)}) and tokens signed by the keys of ${jwksFile}`);
    const base = /at (http:\/\/127\.0\.0\.1:\d+\/prod\/)/.exec(out)![1];
    const ok = parseCurlResponse((await curl(['-i', '-H', `Authorization: Bearer ${token}`, `${base}items`])).stdout);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).authorizer.claims).toEqual(expect.objectContaining({ 'cognito:groups': 'admins', 'scope': 'items/read', 'token_use': 'access' }));
    const refused = parseCurlResponse((await curl(['-i', '-H', 'Authorization: not-a-jwt', `${base}items`])).stdout);
    expect(refused.status).toBe(401);
    expect(refused.body).toBe('{"message":"Unauthorized"}');
    expect(refused.headers['x-amzn-errortype']).toBe('UnauthorizedException');
    const real = parseCurlResponse((await curl(['-i', '-H', `X-Id-Token: ${await realPoolToken({})}`, `${base}real`])).stdout);
    expect(real.status).toBe(200);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
