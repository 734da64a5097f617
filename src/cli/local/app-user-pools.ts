/**
 * The user pools the Cognito authorizers of an app trust, and the verifier `serve` and
 * `test-invoke` check their tokens with: the local signing key, plus the keys of `--jwks`.
 */
import { readJwksFile } from './auth/cognito/jwks-file';
import { loadOrCreateSigningKey, signingKeyFile } from './auth/cognito/signing-key';
import { TokenVerifier } from './auth/cognito/token-verifier';
import type { LocalApp } from './model/local-app';
import { listMethods } from './rest/router';

/** A pool with the authorizers that name it. */
export interface AppPool {
  readonly poolId: string;
  readonly region: string;
  readonly clientIds: readonly string[];
  readonly authorizers: readonly string[];
}

/** Every pool of every Cognito authorizer a method of the app uses, once each. */
export function appPools(app: LocalApp): AppPool[] {
  const pools = new Map<string, { poolId: string; region: string; clientIds: string[]; authorizers: string[] }>();
  for (const api of app.apis) {
    for (const { method } of listMethods(api.root)) {
      const authorizer = method.cognitoAuthorizer;
      for (const pool of authorizer?.pools ?? []) {
        const entry = pools.get(pool.poolId) ?? { poolId: pool.poolId, region: pool.region, clientIds: [], authorizers: [] };
        entry.clientIds.push(...pool.clientIds.filter((c) => !entry.clientIds.includes(c)));
        if (!entry.authorizers.includes(authorizer!.name)) {
          entry.authorizers.push(authorizer!.name);
        }
        pools.set(pool.poolId, entry);
      }
    }
  }
  return [...pools.values()];
}

/** Whether a method of the app is authorized by a Cognito authorizer. */
export function hasCognitoMethods(app: LocalApp): boolean {
  return app.apis.some((api) => listMethods(api.root).some(({ method }) => method.authorizationType === 'COGNITO_USER_POOLS'));
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
