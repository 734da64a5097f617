/**
 * JWT authorizers of HTTP APIs built by aws-cdk-lib's HttpUserPoolAuthorizer (a UserPool of the
 * app: tokens from `vendor-outputs token`) and HttpJwtAuthorizer (any issuer: keys from `--jwks`),
 * through the real server and curl: 401 `{"message":"Unauthorized"}` for a missing or invalid token,
 * 403 `{"message":"Forbidden"}` for missing scopes, and `requestContext.authorizer.jwt` (payload
 * 2.0) or `requestContext.authorizer` (payload 1.0) in the event.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer, HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { exportJWK, generateKeyPair, JWTPayload, KeyLike, SignJWT } from 'jose';
import { APIGW_ID, curl, inlineFunction, parseCurlResponse, Running, serve, startCli } from './local/support';
import { appPools, appTokenVerifier } from '../../src/cli/local/app-user-pools';
import { mintToken, TokenRequest } from '../../src/cli/local/auth/cognito/mint-token';
import { loadOrCreateSigningKey, signingKeyFile } from '../../src/cli/local/auth/cognito/signing-key';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { runCli } from '../support/cli';

const ISSUER = 'https://issuer.example.com';
const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify(event.requestContext) });';

let root: string;
let assembly: string;
let jwksFile: string;
let issuerKey: KeyLike;
let running: Running;

function buildApp(stack: Stack): void {
  const echo = inlineFunction(stack, 'Echo', ECHO);
  const pool = new cognito.UserPool(stack, 'Pool');
  const client = pool.addClient('Web');
  const api = new apigwv2.HttpApi(stack, 'Api');
  const poolAuthorizer = new HttpUserPoolAuthorizer('PoolAuth', pool, { userPoolClients: [client] });
  const jwtAuthorizer = new HttpJwtAuthorizer('IssuerAuth', ISSUER, { jwtAudience: ['api://items'] });
  const v2 = new HttpLambdaIntegration('V2', echo);
  api.addRoutes({ path: '/profile', methods: [apigwv2.HttpMethod.GET], integration: v2, authorizer: poolAuthorizer });
  api.addRoutes({ path: '/items', methods: [apigwv2.HttpMethod.GET], integration: v2, authorizer: poolAuthorizer, authorizationScopes: ['items/read', 'items/all'] });
  api.addRoutes({ path: '/partner', methods: [apigwv2.HttpMethod.GET], integration: v2, authorizer: jwtAuthorizer });
  api.addRoutes({
    path: '/v1',
    methods: [apigwv2.HttpMethod.GET],
    integration: new HttpLambdaIntegration('V1', echo, { payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_1_0 }),
    authorizer: poolAuthorizer,
  });
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-http-jwt-'));
  assembly = path.join(root, 'cdk.out');
  const cdkApp = new App({ outdir: assembly });
  buildApp(new Stack(cdkApp, 'HttpJwt'));
  cdkApp.synth();
  const pair = await generateKeyPair('RS256', { extractable: true });
  issuerKey = pair.privateKey;
  jwksFile = path.join(root, 'jwks.json');
  fs.writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'issuer-kid-1', alg: 'RS256', use: 'sig' }] }));
  const app = readLocalApp(assembly);
  running = await serve(assembly, { quiet: true, tokenVerifier: await appTokenVerifier(app, jwksFile) });
});

afterAll(async () => {
  await running?.close();
});

const pool = () => appPools(readLocalApp(assembly))[0];

/** A token signed with the local key, as `vendor-outputs token` makes it. */
async function localToken(overrides: Partial<TokenRequest> = {}): Promise<string> {
  const key = await loadOrCreateSigningKey(signingKeyFile(assembly));
  const { poolId, region, clientIds } = pool();
  return mintToken(key, { use: 'id', poolId, region, clientId: clientIds[0], username: 'ana', groups: ['admins', 'users'], scopes: [], expiresInSeconds: 3600, claims: {}, ...overrides });
}

async function issuerToken(claims: JWTPayload, kid = 'issuer-kid-1', key = issuerKey, alg = 'RS256'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'partner-1', iss: ISSUER, aud: 'api://items', iat: now, exp: now + 600, ...claims }).setProtectedHeader({ alg, kid }).sign(key);
}

