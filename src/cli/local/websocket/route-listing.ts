/**
 * The listing's rows of a WebSocket API stage: one per route (its key, the `ws://` stage URL, the
 * function, `MOCK`, or why it is not served, the `$connect` checks), then the `@connections` management API.
 */
import type { FunctionLabel, RouteRow } from '../api-kind/api-kind';
import type { WebSocketApiSpec, WebSocketRouteSpec } from '../model/websocket-api';

export function webSocketRouteRows(api: WebSocketApiSpec, stageUrl: string, functionLabel: FunctionLabel): RouteRow[] {
  const url = webSocketUrl(stageUrl);
  const rows: RouteRow[] = api.routes.map((route) => ({
    method: route.routeKey,
    url,
    target: targetOf(route, functionLabel),
    checks: [checksOf(route)],
  }));
  rows.push({ method: 'POST|GET|DELETE', url: `${stageUrl.replace(/\/$/, '')}/@connections/{connectionId}`, target: '@connections management API (also https on the same port)', checks: ['AWS_IAM'] });
  return rows;
}

export function webSocketRoutes(api: WebSocketApiSpec, stageUrl: string): string[] {
  const url = webSocketUrl(stageUrl);
  return api.routes.map((route) => `${route.routeKey} ${url}`);
}

/** `http://h:p/dev/` → `ws://h:p/dev`. */
export function webSocketUrl(stageUrl: string): string {
  return stageUrl.replace(/^http/, 'ws').replace(/\/$/, '');
}

/** The function (or `MOCK`) that answers the route, `(two-way)` when its answer goes back; or why it is not served. */
export function targetOf(route: WebSocketRouteSpec, functionLabel: FunctionLabel): string {
  const twoWay = route.twoWay ? ' (two-way)' : '';
  switch (route.integration.type) {
    case 'AWS_PROXY':
      return `${functionLabel(route.integration.functionKey)}${twoWay}`;
    case 'MOCK':
      return `MOCK${twoWay}`;
    default:
      return `not served (${route.integration.description})`;
  }
}

function checksOf(route: WebSocketRouteSpec): string {
  if (route.authorizationType === 'CUSTOM') {
    return `CUSTOM ${route.authorizer?.name ?? '(not in the template)'}`;
  }
  return route.authorizationType;
}
