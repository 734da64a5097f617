/**
 * What a request's mapping values read: `request.header.<name>` (case-insensitive, repeats joined
 * with commas), `request.querystring.<name>` (case-sensitive, repeats joined with commas),
 * `request.body` and `request.body.<JSON path>`, `request.path` (below the stage) and
 * `request.path.<name>`, `context.<variable>` and `stageVariables.<name>`.
 */
import { selectFromBody } from './json-path';
import type { MappingSource } from './mapping-value';
import { ownGet } from '../../common/own-record';
import { parseQuery } from '../../common/query-string';
import { contextVariable } from '../context-variables';
import { RoutedHttpRequest, stageVariablesOf } from '../routed-request';

export function requestSource(routed: RoutedHttpRequest): MappingSource {
  const query = parseQuery(routed.rawQueryString);
  return (name) => {
    const [root, kind, ...rest] = name.split('.');
    const key = rest.join('.');
    if (root === 'request') {
      switch (kind) {
        case 'header': return joinedHeader(routed.request.rawHeaders, key);
        case 'querystring': return ownGet(query.multi, key)?.join(',');
        case 'body': return selectFromBody(routed.request.body, name.slice('request.body'.length));
        case 'path': return key === '' ? routed.pathBelowStage : ownGet(routed.match.pathParameters, key);
        default: return undefined;
      }
    }
    return commonSource(routed, name);
  };
}

/** `context.<variable>` and `stageVariables.<name>`, which requests and responses both read. */
export function commonSource(routed: RoutedHttpRequest, name: string): string | undefined {
  if (name.startsWith('context.')) {
    return contextVariable(routed, name.slice('context.'.length));
  }
  if (name.startsWith('stageVariables.')) {
    const variables = stageVariablesOf(routed);
    return variables === undefined ? undefined : ownGet(variables, name.slice('stageVariables.'.length));
  }
  return undefined;
}

/** The header's values joined with commas; undefined when it was not sent. */
export function joinedHeader(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  const lower = name.toLowerCase();
  const values = headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
  return values.length === 0 ? undefined : values.join(',');
}