async function call(target: string, token?: string): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  const args = token === undefined ? [] : ['-H', `Authorization: ${token}`];
  return parseCurlResponse((await curl(['-i', ...args, `${running.url.replace(/\/$/, '')}${target}`])).stdout);
}

const UNAUTHORIZED = { status: 401, body: '{"message":"Unauthorized"}' };
const FORBIDDEN = { status: 403, body: '{"message":"Forbidden"}' };

test('the pool authorizer is read from the template: the local pool id as issuer, the app client as audience', () => {
  expect(pool()).toEqual({ poolId: 'us-east-1_PoolD3F588B8', region: 'us-east-1', clientIds: [expect.stringMatching(/^PoolWeb/)], authorizers: ['PoolAuth'] });
  const route = (readLocalApp(assembly).apis[0] as any).routes.find((r: any) => r.routeKey === 'GET /items');
  expect(route.authorizationScopes).toEqual(['items/read', 'items/all']);
  expect(route.authorizer).toMatchObject({ type: 'JWT', name: 'PoolAuth', identitySource: ['$request.header.Authorization'], issuer: `https://cognito-idp.us-east-1.amazonaws.com/${pool().poolId}` });
});

describe('a user pool of the app (HttpUserPoolAuthorizer)', () => {
  test('a token of `vendor-outputs token`, with or without Bearer, passes; its claims reach requestContext.authorizer.jwt as strings', async () => {
    const token = await localToken();
    for (const value of [token, `Bearer ${token}`]) {
      const answer = await call('/profile', value);
      expect(answer.status).toBe(200);
      const context = JSON.parse(answer.body);
      expect(context.authorizer.jwt.scopes).toBeNull();
      expect(context.authorizer.jwt.claims).toEqual(expect.objectContaining({
        'cognito:username': 'ana', 'cognito:groups': '[admins users]', 'token_use': 'id', 'aud': pool().clientIds[0], 'exp': expect.stringMatching(/^\d+$/),
      }));
    }
  });

  test('payload 1.0 carries the claims and scopes in requestContext.authorizer', async () => {
    const answer = await call('/v1', await localToken());
    expect(answer.status).toBe(200);
    const context = JSON.parse(answer.body);
    expect(context.authorizer.claims['cognito:username']).toBe('ana');
    expect(context.authorizer.scopes).toBeNull();
  });

  test('no token, an empty one, or one that is not a JWT: 401 Unauthorized', async () => {
    expect(await call('/profile')).toMatchObject(UNAUTHORIZED);
    expect(await call('/profile', 'Bearer ')).toMatchObject(UNAUTHORIZED);
    const answer = await call('/profile', 'not-a-jwt');
    expect(answer).toMatchObject(UNAUTHORIZED);
    expect(answer.headers['apigw-requestid']).toMatch(APIGW_ID);
    expect(running.lines.some((l) => l.includes('JWT authorizer PoolAuth: 401, $request.header.Authorization is missing or empty'))).toBe(true);
  });

  test('an expired token, another audience, another pool, a key nobody trusts: 401', async () => {
    expect(await call('/profile', await localToken({ expiresInSeconds: -10 }))).toMatchObject(UNAUTHORIZED);
    expect(await call('/profile', await localToken({ clientId: 'someone-else' }))).toMatchObject(UNAUTHORIZED);
    expect(await call('/profile', await localToken({ poolId: 'us-east-1_Other' }))).toMatchObject(UNAUTHORIZED);
    const stranger = await generateKeyPair('RS256');
    expect(await call('/profile', await issuerToken({ iss: pool() && `https://cognito-idp.us-east-1.amazonaws.com/${pool().poolId}` }, 'stranger', stranger.privateKey))).toMatchObject(UNAUTHORIZED);
    const lines = running.lines.join('\n');
    expect(lines).toContain('the token expired');
    expect(lines).toContain('aud (someone-else) is none of the authorizer\'s audiences');
    expect(lines).toContain('is not the authorizer\'s issuer');
    expect(lines).toContain('its kid names no key of the local signing key or --jwks');
  });

  test('an access token (client_id, no aud) with one of the route\'s scopes passes; its scopes reach the event', async () => {
    const answer = await call('/items', await localToken({ use: 'access', scopes: ['items/read', 'other'] }));
    expect(answer.status).toBe(200);
    const jwt = JSON.parse(answer.body).authorizer.jwt;
    expect(jwt.scopes).toEqual(['items/read', 'other']);
    expect(jwt.claims.client_id).toBe(pool().clientIds[0]);
  });

  test('a valid token without the route\'s scopes: 403 Forbidden', async () => {
    expect(await call('/items', await localToken({ use: 'access', scopes: ['other'] }))).toMatchObject(FORBIDDEN);
    expect(await call('/items', await localToken())).toMatchObject(FORBIDDEN);
    expect(running.lines.some((l) => l.includes("JWT authorizer PoolAuth: 403, the token's scopes (other) hold none of the route's (items/read, items/all)"))).toBe(true);
  });
});

