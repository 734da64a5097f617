/**
 * `vendor-outputs token`, run as a real CLI process: the claims of Cognito's ID and access tokens,
 * signed with the app's local signing key, for the pool of the app's Cognito authorizer; and each
 * usage error.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { readKeyFile, signingKeyFile } from '../../src/cli/local/auth/cognito/signing-key';
import { runCli } from '../support/cli';

/** Synthesizes an API whose Cognito authorizer trusts `poolCount` pools into `<new dir>/cdk.out`. */
function synthApp(poolCount: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-token-'));
  const app = new App({ outdir: path.join(root, 'cdk.out') });
  const stack = new Stack(app, 'TokenTest', { env: { region: 'eu-west-1', account: '111122223333' } });
  const pools = Array.from({ length: poolCount }, (_, i) => new cognito.UserPool(stack, `Pool${i}`));
  pools[0].addClient('Web');
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  api.root.addMethod('GET', new apigw.MockIntegration(), {
    authorizer: new apigw.CognitoUserPoolsAuthorizer(stack, 'Auth', { cognitoUserPools: pools, authorizerName: 'Users' }),
  });
  app.synth();
  return path.join(root, 'cdk.out');
}

let assembly: string;

beforeAll(() => {
  assembly = synthApp(1);
});

function payloadOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

async function verified(token: string): Promise<Record<string, any>> {
  const key = readKeyFile(signingKeyFile(assembly));
  const { payload } = await jwtVerify(token, await importJWK(key.publicJwk, 'RS256'), { algorithms: ['RS256'] });
  return payload;
}

test('prints an ID token of the app\'s only pool with the claims Cognito puts in one, signed with the local key', async () => {
  const run = await runCli(['token', '--app', assembly]);
  expect(run.code).toBe(0);
  const token = run.stdout.trim();
  expect(run.stdout).toBe(`${token}\n`);
  const claims = await verified(token);
  expect(Object.keys(claims)).toEqual(['sub', 'iss', 'cognito:username', 'origin_jti', 'aud', 'event_id', 'token_use', 'auth_time', 'exp', 'iat', 'jti']);
  expect(claims).toEqual(expect.objectContaining({
    'sub': expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    'iss': expect.stringMatching(/^https:\/\/cognito-idp\.eu-west-1\.amazonaws\.com\/eu-west-1_Pool0[0-9A-F]{8}$/),
    'cognito:username': 'local-user',
    'aud': expect.stringMatching(/^Pool0Web/),
    'token_use': 'id',
  }));
  expect(claims.exp - claims.iat).toBe(3600);
  expect(claims.auth_time).toBe(claims.iat);
  expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', kid: readKeyFile(signingKeyFile(assembly)).privateJwk.kid });
  expect(run.stderr).toMatch(/^vendor-outputs token: ID token of local-user for user pool eu-west-1_Pool0\w+, valid 3600 s, signed with \S+\.vendor-outputs\/local-signing-key\.json\n$/);
});

test('--access with --username, --groups, --scopes, --claims and --expires-in', async () => {
  const run = await runCli(['token', '--app', assembly, '--access', '--username', 'bo', '--groups', 'admins,ops', '--scopes', 'items/read,openid',
    '--claims', '{"custom:tenant":"acme","username":"override"}', '--expires-in', '30m']);
  expect(run.code).toBe(0);
  const claims = await verified(run.stdout.trim());
  expect(Object.keys(claims)).toEqual(['sub', 'cognito:groups', 'iss', 'client_id', 'origin_jti', 'event_id', 'token_use', 'scope', 'auth_time', 'exp', 'iat', 'jti', 'username', 'custom:tenant']);
  expect(claims).toEqual(expect.objectContaining({
    'cognito:groups': ['admins', 'ops'],
    'client_id': expect.stringMatching(/^Pool0Web/),
    'token_use': 'access',
    'scope': 'items/read openid',
    'username': 'override',
    'custom:tenant': 'acme',
  }));
  expect(claims.exp - claims.iat).toBe(1800);
  const plain = payloadOf((await runCli(['token', '--app', assembly, '--access', '--username', 'bo'])).stdout.trim());
  expect(plain.scope).toBe('aws.cognito.signin.user.admin');
  // The same user of the same pool keeps its sub.
  expect(plain.sub).toBe(claims.sub);
});

test('--pool names the pool without an assembly; several pools need it', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-token-none-'));
  const offline = await runCli(['token', '--app', path.join(empty, 'cdk.out'), '--pool', 'ap-south-1_Abc123']);
  expect(offline.code).toBe(0);
  expect(payloadOf(offline.stdout.trim())).toEqual(expect.objectContaining({ iss: 'https://cognito-idp.ap-south-1.amazonaws.com/ap-south-1_Abc123', aud: 'localclient' }));
  expect(fs.existsSync(path.join(empty, '.vendor-outputs', 'local-signing-key.json'))).toBe(true);
  const missing = await runCli(['token', '--app', path.join(empty, 'cdk.out')]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe(`vendor-outputs token: no cloud assembly at ${path.join(empty, 'cdk.out')} (run cdk synth, or pass --app DIR); or name the pool with --pool ID\n`);
  const two = synthApp(2);
  const ambiguous = await runCli(['token', '--app', two]);
  expect(ambiguous.code).toBe(2);
  expect(ambiguous.stderr).toMatch(/^vendor-outputs token: the app's Cognito authorizers trust 2 user pools; pick one with --pool: eu-west-1_Pool0\w+ \(Users\), eu-west-1_Pool1\w+ \(Users\)\n/);
});

test.each([
  [['--expires-in', '2x'], "--expires-in must be a lifetime from 1s to 1d, such as 30m, 1h or 3600 (seconds) (got '2x')"],
  [['--expires-in', '0'], "--expires-in must be a lifetime from 1s to 1d, such as 30m, 1h or 3600 (seconds) (got '0')"],
  [['--expires-in', '25h'], "--expires-in must be a lifetime from 1s to 1d, such as 30m, 1h or 3600 (seconds) (got '25h')"],
  [['--claims', '{"email":'], /^--claims is not JSON \(.+\); give an object, e\.g\. '\{"email":"ana@example\.com"\}'$/],
  [['--claims', '["a"]'], '--claims must be a JSON object of claim names and values, e.g. \'{"email":"ana@example.com"}\' (got an array)'],
  [['--claims', '"text"'], '--claims must be a JSON object of claim names and values, e.g. \'{"email":"ana@example.com"}\' (got "text")'],
  [['--scopes', 'items/read'], '--scopes is for access tokens (ID tokens carry no scope); add --access'],
  [['--groups', 'a,,b'], "--groups must be names separated by commas, without spaces or empty names (got 'a,,b')"],
  [['--pool', 'not-a-pool'], "--pool must be a user pool id, <region>_<letters and digits> such as us-east-1_AbC123 (got 'not-a-pool')"],
  [['--username', ''], '--username must not be empty'],
  [['--bogus'], /^Unknown option '--bogus'/],
])('usage error %j exits 2 with a clear message', async (args, message) => {
  const run = await runCli(['token', '--app', assembly, ...args]);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const [first, hint] = run.stderr.split('\n');
  expect(first.replace(/^vendor-outputs token: /, '')).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  expect(hint).toBe("Run 'vendor-outputs token --help' for usage.");
});

test('--help shows the options and an example', async () => {
  const run = await runCli(['token', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Usage: vendor-outputs token [--username NAME]');
  expect(run.stdout).toMatch(/Example:\n {2}curl -H "Authorization: \$\(vendor-outputs token --groups admins\)"/);
});
