/**
 * Tokens as a user pool issues them (the claims of Cognito's ID and access tokens), signed with
 * the local signing key, for `vendor-outputs token`.
 */
import { createHash, randomUUID } from 'crypto';
import { jose } from './jose-module';
import type { SigningKey } from './signing-key';
import { poolIssuer } from './user-pool';

/** The scope of an access token from a sign-in without OAuth scopes (user pool API calls only). */
export const SIGN_IN_SCOPE = 'aws.cognito.signin.user.admin';

export interface TokenRequest {
  readonly use: 'id' | 'access';
  readonly poolId: string;
  readonly region: string;
  /** The app client (`aud` of an ID token, `client_id` of an access token). */
  readonly clientId: string;
  readonly username: string;
  readonly groups: readonly string[];
  /** Access tokens only; none: {@link SIGN_IN_SCOPE}. */
  readonly scopes: readonly string[];
  readonly expiresInSeconds: number;
  /** Claims set last, over the ones above. */
  readonly claims: Readonly<Record<string, unknown>>;
  /** Seconds since the epoch. */
  readonly now?: number;
}

export async function mintToken(key: SigningKey, request: TokenRequest): Promise<string> {
  const now = request.now ?? Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { sub: userSub(request.poolId, request.username) };
  if (request.groups.length > 0) {
    payload['cognito:groups'] = [...request.groups];
  }
  payload.iss = poolIssuer(request.region, request.poolId);
  if (request.use === 'id') {
    payload['cognito:username'] = request.username;
    payload.origin_jti = randomUUID();
    payload.aud = request.clientId;
    payload.event_id = randomUUID();
    payload.token_use = 'id';
  } else {
    payload.client_id = request.clientId;
    payload.origin_jti = randomUUID();
    payload.event_id = randomUUID();
    payload.token_use = 'access';
    payload.scope = request.scopes.length > 0 ? request.scopes.join(' ') : SIGN_IN_SCOPE;
  }
  payload.auth_time = now;
  payload.exp = now + request.expiresInSeconds;
  payload.iat = now;
  payload.jti = randomUUID();
  if (request.use === 'access') {
    payload.username = request.username;
  }
  for (const [name, value] of Object.entries(request.claims)) {
    Object.defineProperty(payload, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const privateKey = await jose().importJWK(key.privateJwk, 'RS256');
  const { SignJWT } = jose();
  return new SignJWT(payload).setProtectedHeader({ kid: key.privateJwk.kid!, alg: 'RS256' }).sign(privateKey);
}

/** The same user of the same pool gets the same `sub` in every token (a UUID, as Cognito's are). */
export function userSub(poolId: string, username: string): string {
  const hex = createHash('sha256').update(`${poolId}\u0000${username}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${(8 + (parseInt(hex[16], 16) % 4)).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
