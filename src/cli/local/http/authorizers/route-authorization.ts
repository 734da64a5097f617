/**
 * The authorization of a route before its integration runs: NONE passes; JWT checks the token
 * (jwt-authorizer.ts); CUSTOM asks the Lambda authorizer (lambda-authorizer.ts); AWS_IAM checks
 * the SigV4 signature (iam-authorizer.ts); the others are not served yet (500, with a line saying why). What an
 * authorizer found reaches the event (event-authorizer.ts).
 */
import type { AuthorizationOutcome } from './authorization';
import { authorizeIam } from './iam-authorizer';
import { authorizeJwt } from './jwt-authorizer';
import { authorizeLambda } from './lambda-authorizer';
import { refusalAnswer } from './refusals';
import type { HandlerContext } from '../../api-kind/api-kind';
import type { HttpRouteSpec } from '../../model/http-api';
import type { RoutedHttpRequest } from '../routed-request';

export async function authorizeRoute(routed: RoutedHttpRequest, context: HandlerContext): Promise<AuthorizationOutcome> {
  const { route } = routed.match;
  if (route.authorizationType === 'NONE') {
    return { allowed: true };
  }
  if (route.authorizationType === 'JWT' && route.authorizer?.type === 'JWT') {
    return authorizeJwt(routed, route.authorizer, context);
  }
  if (route.authorizationType === 'CUSTOM' && route.authorizer?.type === 'REQUEST') {
    return authorizeLambda(routed, route.authorizer, context);
  }
  if (route.authorizationType === 'AWS_IAM') {
    return authorizeIam(routed, context);
  }
  context.note(routed.requestId, `${route.routeKey}: ${notServedReason(route)}; answered 500`);
  return { allowed: false, response: refusalAnswer('internalError', routed.requestId) };
}

/** Why a route's authorization is not served (the listing and the unserved inventory say it too). */
export function notServedReason(route: HttpRouteSpec): string {
  const { authorizationType, authorizer } = route;
  return (authorizationType === 'JWT' || authorizationType === 'CUSTOM') && authorizer === undefined
    ? `the route's ${authorizationType} authorizer is not in the template or of a type not read`
    : `${authorizationType} authorizers of HTTP APIs are not emulated yet`;
}

/** Whether the route's authorization is served locally (its authorizer of the type its authorization names). */
export function isAuthorizationServed(route: HttpRouteSpec): boolean {
  const { authorizationType, authorizer } = route;
  return authorizationType === 'NONE' || authorizationType === 'AWS_IAM'
    || (authorizationType === 'JWT' && authorizer?.type === 'JWT')
    || (authorizationType === 'CUSTOM' && authorizer?.type === 'REQUEST');
}
