/**
 * The parts of a payload format 2.0 event that HTTP APIs and function URLs build alike: header
 * names lower-cased, repeats joined with commas, the `Cookie` headers as `cookies`, the front
 * door's headers added; query parameters decoded, repeats joined with commas.
 */
import type { ApiRequest } from '../api-kind/api-kind';
import { ownGet, ownSet } from '../common/own-record';
import { parseQuery } from '../common/query-string';

/** Headers the service sets itself on the way in. */
const FRONT_DOOR = new Set(['x-amzn-trace-id', 'x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto']);

/**
 * The event's `headers` and `cookies`. `keepForwardedFor`: the client's own `X-Forwarded-For`
 * comes first in the one the service adds (HTTP APIs); else the service's names the client alone.
 */
export function payloadV2Headers(
  request: ApiRequest, traceId: string, keepForwardedFor: boolean,
): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const add = (name: string, value: string) => {
    const before = ownGet(headers, name);
    ownSet(headers, name, before === undefined ? value : `${before},${value}`);
  };
  for (const [name, value] of request.rawHeaders) {
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      cookies.push(...value.split(';').map((c) => c.trim()).filter((c) => c !== ''));
    } else if (!FRONT_DOOR.has(lower)) {
      add(lower, value);
    }
  }
  const forwardedFor = keepForwardedFor ? request.rawHeaders.find(([name]) => name.toLowerCase() === 'x-forwarded-for')?.[1] : undefined;
  add('x-amzn-trace-id', traceId);
  add('x-forwarded-for', forwardedFor ? `${forwardedFor}, ${request.sourceIp}` : request.sourceIp);
  add('x-forwarded-port', String(request.port ?? 80));
  add('x-forwarded-proto', 'http');
  return { headers, cookies };
}

/** Decoded parameters, repeats joined with commas; undefined when there are none. */
export function payloadV2Query(raw: string): Record<string, string> | undefined {
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
