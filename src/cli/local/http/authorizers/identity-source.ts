/**
 * The values of an authorizer's identity sources in a request: `$request.header.NAME` (names
 * without case, repeats joined with commas) and `$request.querystring.NAME`; `$context.*` and
 * `$stageVariables.NAME` are read from what the request has. A source with no value is missing: the
 * gateway refuses such a request before any authorizer runs.
 */
import { parseQuery } from '../../common/query-string';
import { RoutedHttpRequest, stageVariablesOf } from '../routed-request';

/** The value of each source, or the first source that has none. */
export function identityValues(routed: RoutedHttpRequest, sources: readonly string[]): { values: string[] } | { missing: string } {
  const values: string[] = [];
  for (const source of sources) {
    const value = sourceValue(routed, source);
    if (value === undefined || value === '') {
      return { missing: source };
    }
    values.push(value);
  }
  return { values };
}

function sourceValue(routed: RoutedHttpRequest, source: string): string | undefined {
  const [scope, kind, ...rest] = source.split('.');
  const name = rest.join('.');
  if (scope === '$request' && kind === 'header') {
    const found = routed.request.rawHeaders.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
    return found.length > 0 ? found.join(',') : undefined;
  }
  if (scope === '$request' && kind === 'querystring') {
    const { multi } = parseQuery(routed.rawQueryString);
    return Object.prototype.hasOwnProperty.call(multi, name) ? multi[name].join(',') : undefined;
  }
  if (scope === '$stageVariables') {
    const variables = stageVariablesOf(routed) ?? {};
    return Object.prototype.hasOwnProperty.call(variables, kind) ? variables[kind] : undefined;
  }
  if (scope === '$context') {
    return contextValue(routed, [kind, ...rest].join('.'));
  }
  return undefined;
}

/** The context variables an identity source may name that the request has locally. */
function contextValue(routed: RoutedHttpRequest, name: string): string | undefined {
  switch (name) {
    case 'requestId':
      return routed.requestId;
    case 'stage':
      return routed.stage;
    case 'routeKey':
      return routed.match.route.routeKey;
    case 'identity.sourceIp':
      return routed.request.sourceIp;
    default:
      return undefined;
  }
}
