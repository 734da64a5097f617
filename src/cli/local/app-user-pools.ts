/**
 * The user pools the Cognito authorizers of an app trust, and the verifier `serve` and
 * `test-invoke` check their tokens with: the local signing key, plus the keys of `--jwks`.
 */
import { apiKindOf } from './api-kinds';
import { readJwksFile } from './auth/cognito/jwks-file';
import { loadOrCreateSigningKey, signingKeyFile } from './auth/cognito/signing-key';
import { TokenVerifier } from './auth/cognito/token-verifier';
import type { LocalApp } from './model/local-app';

/** A pool with the authorizers that name it. */
export interface AppPool {
  readonly poolId: string;
  readonly region: string;
  readonly clientIds: readonly string[];
  readonly authorizers: readonly string[];
}

/** Every pool of every Cognito authorizer a route of the app uses, once each (each API kind says which its routes use). */
export function appPools(app: LocalApp): AppPool[] {
  const pools = new Map<string, { poolId: string; region: string; clientIds: string[]; authorizers: string[] }>();
  for (const use of app.apis.flatMap((api) => apiKindOf(api).userPools(api).pools)) {
    const entry = pools.get(use.poolId) ?? { poolId: use.poolId, region: use.region, clientIds: [], authorizers: [] };
    entry.clientIds.push(...use.clientIds.filter((c) => !entry.clientIds.includes(c)));
    if (!entry.authorizers.includes(use.authorizer)) {
      entry.authorizers.push(use.authorizer);
    }
    pools.set(use.poolId, entry);
  }
  return [...pools.values()];
}

/** Whether a route of the app is authorized by a Cognito user pool. */
export function hasCognitoMethods(app: LocalApp): boolean {
  return app.apis.some((api) => apiKindOf(api).userPools(api).uses);
}

/**
 * The verifier for the app's Cognito methods (creating the local signing key the first time);
 * undefined when no method needs one. `--jwks` is read, and checked, either way.
 */
export async function appTokenVerifier(app: LocalApp, jwksFile: string | undefined): Promise<TokenVerifier | undefined> {
  const poolKeys = jwksFile === undefined ? [] : readJwksFile(jwksFile);
  if (!hasCognitoMethods(app)) {
    return undefined;
  }
  const local = await loadOrCreateSigningKey(signingKeyFile(app.assemblyDir));
  return new TokenVerifier([local.publicJwk, ...poolKeys]);
}
