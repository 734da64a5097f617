import * as fs from 'fs';
import { CliError, Command, parseOptions, UsageError } from './command';
import { AppPool, appPools } from './local/app-user-pools';
import { isPlainObject } from '../outputs/cdk-free/json-data';
import { mintToken } from './local/auth/cognito/mint-token';
import { loadOrCreateSigningKey, signingKeyFile } from './local/auth/cognito/signing-key';
import { poolIdRegion } from './local/auth/cognito/user-pool';
import { readLocalApp } from './local/read-local-app';

export const TOKEN_HELP = [
  'Usage: vendor-outputs token [--username NAME] [--groups G1,G2] [--scopes S1,S2] [--claims JSON]',
  '                            [--expires-in 1h] [--access] [--app DIR] [--pool ID]',
  '',
  "Prints a user pool token that the local API's Cognito authorizers accept: an ID token, or an access",
  "token with --access, with the claims Cognito puts in them, signed with the app's local signing key",
  '(.vendor-outputs/local-signing-key.json beside the cloud assembly; made on first use). The pool is the',
  "one the app's COGNITO_USER_POOLS authorizers name; a pool the app creates has the local id",
  '<region>_<logical id>. Methods without authorization scopes take ID tokens; methods with scopes take',
  'access tokens holding one of them.',
  '',
  'Options:',
  '  --username NAME   cognito:username (ID token) / username (access token) (default: local-user)',
  '  --groups G1,G2    cognito:groups',
  '  --scopes S1,S2    The access token\'s scope (needs --access; default: aws.cognito.signin.user.admin)',
  '  --claims JSON     More claims, set last, e.g. \'{"email":"ana@example.com","custom:tenant":"acme"}\'',
  '  --expires-in D    Lifetime: 45s, 30m, 1h (default), 1d, or seconds; at most 1d, as a user pool allows',
  '  --access          An access token instead of an ID token',
  '  --app DIR         Cloud assembly directory (default: cdk.out)',
  '  --pool ID         The user pool (e.g. us-east-1_AbC123) when the app has several, or has none synthesized',
  '',
  'Example:',
  '  curl -H "Authorization: $(vendor-outputs token --groups admins)" http://127.0.0.1:3000/prod/items',
].join('\n');

/** A user pool's longest ID and access token validity. */
const MAX_LIFETIME_SECONDS = 24 * 3600;
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `45s`, `30m`, `1h`, `1d` or plain seconds. */
export function parseLifetime(text: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[m[2] || 's'] : NaN;
  if (!(seconds >= 1 && seconds <= MAX_LIFETIME_SECONDS)) {
    throw new UsageError(`--expires-in must be a lifetime from 1s to 1d, such as 30m, 1h or 3600 (seconds) (got '${text}')`);
  }
  return seconds;
}

/** `a,b`: the names, each non-empty. */
export function parseList(option: string, text: string): string[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === '' || /\s/.test(s))) {
    throw new UsageError(`${option} must be names separated by commas, without spaces or empty names (got '${text}')`);
  }
  return items;
}

/** `--claims`: a JSON object. */
export function parseClaims(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--claims is not JSON (${(error as Error).message}); give an object, e.g. '{"email":"ana@example.com"}'`);
  }
  if (!isPlainObject(value)) {
    throw new UsageError(`--claims must be a JSON object of claim names and values, e.g. '{"email":"ana@example.com"}' (got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)})`);
  }
  return value;
}

/** The pool to sign for: `--pool`, else the app's only pool. */
function choosePool(appDir: string, poolOption: string | undefined): { poolId: string; region: string; clientId?: string } {
  const pools: AppPool[] = fs.existsSync(appDir) ? appPools(readLocalApp(appDir)) : [];
  if (poolOption !== undefined) {
    const region = poolIdRegion(poolOption);
    if (region === undefined) {
      throw new UsageError(`--pool must be a user pool id, <region>_<letters and digits> such as us-east-1_AbC123 (got '${poolOption}')`);
    }
    return { poolId: poolOption, region, clientId: pools.find((p) => p.poolId === poolOption)?.clientIds[0] };
  }
  if (pools.length === 1) {
    return { ...pools[0], clientId: pools[0].clientIds[0] };
  }
  if (pools.length === 0) {
    throw new CliError(fs.existsSync(appDir)
      ? `no method of the app in ${appDir} has a Cognito user pool authorizer with a pool known before deploy; pass --pool ID`
      : `no cloud assembly at ${appDir} (run cdk synth, or pass --app DIR); or name the pool with --pool ID`);
  }
  throw new UsageError(`the app's Cognito authorizers trust ${pools.length} user pools; pick one with --pool: ${pools.map((p) => `${p.poolId} (${p.authorizers.join(', ')})`).join(', ')}`);
}

export const command: Command = {
  name: 'token',
  help: TOKEN_HELP,
  async run(args) {
    const { values } = parseOptions(args, {
      'username': { type: 'string' },
      'groups': { type: 'string' },
      'scopes': { type: 'string' },
      'claims': { type: 'string' },
      'expires-in': { type: 'string' },
      'access': { type: 'boolean' },
      'app': { type: 'string' },
      'pool': { type: 'string' },
    });
    const username = values.username ?? 'local-user';
    if (username.trim() === '') {
      throw new UsageError('--username must not be empty');
    }
    const access = values.access === true;
    if (values.scopes !== undefined && !access) {
      throw new UsageError('--scopes is for access tokens (ID tokens carry no scope); add --access');
    }
    const groups = values.groups === undefined ? [] : parseList('--groups', values.groups);
    const scopes = values.scopes === undefined ? [] : parseList('--scopes', values.scopes);
    const claims = values.claims === undefined ? {} : parseClaims(values.claims);
    const lifetime = values['expires-in'] === undefined ? 3600 : parseLifetime(values['expires-in']);
    const appDir = values.app ?? 'cdk.out';
    const pool = choosePool(appDir, values.pool);
    const key = await loadOrCreateSigningKey(signingKeyFile(appDir));
    const token = await mintToken(key, {
      use: access ? 'access' : 'id',
      poolId: pool.poolId,
      region: pool.region,
      clientId: pool.clientId ?? 'localclient',
      username,
      groups,
      scopes,
      expiresInSeconds: lifetime,
      claims,
    });
    process.stdout.write(`${token}\n`);
    process.stderr.write(`vendor-outputs token: ${access ? 'access' : 'ID'} token of ${username} for user pool ${pool.poolId}, valid ${lifetime} s, signed with ${key.file}\n`);
    return 0;
  },
};
