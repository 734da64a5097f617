/**
 * A route's `RouteKey` read into a method and path segments: `GET /items/{id}`, `ANY /{proxy+}`,
 * `$default` (the catch-all). A greedy variable must end the path (as the service requires).
 */
import type { RouteSegment } from '../../model/http-api';

export type RouteKey =
  | { readonly method?: string; readonly segments: readonly RouteSegment[] }
  | { readonly problem: string };

const METHODS = new Set(['ANY', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

export function parseRouteKey(routeKey: string): RouteKey {
  if (routeKey === '$default') {
    return { segments: [] };
  }
  const match = /^(\S+) (\/\S*)$/.exec(routeKey);
  if (match === null || !METHODS.has(match[1])) {
    return { problem: `route key ${JSON.stringify(routeKey)} is not '$default' or 'METHOD /path' (METHOD one of ${[...METHODS].join(', ')})` };
  }
  const parts = match[2].split('/').filter((part) => part !== '');
  const segments: RouteSegment[] = [];
  for (const [i, part] of parts.entries()) {
    const variable = /^\{([^{}+]+)(\+?)\}$/.exec(part);
    if (variable === null) {
      segments.push({ kind: 'literal', text: part });
    } else if (variable[2] === '+') {
      if (i !== parts.length - 1) {
        return { problem: `route key ${JSON.stringify(routeKey)}: a greedy path variable must end the path` };
      }
      segments.push({ kind: 'greedy', name: variable[1] });
    } else {
      segments.push({ kind: 'param', name: variable[1] });
    }
  }
  return { method: match[1], segments };
}
