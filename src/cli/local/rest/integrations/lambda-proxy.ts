/**
 * Integration `AWS_PROXY` to a Lambda function (REST, payload 1.0): the request becomes the proxy
 * event, the function runs in a local worker, its result is checked and mapped as API Gateway
 * does (../../proxy-response.ts).
 */
import { isStrictBase64 } from '../../common/base64';
import { deferEvent, EventBuilder } from '../../lambda/deferred-event';
import { describeFailure, InvokeOutcome } from '../../lambda/invoke-outcome';
import type { FunctionSpec } from '../../model/function-spec';
import type { IntegrationSpec } from '../../model/rest-api';
import { isBinaryType } from '../binary-media-type';
import { buildEvent, EventInput } from '../event';
import { maskedEvent } from '../pipeline/execution-log';
import {
  GatewayError, INTEGRATION_FAILURE_500, INTEGRATION_FAILURE_502, INTEGRATION_FAILURE_NOT_POST, INTEGRATION_TIMEOUT,
} from '../pipeline/gateway-errors';
import type { IntegrationResult } from '../pipeline/method-response';
import type { RoutedRequest } from '../pipeline/request';
import { parseProxyResult } from '../proxy-response';
import { streamLambdaProxy } from './lambda-proxy-stream';

type LambdaProxy = Extract<IntegrationSpec, { type: 'AWS_PROXY' }>;

/**
 * The payload 1.0 event's builder (../event.ts). Its JSON is at most twice its input's: headers and
 * query parameters appear once more as lists, the resource and method once more in the context.
 */
const PROXY_EVENT: EventBuilder = { module: require.resolve('../event'), exportName: 'buildEvent', sizeFactor: 2 };

export async function integrateLambdaProxy(routed: RoutedRequest, integration: LambdaProxy): Promise<IntegrationResult> {
  const { settings, ids, log } = routed;
  const fn = settings.functions.get(integration.functionKey)!;
  if (integration.integrationHttpMethod !== undefined) {
    return notInvokedWith(routed, fn, integration.integrationHttpMethod);
  }
  const event = proxyEvent(routed, fn);
  if (integration.streamed) {
    return streamLambdaProxy(routed, fn, event, integrationFailure);
  }
  const invokeStarted = Date.now();
  const outcome = await invokeWithTimeout(routed, fn, integration.timeoutMs, event);
  const integrationLatency = Date.now() - invokeStarted;
  if (outcome === 'integration-timeout') {
    log?.add('Execution failed due to a timeout error');
    settings.note?.(ids.requestId, `${fn.functionName} did not answer within the integration timeout (${integration.timeoutMs} ms)`);
    return INTEGRATION_TIMEOUT;
  }
  if (outcome.kind === 'rejected') {
    return invocationRejected(routed, fn, outcome);
  }
  log?.add(`Received response. Status: 200, Integration latency: ${integrationLatency} ms`);
  if (outcome.kind !== 'ok') {
    return functionFailed(routed, fn, outcome);
  }
  log?.add(`Endpoint response body before transformations: ${outcome.payload ?? 'null'}`);
  const parsed = parseProxyResult(outcome.payload);
  if (!parsed.ok) {
    settings.note?.(ids.requestId, `${fn.functionName}: malformed Lambda proxy response: ${parsed.reason}`);
    log?.add(`Execution failed due to configuration error: Malformed Lambda proxy response (${parsed.reason})`);
    return INTEGRATION_FAILURE_502;
  }
  if (parsed.isBase64Encoded && !isStrictBase64(parsed.body)) {
    return notBase64(routed, fn);
  }
  const headers: Array<[string, string]> = [...parsed.headers];
  if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) {
    headers.push(['Content-Type', 'application/json']);
  }
  const binary = parsed.isBase64Encoded && isBinaryType(routed.headers.get('accept'), settings.api.binaryMediaTypes);
  return {
    statusCode: parsed.statusCode,
    headers,
    body: binary ? Buffer.from(parsed.body, 'base64') : parsed.body,
    traced: true,
    kind: 'Lambda proxy response',
    producer: fn.functionName,
  };
}

/**
 * `isBase64Encoded: true` with a body that is not base64: the gateway cannot decode it and answers
 * 500, whatever the request's `Accept` (recorded on API Gateway; the log wording is ours).
 */
function notBase64(routed: RoutedRequest, fn: FunctionSpec): GatewayError {
  routed.settings.note?.(routed.ids.requestId, `${fn.functionName}: the response has isBase64Encoded: true but its body is not base64 (answered 500)`);
  routed.log?.add('Execution failed due to configuration error: Unable to base64-decode the Lambda proxy response body (isBase64Encoded is true)');
  return INTEGRATION_FAILURE_500;
}

/**
 * The event the function gets. With an execution log (test-invoke, the console) it is built here,
 * since the log shows it; else it is built where the function runs (../../lambda/deferred-event.ts).
 */
function proxyEvent(routed: RoutedRequest, fn: FunctionSpec): unknown {
  const input = eventInputOf(routed);
  const log = routed.log;
  if (!log) {
    return deferEvent(PROXY_EVENT, input);
  }
  const event = buildEvent(input);
  // What the cloud would call; locally the function runs in a worker, no request is signed.
  const uri = `https://lambda.${fn.region}.amazonaws.com/2015-03-31/functions/arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}/invocations`;
  log.add(`Endpoint request URI: ${uri}`);
  log.add(`Endpoint request body after transformations: ${maskedEvent(event)}`);
  log.add(`Sending request to ${uri}`);
  return event;
}

