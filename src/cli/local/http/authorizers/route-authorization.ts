/**
 * The authorization of a route before its integration runs: NONE passes; JWT checks the token
 * (jwt-authorizer.ts); the others are not served yet (500, with a line saying why). What an
 * authorizer found reaches the event (event-authorizer.ts).
 */
import type { AuthorizationOutcome } from './authorization';
import { authorizeJwt } from './jwt-authorizer';
import { refusalAnswer } from './refusals';
import type { HandlerContext } from '../../api-kind/api-kind';
import type { RoutedHttpRequest } from '../routed-request';

export async function authorizeRoute(routed: RoutedHttpRequest, context: HandlerContext): Promise<AuthorizationOutcome> {
  const { route } = routed.match;
  if (route.authorizationType === 'NONE') {
    return { allowed: true };
  }
  if (route.authorizationType === 'JWT' && route.authorizer?.type === 'JWT') {
    return authorizeJwt(routed, route.authorizer, context);
  }
  context.note(routed.requestId, `${route.routeKey}: ${notServedReason(route.authorizationType, route.authorizer !== undefined)}; answered 500`);
  return { allowed: false, response: refusalAnswer('internalError', routed.requestId) };
}

/** Why a route's authorization is not served (the listing and the unserved inventory say it too). */
export function notServedReason(authorizationType: string, hasAuthorizer: boolean): string {
  return authorizationType === 'JWT' && !hasAuthorizer
    ? 'the route\'s JWT authorizer is not in the template'
    : `${authorizationType} authorizers of HTTP APIs are not emulated yet`;
}

/** Whether the route's authorization is served locally. */
export function isAuthorizationServed(authorizationType: string, hasAuthorizer: boolean): boolean {
  return authorizationType === 'NONE' || (authorizationType === 'JWT' && hasAuthorizer);
}
