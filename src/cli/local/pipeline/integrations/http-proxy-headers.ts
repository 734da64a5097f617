/**
 * Which headers an HTTP proxy integration forwards, drops or renames, in each direction, as the
 * header table of "Amazon API Gateway important notes for REST APIs" gives them for `http_proxy`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html).
 */

/** Request headers the gateway does not send to the endpoint (`Host` is set to the endpoint's). */
const REQUEST_DROPPED = new Set([
  'host', 'content-length', 'content-md5', 'expect', 'max-forwards', 'proxy-authenticate', 'server', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'via', 'www-authenticate',
  // Hop-by-hop: it concerns the client's connection, not the gateway's to the endpoint.
  'connection', 'keep-alive', 'proxy-connection',
]);

/** The front door's own headers: the client's values are replaced or extended, never sent as they are. */
const FORWARDING = new Set(['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto', 'x-amzn-trace-id']);

/** Response headers the gateway does not pass back. */
const RESPONSE_DROPPED = new Set(['content-length', 'expect', 'host', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via', 'keep-alive']);

/** Response headers passed back as `x-amzn-Remapped-<name>` (the gateway sets its own `Date`, `Connection`, ...). */
const RESPONSE_REMAPPED = new Set([
  'authorization', 'connection', 'content-md5', 'date', 'max-forwards', 'range', 'server', 'user-agent', 'www-authenticate',
]);

export interface Forwarding {
  readonly traceId: string;
  readonly sourceIp: string;
  readonly port: number;
}

/**
 * The request headers for the endpoint, in the order received: dropped ones left out,
 * `Authorization` left out when the method is IAM-authorized or it carries a SigV4 signature (the
 * table's footnote),
 * and the front door's forwarding headers (absent in a console test).
 */
export function forwardedRequestHeaders(
  raw: ReadonlyArray<readonly [string, string]>, options: { readonly iam: boolean; readonly forward?: Forwarding },
): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  let forwardedFor: string | undefined;
  for (const [name, value] of raw) {
    const lower = name.toLowerCase();
    if (REQUEST_DROPPED.has(lower) || (lower === 'authorization' && (options.iam || value.startsWith('AWS4-')))) {
      continue;
    }
    if (options.forward !== undefined && FORWARDING.has(lower)) {
      if (lower === 'x-forwarded-for') {
        forwardedFor = forwardedFor === undefined ? value : `${forwardedFor}, ${value}`;
      }
      continue;
    }
    headers.push([name, value]);
  }
  const forward = options.forward;
  if (forward !== undefined) {
    headers.push(
      ['X-Amzn-Trace-Id', forward.traceId],
      ['X-Forwarded-For', forwardedFor === undefined ? forward.sourceIp : `${forwardedFor}, ${forward.sourceIp}`],
      ['X-Forwarded-Port', String(forward.port)],
      ['X-Forwarded-Proto', 'http'],
    );
  }
  return headers;
}

/** The endpoint's response headers as the gateway passes them back. */
export function passedBackResponseHeaders(headers: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (RESPONSE_DROPPED.has(lower)) {
      continue;
    }
    out.push([RESPONSE_REMAPPED.has(lower) ? `x-amzn-Remapped-${name}` : name, value]);
  }
  return out;
}
