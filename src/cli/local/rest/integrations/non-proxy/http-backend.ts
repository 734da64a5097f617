/**
 * `HTTP` integration (non-proxy): the mapped body goes to the integration URI with only the
 * mapped path, query and header parameters (`RequestParameters`, `$context.requestOverride`); the
 * endpoint's status code selects the integration response. Failures answer as for `HTTP_PROXY`
 * (see ../http-proxy.ts): 504 on the integration timeout, 500 when the endpoint cannot be reached.
 */
import type { Backend } from './backend';
import { endpointHeaders, endpointUri } from './endpoint-uri';
import { configurationError, sendToEndpoint } from './send-to-endpoint';
import { stageVariablesOf } from './template-input';

export const httpBackend: Backend<'http'> = async (routed, integration, request) => {
  const url = endpointUri(integration.backend.uri, stageVariablesOf(routed), request.parameters);
  if (typeof url !== 'string') {
    return configurationError(routed, integration, url.problem);
  }
  return sendToEndpoint(routed, integration, {
    method: integration.httpMethod === undefined || integration.httpMethod === 'ANY' ? routed.request.method.toUpperCase() : integration.httpMethod,
    url,
    headers: endpointHeaders(request.contentType, request.parameters),
    body: request.body,
  });
};
