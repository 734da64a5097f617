/**
 * Which headers an HTTP proxy integration forwards, drops or renames, in each direction, as the
 * header table of "Amazon API Gateway important notes for REST APIs" gives them for `http_proxy`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-known-issues.html).
 */
import { FORWARDING_HEADERS, HTTP_REQUEST_DROPPED, HTTP_RESPONSE_DROPPED, HTTP_RESPONSE_REMAPPED } from '../header-table';

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
    if (HTTP_REQUEST_DROPPED.has(lower) || (lower === 'authorization' && (options.iam || value.startsWith('AWS4-')))) {
      continue;
    }
    if (options.forward !== undefined && FORWARDING_HEADERS.has(lower)) {
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
    if (HTTP_RESPONSE_DROPPED.has(lower)) {
      continue;
    }
    out.push([HTTP_RESPONSE_REMAPPED.has(lower) ? `x-amzn-Remapped-${name}` : name, value]);
  }
  return out;
}
