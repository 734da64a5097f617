/**
 * A Lambda proxy integration with `ResponseTransferMode: STREAM` ("Set up a Lambda proxy
 * integration with payload response streaming in API Gateway"): the same event, the function
 * invoked as InvokeWithResponseStream does, and its output read in the streaming format: a JSON
 * metadata prelude (`statusCode`, `headers`, `multiValueHeaders`, `cookies`) and 8 NUL bytes within
 * the first 16 KB, then the body, sent to the client as it comes. The limits of "Stream the
 * integration response for your proxy integrations": 15 minutes of streaming, a 5 minute idle
 * timeout (regional endpoints); the function's 200 MB and Lambda's bandwidth cap (2 MBps past the
 * first 6 MB, tighter than the gateway's 2 MB/s past 10 MB). A function that answers without the prelude
 * (a buffered handler, a stream without it) gets 502 as a malformed response.
 */
import { LAMBDA_STREAM_BANDWIDTH, MAX_STREAMED_RESPONSE_BYTES, REST_MAX_PRELUDE_BYTES, StreamedResponse } from '../../api-kind/streamed-response';
import { describeFailure, InvokeOutcome } from '../../lambda/invoke-outcome';
import type { FunctionSpec } from '../../model/function-spec';
import { GatewayError, INTEGRATION_FAILURE_502 } from '../pipeline/gateway-errors';
import type { IntegrationResult } from '../pipeline/method-response';
import type { RoutedRequest } from '../pipeline/request';

/** Longest a response may stream ("Stream the integration response ...": 15 minutes). */
export const REST_STREAM_MAX_DURATION_MS = 15 * 60 * 1000;

/** Longest a stream may go without a byte on a regional or private endpoint (5 minutes; edge-optimized: 30 s). */
export const REST_STREAM_IDLE_MS = 5 * 60 * 1000;

/** How the buffered integration answers an invocation that failed before any stream. */
export type FailureAnswer = (routed: RoutedRequest, fn: FunctionSpec, outcome: Exclude<InvokeOutcome, { kind: 'ok' }>) => GatewayError;

export async function streamLambdaProxy(routed: RoutedRequest, fn: FunctionSpec, event: unknown, failed: FailureAnswer): Promise<IntegrationResult> {
  const { settings, ids, log } = routed;
  const note = (text: string) => settings.note?.(ids.requestId, `${fn.functionName}: ${text}`);
  const stream = new StreamedResponse({
    maxBytes: MAX_STREAMED_RESPONSE_BYTES,
    requirePrelude: true,
    maxPreludeBytes: REST_MAX_PRELUDE_BYTES,
    maxDurationMs: REST_STREAM_MAX_DURATION_MS,
    idleMs: REST_STREAM_IDLE_MS,
    // Lambda's cap (6 MB, then 2 MBps) is the tighter of Lambda's and the gateway's (10 MB).
    bandwidth: LAMBDA_STREAM_BANDWIDTH,
  }, (why) => note(`${why}; the connection was cut`));
  void settings.invoker.invokeStreaming(fn.key, event, { awsRequestId: ids.requestId }, stream).then((outcome) => {
    if (outcome.kind !== 'ok') {
      note(describeFailure(outcome));
    }
    stream.finish(outcome);
  });
  const head = await stream.head;
  switch (head.kind) {
    case 'ended':
      if (head.outcome.kind !== 'ok') {
        return failed(routed, fn, head.outcome);
      }
      return malformed(routed, fn, 'the function answered without a response stream (a streaming method needs awslambda.streamifyResponse and HttpResponseStream.from)');
    case 'bad-prelude':
      return malformed(routed, fn, head.reason);
    case 'head':
      log?.add(`Received response. Status: ${head.statusCode} (streamed)`);
      return { statusCode: head.statusCode, headers: head.headers, body: '', traced: true, kind: 'Lambda proxy response stream', producer: fn.functionName, stream };
  }
}

function malformed(routed: RoutedRequest, fn: FunctionSpec, reason: string): GatewayError {
  routed.settings.note?.(routed.ids.requestId, `${fn.functionName}: malformed Lambda proxy response stream: ${reason}`);
  routed.log?.add(`Execution failed due to configuration error: Malformed Lambda proxy response (${reason})`);
  return INTEGRATION_FAILURE_502;
}
