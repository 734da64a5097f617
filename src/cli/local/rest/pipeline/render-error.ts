/**
 * Renders the gateway's own answers (the errors of gateway-errors.ts): a status, a JSON message and
 * the `x-amzn-ErrorType` header, with the API's `AWS::ApiGateway::GatewayResponse` overrides applied.
 */
import type { GatewayError } from './gateway-errors';
import type { GatewayResponse, ReceivedRequest, RequestIds } from './request';
import type { RestApiSpec, GatewayResponseSpec } from '../../model/rest-api';

// Loaded when a gateway response maps a header from the request or has a template: most APIs have neither.
let mappingModule: typeof import('./gateway-response-mapping') | undefined;

/** API Gateway's payload limit. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A gateway error response, with the API's `AWS::ApiGateway::GatewayResponse` applied: its status,
 * its headers, and, given the request, its mapped header values and template. At once, unless a
 * template has to be evaluated (off the server's thread): then a promise.
 */
export function renderError(
  api: RestApiSpec, ids: RequestIds, error: GatewayError, request?: ReceivedRequest,
): GatewayResponse | Promise<GatewayResponse> {
  const fallback = error.status >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX';
  const responses = error.beforeStage ? [] : api.gatewayResponses;
  const custom = responses.find((r) => r.responseType === error.type) ?? responses.find((r) => r.responseType === fallback);
  const headers: Array<[string, string]> = [
    ['Content-Type', 'application/json'],
    ['x-amzn-RequestId', ids.requestId],
  ];
  if (error.errorType !== undefined) {
    headers.push(['x-amzn-ErrorType', error.errorType]);
  }
  headers.push(['x-amz-apigw-id', ids.apigwId]);
  for (const [name, value] of Object.entries(custom?.headers ?? {})) {
    setHeader(headers, name, value);
  }
  const body = error.body ?? JSON.stringify({ [error.messageKey ?? 'message']: error.message });
  const response: GatewayResponse = { statusCode: custom?.statusCode ?? error.status, headers, body, requestId: ids.requestId };
  if (custom === undefined || request === undefined || !hasMappings(custom)) {
    return response;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  mappingModule ??= require('./gateway-response-mapping') as typeof import('./gateway-response-mapping');
  const mapped = mappingModule.mapGatewayResponse(custom, error, request);
  return mapped instanceof Promise ? mapped.then((m) => withMappings(response, m)) : withMappings(response, mapped);
}

/** The response with the gateway response's mapped headers and rendered template applied. */
function withMappings(response: GatewayResponse, mapped: import('./gateway-response-mapping').MappedGatewayResponse): GatewayResponse {
  const headers = [...response.headers] as Array<[string, string]>;
  for (const [name, value] of mapped.headers) {
    setHeader(headers, name, value);
  }
  if (mapped.body === undefined) {
    return { ...response, headers };
  }
  setHeader(headers, 'Content-Type', mapped.body.contentType);
  return { ...response, headers, body: mapped.body.text };
}

function hasMappings(spec: GatewayResponseSpec): boolean {
  return Object.keys(spec.mappedHeaders).length > 0 || Object.keys(spec.templates).length > 0;
}

/** The 413 of the front door (not a gateway response; plain text, as the cloud answers it). */
export function tooLarge(requestId: string): GatewayResponse {
  return {
    statusCode: 413,
    headers: [['Content-Type', 'text/plain']],
    body: `HTTP content length exceeded ${MAX_BODY_BYTES} bytes.`,
    requestId,
  };
}

/** Sets a header, replacing (in place) one of the same name in any case. */
export function setHeader(headers: Array<[string, string]>, name: string, value: string): void {
  const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (i < 0) {
    headers.push([name, value]);
  } else {
    headers[i] = [headers[i][0], value];
  }
}