/** What the proxy event is built from (see ../event.ts). */
export function eventInputOf(routed: RoutedRequest): EventInput {
  const { settings, request, ids, route } = routed;
  const binaryRequest = request.body.length > 0 && isBinaryType(routed.headers.get('content-type'), settings.api.binaryMediaTypes);
  const flatHeaders: string[] = [];
  for (const [name, value] of request.rawHeaders) {
    flatHeaders.push(name, value);
  }
  const all = settings.api.stageVariables;
  const stageVariables = Object.prototype.hasOwnProperty.call(all, routed.stage) ? all[routed.stage] : undefined;
  return {
    resource: route.resource.path,
    path: eventPath(routed.pathBelowStage),
    httpMethod: request.method.toUpperCase(),
    headers: flatHeaders,
    iamMethod: route.method.authorizationType === 'AWS_IAM',
    query: routed.rawQuery,
    pathParameters: Object.keys(route.rawPathParameters).length === 0 ? null : { ...route.rawPathParameters },
    stageVariables: stageVariables === undefined || Object.keys(stageVariables).length === 0 ? null : stageVariables,
    body: request.body.length === 0 ? null : request.body.toString(binaryRequest ? 'base64' : 'utf8'),
    isBase64Encoded: binaryRequest,
    forward: settings.testInvoke ? undefined : { traceId: ids.integrationTraceId, sourceIp: request.sourceIp, port: request.port ?? 80 },
    context: {
      resourceId: route.resource.resourceId,
      stage: routed.stage,
      path: settings.testInvoke ? routed.pathBelowStage : `/${routed.stage}${routed.pathBelowStage}`,
      requestId: ids.requestId,
      extendedRequestId: ids.apigwId,
      requestTimeEpoch: routed.receivedAt,
      sourceIp: request.sourceIp,
      domainName: routed.headers.get('host') ?? `127.0.0.1${request.port ? `:${request.port}` : ''}`,
      apiId: settings.api.apiId,
      identity: routed.identity,
      authorizer: routed.authorizer,
    },
  };
}

/**
 * The event's `path`: the path below the stage as sent (percent-encoded, inner `//` and a trailing
 * `/` kept), with slashes in front of it collapsed to one (recorded: `/prod//items/` gives `/items/`).
 */
function eventPath(pathBelowStage: string): string {
  return pathBelowStage.startsWith('//') ? pathBelowStage.replace(/^\/+/, '/') : pathBelowStage;
}

/**
 * Lambda is invoked with POST only: any other integration HTTP method is refused by the Lambda API
 * (403) before the function runs, and the gateway answers 500 (recorded on API Gateway; the log as
 * re:Post's "execution failed due to configuration error" article shows it).
 */
function notInvokedWith(routed: RoutedRequest, fn: FunctionSpec, httpMethod: string): GatewayError {
  routed.settings.note?.(routed.ids.requestId, `${fn.functionName}: the integration calls Lambda with ${httpMethod}; Lambda is invoked with POST only (answered 500)`);
  const log = routed.log;
  if (log) {
    log.add('Received response. Status: 403, Integration latency: 0 ms');
    log.add('Endpoint response body before transformations: <AccessDeniedException>\n<Message>Unable to determine service/operation name to be authorized</Message>\n</AccessDeniedException>');
    log.add(`Lambda invocation failed with status: 403. Lambda request id: ${routed.ids.requestId}`);
    log.add('Execution failed due to configuration error: ');
  }
  return INTEGRATION_FAILURE_NOT_POST;
}

function invokeWithTimeout(routed: RoutedRequest, fn: FunctionSpec, timeoutMs: number, event: unknown): Promise<InvokeOutcome | 'integration-timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('integration-timeout'), timeoutMs);
    void routed.settings.invoker.invoke(fn.key, event, { awsRequestId: routed.ids.requestId }).then((outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
  });
}

/** A failure before the stream's head: the answer the buffered integration gives it. */
function integrationFailure(routed: RoutedRequest, fn: FunctionSpec, outcome: Exclude<InvokeOutcome, { kind: 'ok' }>): GatewayError {
  return outcome.kind === 'rejected' ? invocationRejected(routed, fn, outcome) : functionFailed(routed, fn, outcome);
}

/** A function error, crash or timeout: Lambda answers 200 with an error, the gateway 502. */
function functionFailed(routed: RoutedRequest, fn: FunctionSpec, outcome: Exclude<InvokeOutcome, { kind: 'ok' | 'rejected' }>): GatewayError {
  const reason = describeFailure(outcome);
  routed.settings.note?.(routed.ids.requestId, `${fn.functionName}: ${reason}`);
  routed.log?.add(`Endpoint response body before transformations: ${outcome.kind === 'error' ? JSON.stringify({ errorType: outcome.errorType, errorMessage: outcome.errorMessage, trace: outcome.trace }) : ''}`);
  routed.log?.add(`Lambda execution failed with status 200 due to customer function error: ${reason}. Lambda request id: ${routed.ids.requestId}`);
  return INTEGRATION_FAILURE_502;
}

/** Lambda refused the invocation (throttled, event too large): the function did not run; the gateway answers 500. */
function invocationRejected(routed: RoutedRequest, fn: FunctionSpec, outcome: Extract<InvokeOutcome, { kind: 'rejected' }>): GatewayError {
  routed.settings.note?.(routed.ids.requestId, `${fn.functionName}: Lambda refused the invocation with ${outcome.statusCode} ${outcome.errorType}: ${outcome.errorMessage}`);
  routed.log?.add(`Lambda invocation failed with status: ${outcome.statusCode}. Lambda request id: ${routed.ids.requestId}`);
  routed.log?.add(`Execution failed due to configuration error: ${outcome.errorType}: ${outcome.errorMessage}`);
  return INTEGRATION_FAILURE_500;
}
