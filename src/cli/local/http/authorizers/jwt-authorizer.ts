/**
 * A JWT authorizer of an HTTP API ("Control access to HTTP APIs with JWT authorizers in API
 * Gateway"): the token from the identity source (alone or after `Bearer`), an RSA signature by a
 * trusted key (the local key `vendor-outputs token` signs with, the keys of `--jwks`), `iss` the
 * authorizer's issuer, `aud` (or, without `aud`, `client_id`) one of its audiences, `exp`, `nbf`
 * and `iat` in order; any failure is 401 Unauthorized. A route with `AuthorizationScopes` wants a
 * token whose `scope` or `scp` holds one of them, else 403 Forbidden.
 */
import type { createLocalJWKSet, JWTPayload } from 'jose';
import type { AuthorizationOutcome } from './authorization';
import { identityValues } from './identity-source';
import { httpApiClaims, tokenScopes } from './jwt-claims';
import { refusalAnswer } from './refusals';
import type { HandlerContext } from '../../api-kind/api-kind';
import { jose } from '../../auth/cognito/jose-module';
import type { TokenVerifier } from '../../auth/cognito/token-verifier';
import type { HttpJwtAuthorizerSpec } from '../../model/http-authorizer';
import type { RoutedHttpRequest } from '../routed-request';

/** "Currently, only RSA-based algorithms are supported." */
const RSA_ALGORITHMS = ['RS256', 'RS384', 'RS512'];

const BEARER = /^bearer\s+/i;

export async function authorizeJwt(
  routed: RoutedHttpRequest, authorizer: HttpJwtAuthorizerSpec, context: HandlerContext,
): Promise<AuthorizationOutcome> {
  const refuse = (refusal: 'unauthorized' | 'forbidden', why: string): AuthorizationOutcome => {
    context.note(routed.requestId, `JWT authorizer ${authorizer.name}: ${refusal === 'unauthorized' ? 401 : 403}, ${why}`);
    return { allowed: false, response: refusalAnswer(refusal, routed.requestId) };
  };
  const identity = identityValues(routed, authorizer.identitySource.slice(0, 1));
  if ('missing' in identity) {
    return refuse('unauthorized', `${identity.missing} is missing or empty`);
  }
  const check = await verifyToken(identity.values[0].trim().replace(BEARER, ''), authorizer, context.tokenVerifier);
  if (!check.ok) {
    return refuse('unauthorized', check.reason);
  }
  const routeScopes = routed.match.route.authorizationScopes ?? [];
  const granted = tokenScopes(check.claims);
  if (routeScopes.length > 0 && !routeScopes.some((s) => granted.includes(s))) {
    return refuse('forbidden', `the token's scopes (${granted.join(' ') || 'none'}) hold none of the route's (${routeScopes.join(', ')})`);
  }
  return { allowed: true, authorization: { jwt: { claims: httpApiClaims(check.claims), scopes: routeScopes.length > 0 ? granted : null } } };
}

type Check = { readonly ok: true; readonly claims: JWTPayload } | { readonly ok: false; readonly reason: string };

async function verifyToken(token: string, authorizer: HttpJwtAuthorizerSpec, verifier: TokenVerifier | undefined): Promise<Check> {
  if (authorizer.issuer === undefined) {
    return { ok: false, reason: 'the authorizer\'s issuer is not known before deploy' };
  }
  if (verifier === undefined) {
    return { ok: false, reason: 'the server trusts no signing key' };
  }
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jose().jwtVerify(token, keySetOf(verifier), { algorithms: RSA_ALGORITHMS, issuer: authorizer.issuer }));
  } catch (error) {
    return { ok: false, reason: whyRefused(error, authorizer.issuer) };
  }
  const audience = claims.aud !== undefined ? claims.aud : claims.client_id;
  const audiences = (Array.isArray(audience) ? audience : [audience]).filter((a): a is string => typeof a === 'string');
  if (!audiences.some((a) => authorizer.audiences.includes(a))) {
    return { ok: false, reason: `${claims.aud !== undefined ? 'aud' : 'client_id'} (${audiences.join(', ') || 'none'}) is none of the authorizer's audiences (${authorizer.audiences.join(', ') || 'none'})` };
  }
  if (typeof claims.iat === 'number' && claims.iat > Math.floor(Date.now() / 1000)) {
    return { ok: false, reason: `the token was issued in the future (iat ${claims.iat})` };
  }
  return { ok: true, claims };
}

/** The key set of a verifier's keys, made once per verifier (a reload brings a new verifier). */
const keySets = new WeakMap<TokenVerifier, ReturnType<typeof createLocalJWKSet>>();

function keySetOf(verifier: TokenVerifier): ReturnType<typeof createLocalJWKSet> {
  let keySet = keySets.get(verifier);
  if (keySet === undefined) {
    keySet = jose().createLocalJWKSet({ keys: [...verifier.keys] });
    keySets.set(verifier, keySet);
  }
  return keySet;
}

function whyRefused(error: unknown, issuer: string): string {
  const { errors } = jose();
  if (error instanceof errors.JWTExpired) {
    return 'the token expired';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.claim === 'iss' ? `iss ${JSON.stringify(error.payload.iss)} is not the authorizer's issuer (${issuer})` : `claim ${error.claim}: ${error.message}`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return 'its kid names no key of the local signing key or --jwks';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'the signature does not verify';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return 'not signed with an RSA algorithm (RS256, RS384, RS512)';
  }
  return `not a valid JWT (${(error as Error).message})`;
}
