/**
 * CORS of an HTTP API with a `CorsConfiguration`, as "Configure CORS for HTTP APIs in API
 * Gateway" describes it: the gateway answers preflight `OPTIONS` requests itself (whatever the
 * routes), adds the configured headers to the integration's answer to a request with an `Origin`,
 * and drops the CORS headers the integration returned. An origin not allowed gets no CORS headers.
 */
import type { ApiRequest, ApiResponse } from '../api-kind/api-kind';
import type { HttpCorsSpec } from '../model/http-api';

/** A preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`. */
export function isPreflight(request: ApiRequest): boolean {
  return request.method.toUpperCase() === 'OPTIONS' && headerOf(request, 'origin') !== undefined && headerOf(request, 'access-control-request-method') !== undefined;
}

/** The gateway's answer to a preflight: 204 with the configured headers for an allowed origin. */
export function preflightAnswer(cors: HttpCorsSpec, request: ApiRequest, requestId: string): ApiResponse {
  const origin = allowedOrigin(cors, headerOf(request, 'origin'));
  const headers: Array<[string, string]> = [];
  if (origin !== undefined) {
    headers.push(['Access-Control-Allow-Origin', origin]);
    if (cors.allowCredentials) {
      headers.push(['Access-Control-Allow-Credentials', 'true']);
    }
    if (cors.allowMethods.length > 0) {
      headers.push(['Access-Control-Allow-Methods', cors.allowMethods.join(',')]);
    }
    if (cors.allowHeaders.length > 0) {
      headers.push(['Access-Control-Allow-Headers', cors.allowHeaders.join(',')]);
    }
    if (cors.exposeHeaders.length > 0) {
      headers.push(['Access-Control-Expose-Headers', cors.exposeHeaders.join(',')]);
    }
    if (cors.maxAgeSeconds !== undefined) {
      headers.push(['Access-Control-Max-Age', String(cors.maxAgeSeconds)]);
    }
  }
  headers.push(['apigw-requestid', requestId]);
  return { statusCode: 204, headers, body: '', requestId };
}

/** The integration's answer with its CORS headers replaced by the configured ones (for an allowed origin). */
export function withCorsHeaders(cors: HttpCorsSpec, request: ApiRequest, response: ApiResponse): ApiResponse {
  const headers: Array<readonly [string, string]> = response.headers.filter(([name]) => !name.toLowerCase().startsWith('access-control-'));
  const origin = allowedOrigin(cors, headerOf(request, 'origin'));
  if (origin !== undefined) {
    headers.push(['Access-Control-Allow-Origin', origin]);
    if (cors.allowCredentials) {
      headers.push(['Access-Control-Allow-Credentials', 'true']);
    }
    if (cors.exposeHeaders.length > 0) {
      headers.push(['Access-Control-Expose-Headers', cors.exposeHeaders.join(',')]);
    }
  }
  return { ...response, headers };
}

/** `*` when any origin is allowed, the request's origin when it is listed, else undefined. */
function allowedOrigin(cors: HttpCorsSpec, origin: string | undefined): string | undefined {
  if (origin === undefined) {
    return undefined;
  }
  if (cors.allowOrigins.includes('*')) {
    return '*';
  }
  return cors.allowOrigins.some((allowed) => allowed.toLowerCase() === origin.toLowerCase()) ? origin : undefined;
}

function headerOf(request: ApiRequest, lower: string): string | undefined {
  return request.rawHeaders.find(([name]) => name.toLowerCase() === lower)?.[1];
}
