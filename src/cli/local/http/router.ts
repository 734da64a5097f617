/**
 * Which route of an HTTP API answers a request, as the service documents it ("Routing API
 * requests"): a full match of path and method first, path variables after literal segments, then
 * a greedy path variable (`{proxy+}`, one segment or more), then the `$default` route; for the same
 * path a route of the request's method before `ANY`. No route: undefined (404 Not Found).
 */
import { safeDecode } from '../common/percent-decoding';
import type { HttpRouteSpec, RouteSegment } from '../model/http-api';

export interface RouteMatch {
  readonly route: HttpRouteSpec;
  /** Variable name → decoded value (a greedy variable: the rest of the path, `/` kept). */
  readonly pathParameters: Readonly<Record<string, string>>;
}

/** Rank of a segment kind: a lower rank is more specific. */
const RANK: Record<RouteSegment['kind'], number> = { literal: 0, param: 1, greedy: 2 };

/** @param segments the request path below the stage, split at `/`, still percent-encoded */
export function matchRoute(routes: readonly HttpRouteSpec[], method: string, segments: readonly string[]): RouteMatch | undefined {
  let best: { match: RouteMatch; rank: number[] } | undefined;
  for (const route of routes) {
    if (route.method === undefined || (route.method !== 'ANY' && route.method !== method)) {
      continue;
    }
    const pathParameters = matchPath(route.segments, segments);
    if (pathParameters === undefined) {
      continue;
    }
    const rank = [...route.segments.map((s) => RANK[s.kind]), route.method === 'ANY' ? 1 : 0];
    if (best === undefined || moreSpecific(rank, best.rank)) {
      best = { match: { route, pathParameters }, rank };
    }
  }
  if (best !== undefined) {
    return best.match;
  }
  const fallback = routes.find((route) => route.method === undefined);
  return fallback === undefined ? undefined : { route: fallback, pathParameters: {} };
}

/** The path parameters when `segments` matches the route's path; undefined when it does not. */
function matchPath(route: readonly RouteSegment[], segments: readonly string[]): Record<string, string> | undefined {
  const parameters: Record<string, string> = {};
  for (let i = 0; i < route.length; i++) {
    const part = route[i];
    if (part.kind === 'greedy') {
      if (i >= segments.length) {
        return undefined;
      }
      parameters[part.name] = segments.slice(i).map(safeDecode).join('/');
      return parameters;
    }
    if (i >= segments.length) {
      return undefined;
    }
    if (part.kind === 'literal' ? safeDecode(segments[i]) !== part.text : segments[i] === '') {
      return undefined;
    }
    if (part.kind === 'param') {
      parameters[part.name] = safeDecode(segments[i]);
    }
  }
  return route.length === segments.length ? parameters : undefined;
}

/** Segment by segment, the first more specific kind wins; a literal or a variable outranks the end of a greedy path. */
function moreSpecific(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return a[i] < b[i];
    }
  }
  return a.length > b.length;
}
