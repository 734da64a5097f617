/**
 * What an authorizer found, as the Lambda event carries it ("Create AWS Lambda proxy integrations
 * for HTTP APIs"): payload 2.0 `requestContext.authorizer.jwt` { claims, scopes } or
 * `requestContext.authorizer.lambda` (the Lambda authorizer's context); payload 1.0
 * `requestContext.authorizer` { claims, scopes }, or the context's keys (and `principalId` of an
 * IAM policy answer).
 */
import type { RouteAuthorization } from './authorization';

export function v2EventAuthorizer(authorization: RouteAuthorization | undefined): { authorizer?: unknown } {
  if (authorization === undefined) {
    return {};
  }
  if ('jwt' in authorization) {
    return { authorizer: { jwt: { claims: { ...authorization.jwt.claims }, scopes: authorization.jwt.scopes } } };
  }
  return { authorizer: { lambda: { ...authorization.lambda } } };
}

export function v1EventAuthorizer(authorization: RouteAuthorization | undefined): { authorizer?: unknown } {
  if (authorization === undefined) {
    return {};
  }
  if ('jwt' in authorization) {
    return { authorizer: { claims: { ...authorization.jwt.claims }, scopes: authorization.jwt.scopes } };
  }
  const principal = authorization.principalId !== undefined ? { principalId: authorization.principalId } : {};
  return { authorizer: { ...authorization.lambda, ...principal } };
}
