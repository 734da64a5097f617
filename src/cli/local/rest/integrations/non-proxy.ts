/**
 * Non-proxy integrations (`MOCK`, `AWS`, `HTTP`), the frame API Gateway runs around each backend:
 *
 *   request template (or passthrough) -> integration request parameters -> backend
 *   -> integration response selected by SelectionPattern -> response parameters and template
 *
 * A template that cannot be evaluated is the API's configuration error (500); a body a template
 * reads as JSON that is not JSON is the client's (400).
 */
import { isUtf8 } from 'buffer';
import type { NonProxyIntegrationSpec } from '../../model/rest-api';
import { TemplateError } from '../mapping/template-error';
import { API_CONFIGURATION_ERROR, GatewayError, isGatewayError, notJson, UNSUPPORTED_MEDIA_TYPE } from '../pipeline/gateway-errors';
import type { IntegrationResult } from '../pipeline/method-response';
import type { RoutedRequest } from '../pipeline/request';
import { awsBackend } from './non-proxy/aws-backend';
import { BackendResponse, IntegrationRequest } from './non-proxy/backend';
import { httpBackend } from './non-proxy/http-backend';
import { lambdaBackend } from './non-proxy/lambda-backend';
import { mockBackend } from './non-proxy/mock-backend';
import { mapRequest } from './non-proxy/request-mapping';
import { overriddenParameters } from './non-proxy/request-override';
import { mapIntegrationResponse, selectIntegrationResponse } from './non-proxy/response-mapping';
import { mapRequestParameters } from './request-parameters';

export async function integrateNonProxy(routed: RoutedRequest, integration: NonProxyIntegrationSpec): Promise<IntegrationResult> {
  const request = await integrationRequest(routed, integration);
  if (isGatewayError(request)) {
    return request;
  }
  const backend = await callBackend(routed, integration, request);
  if (isGatewayError(backend)) {
    return backend;
  }
  routed.log?.add(`Endpoint response body before transformations: ${isUtf8(backend.body) ? backend.body.toString('utf8') : `[Binary Data] (${backend.body.length} bytes)`}`);
  const selected = selectIntegrationResponse(integration.integrationResponses, backend.selectionInput);
  if (selected === undefined) {
    routed.settings.note?.(routed.ids.requestId, `${routed.route.method.httpMethod} ${routed.route.resource.path}: no integration response matches ${JSON.stringify(backend.selectionInput ?? '(success)')} and none is the default`);
    routed.log?.add('Execution failed due to configuration error: No match for output mapping and no default output mapping was specified for integration response');
    return API_CONFIGURATION_ERROR;
  }
  try {
    return await mapIntegrationResponse(routed, integration, selected, backend);
  } catch (e) {
    return templateFailed(routed, e, 'response');
  }
}

/** The mapped body and parameters, or the gateway's refusal. */
async function integrationRequest(routed: RoutedRequest, integration: NonProxyIntegrationSpec): Promise<IntegrationRequest | GatewayError> {
  try {
    const mapped = await mapRequest(routed, integration);
    if ('unsupportedMediaType' in mapped) {
      routed.settings.note?.(routed.ids.requestId, `no request template for ${routed.headers.get('content-type') ?? 'application/json'} and the passthrough behavior is ${integration.passthroughBehavior}`);
      routed.log?.add(`Execution failed: the request's content type has no mapping template (passthrough behavior ${integration.passthroughBehavior})`);
      return UNSUPPORTED_MEDIA_TYPE;
    }
    const parameters = overriddenParameters(mapRequestParameters(routed, integration.requestParameters), mapped.overrides);
    return { body: mapped.body, contentType: mapped.contentType, parameters };
  } catch (e) {
    return templateFailed(routed, e, 'request');
  }
}

type BackendOutcome = BackendResponse | GatewayError;

function callBackend(
  routed: RoutedRequest, integration: NonProxyIntegrationSpec, request: IntegrationRequest,
): Promise<BackendOutcome> | BackendOutcome {
  const backend = integration.backend;
  switch (backend.kind) {
    case 'mock':
      return mockBackend(routed, { ...integration, backend }, request);
    case 'lambda':
      return lambdaBackend(routed, { ...integration, backend }, request);
    case 'http':
      return httpBackend(routed, { ...integration, backend }, request);
    case 'aws':
      return awsBackend(routed, { ...integration, backend }, request);
  }
}

function templateFailed(routed: RoutedRequest, error: unknown, which: 'request' | 'response'): GatewayError {
  if (!(error instanceof TemplateError)) {
    throw error;
  }
  routed.settings.note?.(routed.ids.requestId, `${routed.route.method.httpMethod} ${routed.route.resource.path}: ${which} template: ${error.message}`);
  if (error.kind === 'body-not-json') {
    routed.log?.add(`Execution failed: the body is not JSON: ${error.message}`);
    return notJson(error.reason);
  }
  routed.log?.add(`Execution failed due to configuration error: Unable to transform ${which}: ${error.message}`);
  return API_CONFIGURATION_ERROR;
}
