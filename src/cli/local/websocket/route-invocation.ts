/**
 * A route's `AWS_PROXY` integration run for one event: the function's answer, or why there is
 * none (the function failed, or did not answer within the integration timeout).
 */
import type { HandlerContext } from '../api-kind/api-kind';
import { requestId as newInvocationId } from '../common/ids';
import { describeFailure } from '../lambda/invoke-outcome';
import type { WebSocketLambdaIntegrationSpec } from '../model/websocket-api';

export type RouteAnswer =
  | { readonly ok: true; readonly payload: string | undefined }
  | { readonly ok: false; readonly why: string };

export function invokeRoute(integration: WebSocketLambdaIntegrationSpec, event: unknown, context: HandlerContext): Promise<RouteAnswer> {
  return new Promise((resolve) => {
    const name = context.functions.get(integration.functionKey)?.functionName ?? integration.functionKey;
    const timer = setTimeout(() => resolve({ ok: false, why: `${name} did not answer within the integration timeout (${integration.timeoutMs} ms)` }), integration.timeoutMs);
    void context.invoker.invoke(integration.functionKey, event, { awsRequestId: newInvocationId() }).then((outcome) => {
      clearTimeout(timer);
      resolve(outcome.kind === 'ok' ? { ok: true, payload: outcome.payload } : { ok: false, why: `${name}: ${describeFailure(outcome)}` });
    });
  });
}

/** `statusCode`, `body` and `headers` of a proxy answer (a function answering nothing or a non-object: 200, no body). */
export function proxyAnswer(payload: string | undefined): { statusCode: number; body?: string; headers?: Record<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = payload === undefined ? undefined : JSON.parse(payload);
  } catch {
    return { statusCode: 200 };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { statusCode: 200 };
  }
  const answer = parsed as Record<string, unknown>;
  const statusCode = typeof answer.statusCode === 'number' ? answer.statusCode : 200;
  const body = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? undefined : JSON.stringify(answer.body);
  const headers = answer.headers !== null && typeof answer.headers === 'object' && !Array.isArray(answer.headers) ? answer.headers as Record<string, unknown> : undefined;
  return { statusCode, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) };
}
