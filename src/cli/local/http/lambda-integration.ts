/**
 * `AWS_PROXY` to a Lambda function of the template: the request becomes the event of the
 * integration's payload format, the function runs locally, and its answer is read as that format
 * reads it. Every failure (the function throws, crashes or times out, Lambda refuses the call, the
 * answer cannot be read) is 500 `{"message":"Internal Server Error"}`, as HTTP APIs answer it
 * (REST APIs answer 502 for some of these); no answer within the integration timeout is 503.
 */
import { gatewayAnswer } from './gateway-answers';
import { payloadV1Event } from './payload-v1-event';
import { payloadV2Event } from './payload-v2-event';
import { readV2Result } from './payload-v2-response';
import type { RoutedHttpRequest } from './routed-request';
import type { ApiResponse, HandlerContext } from '../api-kind/api-kind';
import { describeFailure, InvokeOutcome } from '../lambda/invoke-outcome';
import type { HttpLambdaIntegrationSpec } from '../model/http-api';
import { parseProxyResult } from '../rest/proxy-response';

export async function integrateLambda(
  routed: RoutedHttpRequest, integration: HttpLambdaIntegrationSpec, context: HandlerContext,
): Promise<ApiResponse> {
  const fn = context.functions.get(integration.functionKey);
  const name = fn?.functionName ?? integration.functionKey;
  const event = integration.payloadFormatVersion === '2.0' ? payloadV2Event(routed) : payloadV1Event(routed);
  const outcome = await invokeWithTimeout(routed, integration, context, event);
  if (outcome === 'integration-timeout') {
    context.note(routed.requestId, `${name} did not answer within the integration timeout (${integration.timeoutMs} ms); answered 503`);
    return gatewayAnswer('timeout', routed.requestId);
  }
  if (outcome.kind !== 'ok') {
    context.note(routed.requestId, `${name}: ${describeFailure(outcome)}; answered 500`);
    return gatewayAnswer('internalError', routed.requestId);
  }
  const result = integration.payloadFormatVersion === '2.0' ? readV2Result(outcome.payload) : readV1Result(outcome.payload);
  if (!result.ok) {
    context.note(routed.requestId, `${name}: malformed Lambda proxy response (payload ${integration.payloadFormatVersion}): ${result.reason}; answered 500`);
    return gatewayAnswer('internalError', routed.requestId);
  }
  return {
    statusCode: result.statusCode,
    headers: [...result.headers, ['apigw-requestid', routed.requestId]],
    body: result.body,
    requestId: routed.requestId,
  };
}

/** Payload 1.0: the REST proxy response format, read as REST reads it; `isBase64Encoded` always decodes (HTTP APIs have no binary media types). */
function readV1Result(payload: string | undefined): ReturnType<typeof readV2Result> {
  const parsed = parseProxyResult(payload);
  if (!parsed.ok) {
    return parsed;
  }
  return { ok: true, statusCode: parsed.statusCode, headers: parsed.headers, body: parsed.isBase64Encoded ? Buffer.from(parsed.body, 'base64') : parsed.body };
}

function invokeWithTimeout(
  routed: RoutedHttpRequest, integration: HttpLambdaIntegrationSpec, context: HandlerContext, event: unknown,
): Promise<InvokeOutcome | 'integration-timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('integration-timeout'), integration.timeoutMs);
    void context.invoker.invoke(integration.functionKey, event, { awsRequestId: routed.invocationId }).then((outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
  });
}