describe('another issuer (HttpJwtAuthorizer) with keys from --jwks', () => {
  test('a token of the issuer for the audience passes; scp as a list is read as scopes', async () => {
    const answer = await call('/partner', `Bearer ${await issuerToken({ scp: ['a', 'b'], n: 5 })}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).authorizer.jwt.claims).toEqual(expect.objectContaining({ sub: 'partner-1', iss: ISSUER, scp: '[a b]', n: '5' }));
  });

  test('a token not yet valid, issued in the future, or signed with HS256: 401', async () => {
    const later = Math.floor(Date.now() / 1000) + 600;
    expect(await call('/partner', await issuerToken({ nbf: later }))).toMatchObject(UNAUTHORIZED);
    expect(await call('/partner', await issuerToken({ iat: later, exp: later + 600 }))).toMatchObject(UNAUTHORIZED);
    expect(await call('/partner', await issuerToken({}, 'issuer-kid-1', new TextEncoder().encode('a shared secret of 32 bytes long!') as any, 'HS256'))).toMatchObject(UNAUTHORIZED);
    const lines = running.lines.join('\n');
    expect(lines).toContain('the token was issued in the future');
    expect(lines).toContain('claim nbf:');
    expect(lines).toContain('not signed with an RSA algorithm (RS256, RS384, RS512)');
  });

  test('a token whose kid names a trusted key but whose signature is another key\'s: 401', async () => {
    const impostor = await generateKeyPair('RS256');
    expect(await call('/partner', await issuerToken({}, 'issuer-kid-1', impostor.privateKey))).toMatchObject(UNAUTHORIZED);
    expect(running.lines.join('\n')).toContain('JWT authorizer IssuerAuth: 401, the signature does not verify');
  });

  test('a token of the local key for the partner issuer is refused (the key is not the issuer\'s, but the issuer is checked)', async () => {
    expect(await call('/partner', await localToken())).toMatchObject(UNAUTHORIZED);
  });
});

test('the listing names each route\'s authorizer, and no JWT route is listed as not served', () => {
  const lines = running.server.routeTable();
  expect(lines.some((l) => /GET\s+\S+\/items\s+-> HttpJwt\/Echo \(payload 2\.0\)\s+\[JWT PoolAuth \(pool us-east-1_PoolD3F588B8, scopes items\/read items\/all\)\]$/.test(l.trim()))).toBe(true);
  expect(lines.some((l) => /GET\s+\S+\/partner\s+-> HttpJwt\/Echo \(payload 2\.0\)\s+\[JWT IssuerAuth \(issuer https:\/\/issuer\.example\.com\)\]$/.test(l.trim()))).toBe(true);
  expect(readLocalApp(assembly).unserved).toEqual([]);
});

test('end to end: `serve --jwks` with curl and a token from `vendor-outputs token`', async () => {
  const minted = await runCli(['token', '--app', assembly, '--access', '--scopes', 'items/all']);
  expect(minted.code).toBe(0);
  const server = startCli(['serve', '--app', assembly, '--port', '0', '--jwks', jwksFile]);
  try {
    const out = await server.waitFor('Press Ctrl+C');
    const base = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out)![1];
    const ok = parseCurlResponse((await curl(['-i', '-H', `Authorization: Bearer ${minted.stdout.trim()}`, `${base}/items`])).stdout);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).authorizer.jwt.scopes).toEqual(['items/all']);
    const partner = parseCurlResponse((await curl(['-i', '-H', `Authorization: ${await issuerToken({})}`, `${base}/partner`])).stdout);
    expect(partner.status).toBe(200);
    expect(parseCurlResponse((await curl(['-i', `${base}/items`])).stdout)).toMatchObject(UNAUTHORIZED);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
