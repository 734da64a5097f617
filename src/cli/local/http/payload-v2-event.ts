/**
 * The payload format 2.0 event of an HTTP API's Lambda proxy integration ("Create AWS Lambda proxy
 * integrations for HTTP APIs"): header names lower-cased, repeated headers and query parameters
 * joined with commas, the `Cookie` headers as `cookies`, the request context with `http`; fields
 * with nothing to say left out.
 */
import { v2EventAuthorizer } from './authorizers/event-authorizer';
import { domainNameOf, isTextBody, RoutedHttpRequest, stageVariablesOf } from './routed-request';
import { requestTime } from '../common/dates';
import { ownGet, ownSet } from '../common/own-record';
import { parseQuery } from '../common/query-string';

export function payloadV2Event(routed: RoutedHttpRequest): Record<string, unknown> {
  const { request, match } = routed;
  const { headers, cookies } = eventHeaders(routed);
  const query = queryParameters(routed.rawQueryString);
  const stageVariables = stageVariablesOf(routed);
  const domainName = domainNameOf(routed);
  const text = isTextBody(ownGet(headers, 'content-type'));
  return {
    version: '2.0',
    routeKey: match.route.routeKey,
    rawPath: routed.rawPath,
    rawQueryString: routed.rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(query !== undefined ? { queryStringParameters: query } : {}),
    ...(Object.keys(match.pathParameters).length > 0 ? { pathParameters: { ...match.pathParameters } } : {}),
    ...(stageVariables !== undefined ? { stageVariables: { ...stageVariables } } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: routed.api.apiId,
      ...v2EventAuthorizer(routed.authorization),
      domainName,
      domainPrefix: domainName.split('.')[0].split(':')[0],
      http: {
        method: request.method.toUpperCase(),
        path: routed.rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: ownGet(headers, 'user-agent') ?? '',
      },
      requestId: routed.requestId,
      routeKey: match.route.routeKey,
      stage: routed.stage,
      time: requestTime(routed.receivedAt),
      timeEpoch: routed.receivedAt,
    },
    ...(request.body.length > 0 ? { body: request.body.toString(text ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: request.body.length > 0 && !text,
  };
}

/** Lower-case names, repeats joined with commas; `Cookie` headers become `cookies`; the front door's headers added. */
function eventHeaders(routed: RoutedHttpRequest): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const add = (name: string, value: string) => {
    const before = ownGet(headers, name);
    ownSet(headers, name, before === undefined ? value : `${before},${value}`);
  };
  for (const [name, value] of routed.request.rawHeaders) {
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      cookies.push(...value.split(';').map((c) => c.trim()).filter((c) => c !== ''));
    } else if (!FRONT_DOOR.has(lower)) {
      add(lower, value);
    }
  }
  const forwardedFor = routed.request.rawHeaders.find(([name]) => name.toLowerCase() === 'x-forwarded-for')?.[1];
  add('x-amzn-trace-id', routed.traceId);
  add('x-forwarded-for', forwardedFor ? `${forwardedFor}, ${routed.request.sourceIp}` : routed.request.sourceIp);
  add('x-forwarded-port', String(routed.request.port ?? 80));
  add('x-forwarded-proto', 'http');
  return { headers, cookies };
}

/** Headers the service sets itself on the way in. */
const FRONT_DOOR = new Set(['x-amzn-trace-id', 'x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto']);

/** Decoded parameters, repeats joined with commas; undefined when there are none. */
function queryParameters(raw: string): Record<string, string> | undefined {
  const parsed = parseQuery(raw);
  if (parsed.count === 0) {
    return undefined;
  }
  const joined: Record<string, string> = {};
  for (const [name, values] of Object.entries(parsed.multi)) {
    ownSet(joined, name, values.join(','));
  }
  return joined;
}
