/**
 * Verifies a user pool token as a `COGNITO_USER_POOLS` authorizer does: an RS256 signature by a
 * trusted key, not expired, issued by one of the authorizer's pools, and of the right use. Without
 * `AuthorizationScopes` on the method the gateway wants an ID token; with them, an access token
 * whose `scope` holds one of them (an ID token is refused). See
 * https://repost.aws/knowledge-center/api-gateway-cognito-401-unauthorized.
 */
import type { createLocalJWKSet, JWK, JWTPayload } from 'jose';
import { jose } from './jose-module';

/** What the method asks of a token. */
export interface TokenExpectation {
  /** `iss` of each pool the authorizer names. */
  readonly issuers: readonly string[];
  /** The method's `AuthorizationScopes`. */
  readonly scopes: readonly string[];
}

export type TokenCheck =
  | { readonly ok: true; readonly claims: JWTPayload }
  | { readonly ok: false; readonly reason: string };

export class TokenVerifier {
  private readonly keySet: ReturnType<typeof createLocalJWKSet>;

  /** `keys`: the public keys tokens may be signed with (the local key, a pool's JWKS). */
  constructor(public readonly keys: readonly JWK[]) {
    this.keySet = jose().createLocalJWKSet({ keys: [...keys] });
  }

  async verify(token: string, expected: TokenExpectation): Promise<TokenCheck> {
    if (expected.issuers.length === 0) {
      return { ok: false, reason: 'the authorizer names no user pool that is known locally' };
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jose().jwtVerify(token, this.keySet, {
        algorithms: ['RS256'],
        issuer: [...expected.issuers],
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return { ok: false, reason: whyRefused(error, token, expected) };
    }
    const use = claims.token_use;
    if (expected.scopes.length === 0) {
      return use === 'id'
        ? { ok: true, claims }
        : { ok: false, reason: `token_use is ${JSON.stringify(use)}; a method without authorization scopes takes ID tokens (token_use "id")` };
    }
    if (use !== 'access') {
      return { ok: false, reason: `token_use is ${JSON.stringify(use)}; a method with authorization scopes (${expected.scopes.join(', ')}) takes access tokens` };
    }
    const granted = typeof claims.scope === 'string' ? claims.scope.split(' ').filter((s) => s !== '') : [];
    return expected.scopes.some((s) => granted.includes(s))
      ? { ok: true, claims }
      : { ok: false, reason: `the token's scope (${granted.join(' ') || 'none'}) holds none of the method's scopes (${expected.scopes.join(', ')})` };
  }
}

function whyRefused(error: unknown, token: string, expected: TokenExpectation): string {
  const { errors } = jose();
  if (error instanceof errors.JWTExpired) {
    return `the token expired at ${new Date(Number(error.payload.exp) * 1000).toISOString()}`;
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.claim === 'iss'
      ? `issuer ${JSON.stringify(error.payload.iss)} is not a pool of the authorizer (${expected.issuers.join(', ')})`
      : `claim ${error.claim}: ${error.message}`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return `signed with key ${JSON.stringify(headerKid(token))}, which neither the local signing key nor --jwks holds`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'the signature does not verify';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return 'not signed with RS256';
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return `not a JWT (${error.message})`;
  }
  return `cannot be verified (${(error as Error).message})`;
}

function headerKid(token: string): unknown {
  try {
    return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')).kid;
  } catch {
    return undefined;
  }
}
