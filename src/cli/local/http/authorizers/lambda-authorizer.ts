/**
 * A Lambda (`REQUEST`) authorizer of an HTTP API: every identity source must have a value (else
 * 401 Unauthorized without calling the function), the function runs in the same workers as
 * integrations, and its answer decides: allowed, the context reaches the event; `isAuthorized`
 * false or a policy that does not allow the route, 403 Forbidden; the function fails or answers
 * something unreadable, 500 Internal Server Error. Answers are cached per identity source values
 * for the authorizer's TTL.
 */
import type { AuthorizationOutcome } from './authorization';
import { AuthorizerAnswerCache } from './authorizer-answer-cache';
import { identityValues } from './identity-source';
import { lambdaAuthorizerEvent } from './lambda-authorizer-event';
import { readAuthorizerResponse } from './lambda-authorizer-response';
import { Refusal, refusalAnswer } from './refusals';
import { routeArnOf } from './route-arn';
import type { HandlerContext } from '../../api-kind/api-kind';
import { requestId as newInvocationId } from '../../common/ids';
import type { HttpLambdaAuthorizerSpec } from '../../model/http-authorizer';
import type { RoutedHttpRequest } from '../routed-request';

/** One cache per served API (a reload brings a new context, and an empty cache). */
const caches = new WeakMap<HandlerContext, AuthorizerAnswerCache>();

export async function authorizeLambda(
  routed: RoutedHttpRequest, authorizer: HttpLambdaAuthorizerSpec, context: HandlerContext,
): Promise<AuthorizationOutcome> {
  const refuse = (refusal: Refusal, why: string): AuthorizationOutcome => {
    context.note(routed.requestId, `Lambda authorizer ${authorizer.name}: ${refusalAnswer(refusal, routed.requestId).statusCode}, ${why}`);
    return { allowed: false, response: refusalAnswer(refusal, routed.requestId) };
  };
  const identity = identityValues(routed, authorizer.identitySource);
  if ('missing' in identity) {
    return refuse('unauthorized', `${identity.missing} is missing or empty`);
  }
  const answer = await answerOf(routed, authorizer, context, identity.values);
  if ('failure' in answer) {
    return refuse('internalError', answer.failure);
  }
  const routeArn = routeArnOf(routed);
  const decision = readAuthorizerResponse(answer.payload, authorizer, routeArn);
  switch (decision.decision) {
    case 'allow':
      return { allowed: true, authorization: { lambda: decision.context, principalId: decision.principalId } };
    case 'deny':
      return refuse('forbidden', decision.why);
    default:
      return refuse('internalError', `malformed answer: ${decision.reason}`);
  }
}

/** The cached answer for these identity values, or the function's. */
async function answerOf(
  routed: RoutedHttpRequest, authorizer: HttpLambdaAuthorizerSpec, context: HandlerContext, identity: readonly string[],
): Promise<{ payload: string | undefined } | { failure: string }> {
  let cache = caches.get(context);
  if (cache === undefined) {
    cache = new AuthorizerAnswerCache();
    caches.set(context, cache);
  }
  const cached = cache.get(authorizer.logicalId, identity);
  if (cached !== undefined) {
    return cached;
  }
  if (authorizer.functionKey === undefined) {
    return { failure: 'its AuthorizerUri names no function of the template' };
  }
  const event = lambdaAuthorizerEvent(routed, authorizer, identity);
  const outcome = await context.invoker.invoke(authorizer.functionKey, event, { awsRequestId: newInvocationId() });
  if (outcome.kind !== 'ok') {
    return { failure: `the function failed (${outcome.kind === 'error' ? `${outcome.errorType}: ${outcome.errorMessage}` : outcome.kind})` };
  }
  // The service caches only when the authorizer has identity sources to key on.
  cache.set(authorizer.logicalId, identity, identity.length === 0 ? 0 : authorizer.ttlSeconds, outcome.payload);
  return { payload: outcome.payload };
}
