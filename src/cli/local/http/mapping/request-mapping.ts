/**
 * An integration's `RequestParameters` applied to a request before it reaches the integration:
 * every value is read from the request as the client sent it, then headers and query string
 * parameters are appended, overwritten or removed, and `overwrite:path` replaces the path the
 * integration gets. A value that comes out empty (its source has nothing) changes nothing.
 */
import { evaluateMappingValue } from './mapping-value';
import { requestSource } from './request-sources';
import type { MappingEntry } from '../../model/http-mapping';
import type { RoutedHttpRequest } from '../routed-request';

type Header = readonly [string, string];

export function mapRequest(routed: RoutedHttpRequest, entries: readonly MappingEntry[]): RoutedHttpRequest {
  if (entries.length === 0) {
    return routed;
  }
  const source = requestSource(routed);
  let headers: Header[] = [...routed.request.rawHeaders];
  let query = routed.rawQueryString === '' ? [] : routed.rawQueryString.split('&');
  let path: string | undefined;
  for (const entry of entries) {
    const value = entry.action === 'remove' ? '' : evaluateMappingValue(entry.value, source);
    if (entry.action !== 'remove' && value === '') {
      continue;
    }
    const { target } = entry;
    if (target.kind === 'header') {
      headers = changeHeaders(headers, entry.action, target.name, value);
    } else if (target.kind === 'querystring') {
      query = changeQuery(query, entry.action, target.name, value);
    } else if (target.kind === 'path') {
      path = value.startsWith('/') ? value : `/${value}`;
    }
  }
  return {
    ...routed,
    request: { ...routed.request, rawHeaders: headers },
    rawQueryString: query.join('&'),
    ...(path === undefined ? {} : { mappedPath: path, rawPath: path }),
  };
}

function changeHeaders(headers: Header[], action: MappingEntry['action'], name: string, value: string): Header[] {
  const lower = name.toLowerCase();
  const kept = action === 'append' ? headers : headers.filter(([n]) => n.toLowerCase() !== lower);
  return action === 'remove' ? kept : [...kept, [name, value]];
}

/** Parameters are kept as sent (`name=value`, encoded); a mapped one is added encoded. */
function changeQuery(pairs: string[], action: MappingEntry['action'], name: string, value: string): string[] {
  const kept = action === 'append' ? pairs : pairs.filter((pair) => decodedName(pair) !== name);
  return action === 'remove' ? kept : [...kept, `${encodeURIComponent(name)}=${encodeURIComponent(value)}`];
}

function decodedName(pair: string): string {
  const raw = pair.split('=')[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
