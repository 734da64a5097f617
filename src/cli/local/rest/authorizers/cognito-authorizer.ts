/**
 * `COGNITO_USER_POOLS` authorization: the token in the authorizer's header must be a valid token
 * of one of its user pools (see cognito/token-verifier.ts); otherwise 401 `Unauthorized`, as the
 * gateway answers every such refusal. The token's claims reach `requestContext.authorizer.claims`.
 */
import { gatewayClaims } from '../../auth/cognito/gateway-claims';
import type { CognitoAuthorizerSpec } from '../../model/rest-api';
import { mask } from '../pipeline/execution-log';
import { GatewayError, UNAUTHORIZED } from '../pipeline/gateway-errors';
import type { RoutedRequest } from '../pipeline/request';

/** The gateway takes the token alone or after the `Bearer` scheme, as clients send it. */
const BEARER = /^bearer\s+/i;

export async function authorizeCognito(routed: RoutedRequest, authorizer: CognitoAuthorizerSpec): Promise<GatewayError | undefined> {
  const { settings, ids, log } = routed;
  log?.add(`Starting authorizer: ${authorizer.logicalId} for request: ${ids.requestId}`);
  const identity = routed.headers.get(authorizer.identityHeader)?.trim();
  if (!identity) {
    return refuse(routed, authorizer, `the ${authorizer.identityHeader} header is missing or empty`);
  }
  log?.add(`Incoming identity: ${mask(identity)}`);
  if (settings.tokenVerifier === undefined) {
    return refuse(routed, authorizer, 'the server trusts no signing key');
  }
  const check = await settings.tokenVerifier.verify(identity.replace(BEARER, ''), {
    issuers: authorizer.pools.map((pool) => pool.issuer),
    scopes: routed.route.method.authorizationScopes,
  });
  if (!check.ok) {
    return refuse(routed, authorizer, check.reason);
  }
  const claims = gatewayClaims(check.claims);
  log?.add(`Verified user pool token: token_use ${claims.token_use}, issuer ${claims.iss}, sub ${claims.sub ?? '(none)'}`);
  log?.add('Successfully completed authorizer execution');
  routed.authorizer = { claims };
  return undefined;
}

function refuse(routed: RoutedRequest, authorizer: CognitoAuthorizerSpec, why: string): GatewayError {
  routed.log?.add(`Unauthorized request: ${routed.ids.requestId}`);
  routed.settings.note?.(routed.ids.requestId, `Cognito authorizer ${authorizer.name}: 401, ${why}`);
  return UNAUTHORIZED;
}
