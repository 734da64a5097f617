/**
 * Sends an integration request to an HTTP endpoint (HTTP and AWS service integrations) through
 * the gateway's transport, and turns its failures into the gateway's answers: 504 `Endpoint
 * request timed out` after the integration timeout, 500 when the endpoint cannot be reached.
 */
import type { NonProxyIntegrationSpec } from '../../../model/rest-api';
import { maskedHeaders } from '../../pipeline/execution-log';
import { API_CONFIGURATION_ERROR, GatewayError, INTEGRATION_TIMEOUT } from '../../pipeline/gateway-errors';
import type { RoutedRequest } from '../../pipeline/request';
import { isOutboundFailure, OutboundRequest, sendOutbound } from '../outbound';
import type { BackendResponse } from './backend';

export async function sendToEndpoint(
  routed: RoutedRequest, integration: NonProxyIntegrationSpec, request: OutboundRequest,
): Promise<BackendResponse | GatewayError> {
  const { log, settings, ids } = routed;
  log?.add(`Endpoint request URI: ${request.url}`);
  log?.add(`Endpoint request headers: ${maskedHeaders(request.headers)}`);
  log?.add(`Endpoint request body after transformations: ${request.body.toString('utf8')}`);
  log?.add(`Sending request to ${request.url}`);
  const started = Date.now();
  const result = await sendOutbound(request, integration.timeoutMs);
  if (isOutboundFailure(result)) {
    if (result.failure === 'timeout') {
      settings.note?.(ids.requestId, `${request.url} did not answer within the integration timeout (${integration.timeoutMs} ms)`);
      log?.add('Execution failed due to a timeout error');
      return INTEGRATION_TIMEOUT;
    }
    return configurationError(routed, integration, result.message);
  }
  log?.add(`Received response. Status: ${result.statusCode}, Integration latency: ${Date.now() - started} ms`);
  return { statusCode: result.statusCode, headers: result.headers, body: result.body, selectionInput: String(result.statusCode) };
}

/** A request the gateway cannot make: 500, noted with the reason. */
export function configurationError(routed: RoutedRequest, integration: NonProxyIntegrationSpec, problem: string): GatewayError {
  routed.settings.note?.(routed.ids.requestId, `${routed.route.method.httpMethod} ${routed.route.resource.path}: ${integration.description}: ${problem}`);
  routed.log?.add(`Execution failed due to configuration error: ${problem}`);
  return API_CONFIGURATION_ERROR;
}
