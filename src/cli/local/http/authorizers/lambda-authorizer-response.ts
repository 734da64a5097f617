/**
 * What a Lambda authorizer of an HTTP API answered: a simple response (`{ isAuthorized, context }`,
 * payload 2.0 with `EnableSimpleResponses`) or an IAM policy (`{ principalId, policyDocument,
 * context }`), evaluated against the route ARN as REST's policies are (rest/authorizers/policy.ts).
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import type { HttpLambdaAuthorizerSpec } from '../../model/http-authorizer';
import { evaluatePolicy } from '../../rest/authorizers/policy';

/** The authorizer's decision, with the context that reaches the integration. */
export type AuthorizerDecision =
  | { readonly decision: 'allow'; readonly context: Record<string, unknown>; readonly principalId?: string }
  | { readonly decision: 'deny'; readonly why: string }
  | { readonly decision: 'malformed'; readonly reason: string };

export function readAuthorizerResponse(payload: string | undefined, authorizer: HttpLambdaAuthorizerSpec, routeArn: string): AuthorizerDecision {
  let answer: unknown;
  try {
    answer = JSON.parse(payload ?? '');
  } catch {
    return { decision: 'malformed', reason: 'the answer is not JSON' };
  }
  if (!isPlainObject(answer)) {
    return { decision: 'malformed', reason: 'the answer is not a JSON object' };
  }
  const context = answer.context === undefined || answer.context === null ? {} : answer.context;
  if (!isPlainObject(context)) {
    return { decision: 'malformed', reason: 'context is not an object' };
  }
  return authorizer.simpleResponses ? simpleDecision(answer, context) : policyDecision(answer, context, routeArn);
}

function simpleDecision(answer: Record<string, unknown>, context: Record<string, unknown>): AuthorizerDecision {
  if (typeof answer.isAuthorized !== 'boolean') {
    return { decision: 'malformed', reason: 'isAuthorized is not a boolean (simple responses)' };
  }
  return answer.isAuthorized ? { decision: 'allow', context: { ...context } } : { decision: 'deny', why: 'isAuthorized is false' };
}

function policyDecision(answer: Record<string, unknown>, context: Record<string, unknown>, routeArn: string): AuthorizerDecision {
  const principalId = typeof answer.principalId === 'string' ? answer.principalId : undefined;
  const evaluated = evaluatePolicy(answer.policyDocument, routeArn);
  switch (evaluated.decision) {
    case 'allow':
      return { decision: 'allow', context: { ...context }, ...(principalId !== undefined ? { principalId } : {}) };
    case 'explicit-deny':
      return { decision: 'deny', why: `the policy of ${principalId ?? '(no principalId)'} explicitly denies ${routeArn}` };
    case 'implicit-deny':
      return { decision: 'deny', why: `no statement of the policy of ${principalId ?? '(no principalId)'} allows ${routeArn}` };
    default:
      return { decision: 'malformed', reason: `invalid policy document: ${evaluated.reason}` };
  }
}
