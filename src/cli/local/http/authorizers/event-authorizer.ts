/**
 * What an authorizer found, as the Lambda event carries it ("Create AWS Lambda proxy integrations
 * for HTTP APIs"): payload 2.0 `requestContext.authorizer.jwt` { claims, scopes } or
 * `requestContext.authorizer.lambda` (the Lambda authorizer's context) or
 * `requestContext.authorizer.iam` (the SigV4 caller); payload 1.0
 * `requestContext.authorizer` { claims, scopes }, or the context's keys (and `principalId` of an
 * IAM policy answer), and the SigV4 caller in `requestContext.identity`.
 */
import type { RouteAuthorization } from './authorization';

export function v2EventAuthorizer(authorization: RouteAuthorization | undefined): { authorizer?: unknown } {
  if (authorization === undefined) {
    return {};
  }
  if ('jwt' in authorization) {
    return { authorizer: { jwt: { claims: { ...authorization.jwt.claims }, scopes: authorization.jwt.scopes } } };
  }
  if ('iam' in authorization) {
    return { authorizer: { iam: { ...authorization.iam } } };
  }
  return { authorizer: { lambda: { ...authorization.lambda } } };
}

/** Payload 1.0: an `AWS_IAM` caller fills `requestContext.identity`. */
export function v1EventIdentity(authorization: RouteAuthorization | undefined): Record<string, unknown> {
  if (authorization === undefined || !('iam' in authorization)) {
    return {};
  }
  const { iam } = authorization;
  const guest = iam.cognitoIdentity !== null ? { cognitoAuthenticationType: 'unauthenticated' } : {};
  return { accessKey: iam.accessKey, accountId: iam.accountId, caller: iam.callerId, user: iam.userId, userArn: iam.userArn, ...guest };
}

export function v1EventAuthorizer(authorization: RouteAuthorization | undefined): { authorizer?: unknown } {
  if (authorization === undefined) {
    return {};
  }
  if ('jwt' in authorization) {
    return { authorizer: { claims: { ...authorization.jwt.claims }, scopes: authorization.jwt.scopes } };
  }
  if ('iam' in authorization) {
    return {};
  }
  const principal = authorization.principalId !== undefined ? { principalId: authorization.principalId } : {};
  return { authorizer: { ...authorization.lambda, ...principal } };
}
