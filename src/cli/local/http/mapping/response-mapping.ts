/**
 * An integration's `ResponseParameters` applied to its answer: the mappings of the answer's status
 * code (the selection key), with values read from `response.header.<name>`, `response.body` and
 * `response.body.<JSON path>`, `context.<variable>` and `stageVariables.<name>`; headers appended,
 * overwritten or removed and `overwrite:statuscode` setting the status the client gets. The
 * gateway's own answers (a failed integration's 500, 503) are not mapped.
 */
import { selectFromBody } from './json-path';
import { evaluateMappingValue, MappingSource } from './mapping-value';
import { commonSource, joinedHeader } from './request-sources';
import type { ApiResponse } from '../../api-kind/api-kind';
import { ownGet } from '../../common/own-record';
import type { HttpParameterMapping } from '../../model/http-mapping';
import type { RoutedHttpRequest } from '../routed-request';

export function mapResponse(routed: RoutedHttpRequest, mapping: HttpParameterMapping, response: ApiResponse): ApiResponse {
  const entries = ownGet(mapping.response, String(response.statusCode));
  if (entries === undefined || entries.length === 0) {
    return response;
  }
  const source = responseSource(routed, response);
  let headers = [...response.headers];
  let statusCode = response.statusCode;
  for (const entry of entries) {
    const value = entry.action === 'remove' ? '' : evaluateMappingValue(entry.value, source);
    const { target } = entry;
    if (target.kind === 'statuscode') {
      statusCode = statusOf(value) ?? statusCode;
    } else if (target.kind === 'header' && (entry.action === 'remove' || value !== '')) {
      const lower = target.name.toLowerCase();
      const kept = entry.action === 'append' ? headers : headers.filter(([n]) => n.toLowerCase() !== lower);
      headers = entry.action === 'remove' ? kept : [...kept, [target.name, value]];
    }
  }
  return { ...response, statusCode, headers };
}

function responseSource(routed: RoutedHttpRequest, response: ApiResponse): MappingSource {
  return (name) => {
    if (name.startsWith('response.header.')) {
      return joinedHeader(response.headers, name.slice('response.header.'.length));
    }
    if (name === 'response.body' || name.startsWith('response.body.') || name.startsWith('response.body[')) {
      return selectFromBody(response.body, name.slice('response.body'.length));
    }
    return commonSource(routed, name);
  };
}

/** A status code of 100-599 from the mapped text; undefined otherwise (the answer keeps its own). */
function statusOf(text: string): number | undefined {
  return /^[1-5]\d\d$/.test(text.trim()) ? Number(text.trim()) : undefined;
}
