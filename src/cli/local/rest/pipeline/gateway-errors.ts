/**
 * The gateway's own answers (API Gateway "gateway responses"): a type, a status, a message and the
 * `x-amzn-ErrorType` header, with the API's `AWS::ApiGateway::GatewayResponse` overrides applied.
 */
import type { GatewayResponse, ReceivedRequest, RequestIds } from './request';
import type { ApiSpec, GatewayResponseSpec } from '../../model/local-app';

// Loaded when a gateway response maps a header from the request or has a template: most APIs have neither.
let mappingModule: typeof import('./gateway-response-mapping') | undefined;

/** API Gateway's payload limit. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** A refusal or failure the gateway answers itself. */
export interface GatewayError {
  /** Gateway response type (`MISSING_AUTHENTICATION_TOKEN`, `DEFAULT_5XX`...). */
  readonly type: string;
  readonly status: number;
  /** The `message` of the JSON body (null for an authorizer's failure, as the gateway sends it). */
  readonly message: string | null;
  /** The body's key when it is not `message` (a Lambda authorizer's policy denial says `Message`). */
  readonly messageKey?: 'Message';
  /** `x-amzn-ErrorType`, when the service sends one. */
  readonly errorType?: string;
  /** The body's exact bytes when they are not `{"message":...}` as JSON.stringify writes it (request validation's have a space). */
  readonly body?: string;
  /** `$context.error.validationErrorString`: the failed checks of a request validator. */
  readonly validationErrorString?: string;
  /** Answered before a stage (so a deployment) is known: the API's gateway responses do not apply. */
  readonly beforeStage?: boolean;
}

export const MISSING_AUTHENTICATION_TOKEN: GatewayError = { type: 'MISSING_AUTHENTICATION_TOKEN', status: 403, message: 'Missing Authentication Token', errorType: 'MissingAuthenticationTokenException' };
/**
 * A path whose first segment is no stage of the API (or no segment at all): the invoke URL names
 * no deployment, so neither its resources nor its gateway responses are known. Recorded answers to
 * a missing or miscased stage are `403 {"message":"Forbidden"}`, unlike a path no resource of a
 * real stage matches (Missing Authentication Token).
 */
export const UNKNOWN_STAGE: GatewayError = { type: 'UNKNOWN_STAGE', status: 403, message: 'Forbidden', errorType: 'ForbiddenException', beforeStage: true };
export const INVALID_API_KEY: GatewayError = { type: 'INVALID_API_KEY', status: 403, message: 'Forbidden', errorType: 'ForbiddenException' };
export const UNAUTHORIZED: GatewayError = { type: 'UNAUTHORIZED', status: 401, message: 'Unauthorized', errorType: 'UnauthorizedException' };
export const API_CONFIGURATION_ERROR: GatewayError = { type: 'API_CONFIGURATION_ERROR', status: 500, message: 'Internal server error', errorType: 'InternalServerErrorException' };
/** A failed or malformed integration response (Lambda error, malformed proxy response). */
export const INTEGRATION_FAILURE_502: GatewayError = { type: 'DEFAULT_5XX', status: 502, message: 'Internal server error', errorType: 'InternalServerErrorException' };
/** Lambda refused the invocation (throttled, or the event too large): the function did not run. */
export const INTEGRATION_FAILURE_500: GatewayError = { type: 'DEFAULT_5XX', status: 500, message: 'Internal server error', errorType: 'InternalServerErrorException' };
export const INTEGRATION_TIMEOUT: GatewayError = { type: 'INTEGRATION_TIMEOUT', status: 504, message: 'Endpoint request timed out' };

/**
 * A gateway error response, with the API's `AWS::ApiGateway::GatewayResponse` applied: its status,
 * its headers, and, given the request, its mapped header values and template.
 */
export function renderError(api: ApiSpec, ids: RequestIds, error: GatewayError, request?: ReceivedRequest): GatewayResponse {
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
  let body = error.body ?? JSON.stringify({ [error.messageKey ?? 'message']: error.message });
  if (custom !== undefined && request !== undefined && hasMappings(custom)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mappingModule ??= require('./gateway-response-mapping') as typeof import('./gateway-response-mapping');
    const mapped = mappingModule.mapGatewayResponse(custom, error, request);
    for (const [name, value] of mapped.headers) {
      setHeader(headers, name, value);
    }
    if (mapped.body !== undefined) {
      body = mapped.body.text;
      setHeader(headers, 'Content-Type', mapped.body.contentType);
    }
  }
  return { statusCode: custom?.statusCode ?? error.status, headers, body, requestId: ids.requestId };
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
