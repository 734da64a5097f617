/**
 * `AWS` integration to a Lambda function (non-proxy): the mapped body is the event (it must be
 * JSON); the function's result is the integration response body. A function error answers 200 with
 * `{errorMessage, errorType, stackTrace}`, whose `errorMessage` selects the integration response.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/handle-errors-in-lambda-integration.html
 */
import type { Backend, BackendResponse } from './backend';
import type { InvokeOutcome } from '../../../lambda/invoke-outcome';
import { INTEGRATION_FAILURE_500, INTEGRATION_TIMEOUT, notJson } from '../../pipeline/gateway-errors';
import type { RoutedRequest } from '../../pipeline/request';

export const lambdaBackend: Backend<'lambda'> = async (routed, integration, request) => {
  const { settings, log, ids } = routed;
  const fn = settings.functions.get(integration.backend.functionKey)!;
  let event: unknown;
  try {
    event = request.body.length === 0 ? {} : JSON.parse(request.body.toString('utf8'));
  } catch (e) {
    settings.note?.(ids.requestId, `${fn.functionName}: the integration request body is not JSON (${(e as Error).message})`);
    return notJson((e as Error).message);
  }
  const uri = `https://lambda.${fn.region}.amazonaws.com/2015-03-31/functions/arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}/invocations`;
  log?.add(`Endpoint request URI: ${uri}`);
  log?.add(`Endpoint request body after transformations: ${request.body.toString('utf8')}`);
  log?.add(`Sending request to ${uri}`);
  const started = Date.now();
  const outcome = await withTimeout(settings.invoker.invoke(fn.key, event, { awsRequestId: ids.requestId }), integration.timeoutMs);
  if (outcome === 'integration-timeout') {
    log?.add('Execution failed due to a timeout error');
    settings.note?.(ids.requestId, `${fn.functionName} did not answer within the integration timeout (${integration.timeoutMs} ms)`);
    return INTEGRATION_TIMEOUT;
  }
  if (outcome.kind === 'rejected' || outcome.kind === 'unsupported') {
    const reason = outcome.kind === 'rejected' ? `${outcome.errorType}: ${outcome.errorMessage}` : `cannot run locally: ${outcome.reason}`;
    settings.note?.(ids.requestId, `${fn.functionName}: ${reason}`);
    log?.add(`Execution failed due to configuration error: ${reason}`);
    return INTEGRATION_FAILURE_500;
  }
  log?.add(`Received response. Status: 200, Integration latency: ${Date.now() - started} ms`);
  return responseOf(routed, outcome);
};

function responseOf(routed: RoutedRequest, outcome: Exclude<InvokeOutcome, { kind: 'rejected' | 'unsupported' }>): BackendResponse {
  const headers: Array<[string, string]> = [['Content-Type', 'application/json']];
  if (outcome.kind === 'ok') {
    // A function that returned nothing answers `null`, as Lambda's Invoke does.
    return { statusCode: 200, headers, body: Buffer.from(outcome.payload ?? 'null', 'utf8'), selectionInput: undefined };
  }
  const error = functionError(outcome);
  routed.settings.note?.(routed.ids.requestId, `function error: ${error.errorType}: ${error.errorMessage}`);
  headers.push(['X-Amz-Function-Error', 'Unhandled']);
  return { statusCode: 200, headers, body: Buffer.from(JSON.stringify(error), 'utf8'), selectionInput: error.errorMessage };
}

/** The error document Lambda returns for a failed invocation. */
function functionError(outcome: Exclude<InvokeOutcome, { kind: 'ok' | 'rejected' | 'unsupported' }>): { errorMessage: string; errorType: string; stackTrace?: readonly string[] } {
  switch (outcome.kind) {
    case 'error':
      return { errorMessage: outcome.errorMessage, errorType: outcome.errorType, stackTrace: outcome.trace };
    case 'crash':
      return { errorMessage: outcome.errorMessage, errorType: outcome.outOfMemory ? 'Runtime.OutOfMemory' : 'Runtime.ExitError' };
    case 'timeout':
      return { errorMessage: `Task timed out after ${outcome.seconds.toFixed(2)} seconds`, errorType: 'Sandbox.Timedout' };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'integration-timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('integration-timeout'), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
