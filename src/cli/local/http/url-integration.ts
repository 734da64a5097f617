/**
 * `HTTP_PROXY` to a public URL: the request goes to `IntegrationUri` (its `{name}` path variables
 * filled from the route's, its `${stageVariables.name}` from the stage's, empty when the stage has
 * none; for the `$default` route the whole request path is appended, as "Working with the
 * $default route" describes), with the query string, headers and body as sent; the
 * endpoint's status, headers and body come back. An endpoint that cannot be reached is 500
 * `{"message":"Internal Server Error"}`; no answer within the integration timeout is 503.
 */
import { gatewayAnswer } from './gateway-answers';
import { RoutedHttpRequest, stageVariablesOf } from './routed-request';
import type { ApiResponse, HandlerContext } from '../api-kind/api-kind';
import type { HttpUrlIntegrationSpec } from '../model/http-api';
import { forwardedRequestHeaders } from '../rest/integrations/http-proxy-headers';
import { isOutboundFailure, sendOutbound } from '../rest/integrations/outbound';

/** Response headers the local server sets itself, or that describe one hop only. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection']);

export async function integrateUrl(routed: RoutedHttpRequest, integration: HttpUrlIntegrationSpec, context: HandlerContext): Promise<ApiResponse> {
  const { request } = routed;
  const url = endpointUrl(routed, integration);
  const result = await sendOutbound({
    method: integration.method === 'ANY' ? request.method.toUpperCase() : integration.method,
    url,
    headers: forwardedRequestHeaders(request.rawHeaders, {
      iam: false,
      forward: { traceId: routed.traceId, sourceIp: request.sourceIp, port: request.port ?? 80 },
    }),
    body: request.body,
  }, integration.timeoutMs);
  if (isOutboundFailure(result)) {
    context.note(routed.requestId, `HTTP_PROXY ${url}: ${result.message}; answered ${result.failure === 'timeout' ? 503 : 500}`);
    return gatewayAnswer(result.failure === 'timeout' ? 'timeout' : 'internalError', routed.requestId);
  }
  return {
    statusCode: result.statusCode,
    headers: [...result.headers.filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())), ['apigw-requestid', routed.requestId]],
    body: result.body,
    requestId: routed.requestId,
  };
}

/** The URI with path variables filled (percent-encoded as sent), the `$default` route's path appended, and the query string. */
function endpointUrl(routed: RoutedHttpRequest, integration: HttpUrlIntegrationSpec): string {
  const { match } = routed;
  if (routed.mappedPath !== undefined) {
    return withQuery(`${new URL(integration.uri).origin}${routed.mappedPath}`, routed.rawQueryString);
  }
  const variables = stageVariablesOf(routed) ?? {};
  let url = integration.uri.replace(/\$\{stageVariables\.([A-Za-z0-9_]+)\}/g, (_whole, name: string) => (
    Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : ''
  )).replace(/\{([^{}+]+)\+?\}/g, (whole, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(match.pathParameters, name) ? match.pathParameters[name] : undefined;
    return value === undefined ? whole : value.split('/').map(encodeURIComponent).join('/');
  });
  if (match.route.method === undefined) {
    url = `${url.replace(/\/$/, '')}${routed.pathBelowStage}`;
  }
  return withQuery(url, routed.rawQueryString);
}

function withQuery(url: string, rawQueryString: string): string {
  return rawQueryString === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${rawQueryString}`;
}
