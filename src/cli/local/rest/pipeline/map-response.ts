/**
 * Step: the method response becomes the HTTP response: the gateway's own headers are added, and
 * a response HTTP cannot carry (a header name that is not a token, a value with CR/LF or a
 * character outside Latin-1) is refused as API Gateway refuses a malformed integration response:
 * 502, with the header named in the log. Nothing a function or a client sends reaches the socket
 * unchecked.
 */
import { javaMap } from './execution-log';
import { INTEGRATION_FAILURE_502 } from './gateway-errors';
import type { MethodResponse } from './method-response';
import { renderError } from './render-error';
import type { GatewayResponse, RoutedRequest } from './request';
import { unsendable } from './sendable';

/** At once, unless a gateway response's template renders the 502 (then a promise). */
export function mapResponse(routed: RoutedRequest, response: MethodResponse): GatewayResponse | Promise<GatewayResponse> {
  const { ids, log, settings } = routed;
  const problem = unsendable(response);
  if (problem !== undefined) {
    settings.note?.(ids.requestId, `${response.producer === undefined ? '' : `${response.producer}: `}malformed ${response.kind}: ${problem}`);
    log?.add(`Execution failed due to configuration error: Malformed ${response.kind} (${problem})`);
    return renderError(settings.api, ids, INTEGRATION_FAILURE_502, routed);
  }
  const headers: Array<[string, string]> = response.headers.map(([n, v]) => [n, v]);
  headers.push(['x-amzn-RequestId', ids.requestId], ['x-amz-apigw-id', ids.apigwId]);
  if (response.traced) {
    headers.push(['X-Amzn-Trace-Id', ids.traceId]);
  }
  const body = response.body;
  log?.add(`Method response body after transformations: ${typeof body === 'string' ? body : `[Binary Data] (${body.length} bytes)`}`);
  log?.add(`Method response headers: ${javaMap(headers)}`);
  log?.add('Successfully completed execution');
  const answer = { statusCode: response.statusCode, headers, body, requestId: ids.requestId, resourcePath: routed.route.resource.path };
  return response.stream === undefined ? answer : { ...answer, stream: response.stream };
}
