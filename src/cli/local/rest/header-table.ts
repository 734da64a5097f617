/**
 * The header table of "Amazon API Gateway important notes for REST APIs"
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html):
 * which headers the gateway drops or remaps, per integration kind and direction. One place, so the
 * Lambda proxy and HTTP proxy integrations read the same table.
 */

/** Headers the front door sets itself (the client's values are replaced or extended, never sent as they are). */
export const FORWARDING_HEADERS = new Set(['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto', 'x-amzn-trace-id']);

/**
 * `lambda`, request: not passed to the function (`Transfer-Encoding` is listed as an exception:
 * the body arrives whole). `Content-Length` is not in the table, but the recorded event of a
 * request with a body carries none (in `headers` or `multiValueHeaders`): the body is in `body`.
 */
export const LAMBDA_REQUEST_DROPPED = new Set([
  'connection', 'content-length', 'content-md5', 'expect', 'max-forwards', 'proxy-authenticate', 'server', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'www-authenticate',
]);

/** `lambda`, response: answered as `x-amzn-Remapped-<name>` (`Date` and `Server` get the gateway's own value besides). */
export const LAMBDA_RESPONSE_REMAPPED = new Set(['authorization', 'connection', 'content-md5', 'date', 'max-forwards', 'server', 'user-agent', 'www-authenticate']);

/** `lambda`, response: dropped (`Content-Length` too: the gateway sends the length of the body it sends). */
export const LAMBDA_RESPONSE_DROPPED = new Set(['content-length', 'expect', 'host', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via']);

/** `http_proxy`, request: not sent to the endpoint (`Host` is set to the endpoint's). */
export const HTTP_REQUEST_DROPPED = new Set([
  'host', 'content-length', 'content-md5', 'expect', 'max-forwards', 'proxy-authenticate', 'server', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'via', 'www-authenticate',
  // Hop-by-hop: it concerns the client's connection, not the gateway's to the endpoint.
  'connection', 'keep-alive', 'proxy-connection',
]);

/** `http_proxy`, response: not passed back. */
export const HTTP_RESPONSE_DROPPED = new Set(['content-length', 'expect', 'host', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via', 'keep-alive']);

/** `http_proxy`, response: passed back as `x-amzn-Remapped-<name>` (the gateway sets its own `Date`, `Connection`, ...). */
export const HTTP_RESPONSE_REMAPPED = new Set([
  'authorization', 'connection', 'content-md5', 'date', 'max-forwards', 'range', 'server', 'user-agent', 'www-authenticate',
]);
