/**
 * The `$connect` route's authorization (WebSocket APIs authorize the handshake only): a Lambda
 * `REQUEST` authorizer (identity sources `route.request.header.X` and `route.request.querystring.X`,
 * an IAM policy answer evaluated against the `$connect` route ARN, its context reaching every event
 * of the connection as `requestContext.authorizer`), or `AWS_IAM` (a SigV4 signature for
 * `execute-api` on the handshake, checked by the verifier of REST and HTTP APIs). Refusals are the
 * handshake's status: 401 (an identity source missing, or unsigned), 403 (denied, bad signature),
 * 500 (the authorizer failed or is not in the template).
 */
import type { Handshake } from './websocket-events';
import { queryParameters } from './websocket-events';
import type { HandlerContext } from '../api-kind/api-kind';
import { isSigned, signedRequestOf } from '../auth/sigv4';
import { requestId as newInvocationId } from '../common/ids';
import { readAuthorizerResponse } from '../http/authorizers/lambda-authorizer-response';
import { describeFailure } from '../lambda/invoke-outcome';
import type { HttpLambdaAuthorizerSpec } from '../model/http-authorizer';
import type { WebSocketApiSpec, WebSocketRouteSpec } from '../model/websocket-api';

const ACCOUNT = '123456789012';

export type ConnectAuthorization =
  | { readonly allowed: true; readonly authorizer?: Record<string, unknown>; readonly iamIdentity?: Record<string, string> }
  | { readonly allowed: false; readonly statusCode: 401 | 403 | 500; readonly why: string };

export interface ConnectRequest extends Handshake {
  readonly api: WebSocketApiSpec;
  readonly stage: string;
  readonly target: string;
  /** The `$connect` event as the integration gets it (the authorizer gets its `requestContext`). */
  readonly event: Record<string, unknown>;
}

export async function authorizeConnect(
  route: WebSocketRouteSpec, request: ConnectRequest, context: HandlerContext,
): Promise<ConnectAuthorization> {
  switch (route.authorizationType) {
    case 'NONE':
      return { allowed: true };
    case 'AWS_IAM':
      return authorizeIam(request, context);
    case 'CUSTOM':
      return route.authorizer?.functionKey === undefined
        ? { allowed: false, statusCode: 500, why: 'the $connect authorizer is not in the template' }
        : authorizeLambda(route.authorizer, request, context);
    default:
      return { allowed: false, statusCode: 500, why: `authorization type ${route.authorizationType} is not served for WebSocket APIs` };
  }
}

async function authorizeLambda(
  authorizer: HttpLambdaAuthorizerSpec, request: ConnectRequest, context: HandlerContext,
): Promise<ConnectAuthorization> {
  const missing = authorizer.identitySource.filter((source) => identityValue(source, request) === undefined);
  if (missing.length > 0) {
    return { allowed: false, statusCode: 401, why: `authorizer ${authorizer.name}: no value for ${missing.join(', ')}` };
  }
  const methodArn = `arn:aws:execute-api:${request.api.region}:${ACCOUNT}:${request.api.apiId}/${request.stage}/$connect`;
  const event = {
    type: 'REQUEST',
    methodArn,
    headers: request.event.headers,
    multiValueHeaders: request.event.multiValueHeaders,
    queryStringParameters: request.event.queryStringParameters ?? {},
    multiValueQueryStringParameters: request.event.multiValueQueryStringParameters ?? {},
    stageVariables: request.api.stageVariables[request.stage] ?? {},
    requestContext: request.event.requestContext,
  };
  const outcome = await context.invoker.invoke(authorizer.functionKey!, event, { awsRequestId: newInvocationId() });
  if (outcome.kind !== 'ok') {
    return { allowed: false, statusCode: 500, why: `authorizer ${authorizer.name}: ${describeFailure(outcome)}` };
  }
  const decision = readAuthorizerResponse(outcome.payload, authorizer, methodArn);
  switch (decision.decision) {
    case 'allow':
      return { allowed: true, authorizer: authorizerContext(decision.context, decision.principalId) };
    case 'deny':
      return { allowed: false, statusCode: 403, why: `authorizer ${authorizer.name}: ${decision.why}` };
    default:
      return { allowed: false, statusCode: 500, why: `authorizer ${authorizer.name}: ${decision.reason}` };
  }
}

/** `requestContext.authorizer` of the connection's events: the context, the principal, the authorizer's latency. */
function authorizerContext(context: Record<string, unknown>, principalId: string | undefined): Record<string, unknown> {
  return { ...context, ...(principalId === undefined ? {} : { principalId }), integrationLatency: 0 };
}

/** The value of `route.request.header.X` (any case) or `route.request.querystring.X`; undefined when absent or empty. */
function identityValue(source: string, request: ConnectRequest): string | undefined {
  const header = /^route\.request\.header\.(.+)$/i.exec(source)?.[1];
  if (header !== undefined) {
    const found = request.rawHeaders.find(([name]) => name.toLowerCase() === header.toLowerCase())?.[1];
    return found === undefined || found === '' ? undefined : found;
  }
  const query = /^route\.request\.querystring\.(.+)$/i.exec(source)?.[1];
  if (query !== undefined) {
    const found = queryParameters(request.rawQuery).single?.[query];
    return found === undefined || found === '' ? undefined : found;
  }
  // Stage variables and context variables: as the template has them, a value is always there.
  return source;
}

async function authorizeIam(request: ConnectRequest, context: HandlerContext): Promise<ConnectAuthorization> {
  const signedRequest = signedRequestOf({ method: 'GET', target: request.target, rawHeaders: request.rawHeaders, body: Buffer.alloc(0) });
  if (!isSigned(signedRequest)) {
    return context.allowUnsigned ? { allowed: true } : { allowed: false, statusCode: 403, why: '$connect requires IAM authorization and the handshake is not signed (start with --allow-unsigned to let guests in)' };
  }
  if (context.verifier === undefined) {
    return { allowed: false, statusCode: 403, why: 'signed handshake, but the server has no credentials to verify it with (start with --credentials KEY:SECRET)' };
  }
  const result = await context.verifier.verify(signedRequest);
  if (!result.ok) {
    return { allowed: false, statusCode: 403, why: `SigV4 verification failed: ${result.reason}` };
  }
  const key = context.verifier.accessKeyId;
  return { allowed: true, iamIdentity: { accessKey: key, accountId: ACCOUNT, caller: key, user: key, userArn: `arn:aws:iam::${ACCOUNT}:user/local` } };
}
