/**
 * What an authorizer found, as the Lambda event carries it ("Create AWS Lambda proxy integrations
 * for HTTP APIs"): payload 2.0 `requestContext.authorizer.jwt` { claims, scopes }; payload 1.0
 * `requestContext.authorizer` { claims, scopes }.
 */
import type { RouteAuthorization } from './authorization';

export function v2EventAuthorizer(authorization: RouteAuthorization | undefined): { authorizer?: unknown } {
  return authorization === undefined ? {} : { authorizer: { jwt: { claims: { ...authorization.jwt.claims }, scopes: authorization.jwt.scopes } } };
}

export function v1EventAuthorizer(authorization: RouteAuthorization | undefined): { authorizer?: unknown } {
  return authorization === undefined ? {} : { authorizer: { claims: { ...authorization.jwt.claims }, scopes: authorization.jwt.scopes } };
}
