/**
 * A first-class AWS service integration of an HTTP API (`SQS-SendMessage`, `StepFunctions-StartExecution`, ...):
 * its `RequestParameters` evaluated for the request (request-value.ts), the action called in the
 * service's protocol (aws-action-call.ts), signed with SigV4 and sent to `AWS_ENDPOINT_URL_<SERVICE>`
 * else `AWS_ENDPOINT_URL` (REST's AWS integrations' request builder and transport), and the
 * service's status, `Content-Type` and body relayed as the answer.
 *
 * Without an endpoint the call cannot be made: 500 `{"message":"Internal Server Error"}`, and a
 * terminal line names the variable to set. An endpoint that cannot be reached is 500 too; no answer
 * within the integration timeout is 503 (as the other integrations of HTTP APIs answer).
 */
import { awsActionCall } from './aws-action-call';
import { awsSubtype } from './aws-subtypes';
import { requestValues } from './request-value';
import type { ApiResponse, HandlerContext } from '../../api-kind/api-kind';
import type { HttpAwsServiceIntegrationSpec } from '../../model/http-api';
import { isOutboundFailure, sendOutbound } from '../../rest/integrations/outbound';
import { gatewayAnswer } from '../gateway-answers';
import type { RoutedHttpRequest } from '../routed-request';

// Loaded on first use: it brings the SDK's request signer, which an API without these integrations does not start with.
type AwsServiceRequestModule = typeof import('../../rest/integrations/aws-service-request');
let awsServiceRequestModule: AwsServiceRequestModule | undefined;

export async function integrateAwsService(
  routed: RoutedHttpRequest, integration: HttpAwsServiceIntegrationSpec, context: HandlerContext,
): Promise<ApiResponse> {
  const where = `${routed.match.route.routeKey}: ${integration.subtype}`;
  const subtype = awsSubtype(integration.subtype);
  if (subtype === undefined) {
    // The reader makes AWS_SERVICE integrations of known subtypes only.
    context.note(routed.requestId, `${where} is not an integration subtype of HTTP APIs; answered 500`);
    return gatewayAnswer('internalError', routed.requestId);
  }
  const call = awsActionCall(subtype, mappedParameters(routed, integration), integration.region);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  awsServiceRequestModule ??= require('../../rest/integrations/aws-service-request') as AwsServiceRequestModule;
  const { region } = integration;
  const outbound = await awsServiceRequestModule.awsServiceRequest({ ...call, httpMethod: call.method, region, env: process.env });
  if ('missingEndpoint' in outbound) {
    context.note(routed.requestId, `${where}: ${outbound.message}; answered 500`);
    return gatewayAnswer('internalError', routed.requestId);
  }
  const result = await sendOutbound(outbound, integration.timeoutMs);
  if (isOutboundFailure(result)) {
    const timedOut = result.failure === 'timeout';
    context.note(routed.requestId, `${where} at ${outbound.url}: ${result.message}; answered ${timedOut ? 503 : 500}`);
    return gatewayAnswer(timedOut ? 'timeout' : 'internalError', routed.requestId);
  }
  const contentType = result.headers.find(([name]) => name.toLowerCase() === 'content-type');
  return {
    statusCode: result.statusCode,
    headers: [...(contentType === undefined ? [] : [contentType]), ['apigw-requestid', routed.requestId]],
    body: result.body,
    requestId: routed.requestId,
  };
}

/** Each parameter's value for this request; one the request has nothing for is left out. */
function mappedParameters(routed: RoutedHttpRequest, integration: HttpAwsServiceIntegrationSpec): Record<string, string> {
  const valueOf = requestValues(routed);
  const parameters: Record<string, string> = {};
  for (const [name, expression] of Object.entries(integration.parameters)) {
    const value = valueOf(expression);
    if (value !== undefined) {
      parameters[name] = value;
    }
  }
  return parameters;
}
