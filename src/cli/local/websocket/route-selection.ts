/**
 * The route of a message: the API's `RouteSelectionExpression` (`$request.body.action`,
 * `${request.body.a.b}`) evaluated on the message parsed as JSON, matched against the route keys;
 * a message that is not JSON, lacks the property, or names no route goes to `$default` (undefined
 * when the API has none: the client is told `Forbidden`).
 */
import type { WebSocketApiSpec, WebSocketRouteSpec } from '../model/websocket-api';

const BODY_PATH = /^\$\{?request\.body\.([A-Za-z0-9_$.-]+?)\}?$/;

export function selectRoute(api: WebSocketApiSpec, message: string): WebSocketRouteSpec | undefined {
  const key = selectionValue(api.routeSelectionExpression, message);
  const custom = key === undefined || key.startsWith('$') ? undefined : api.routes.find((r) => r.routeKey === key);
  return custom ?? api.routes.find((r) => r.routeKey === '$default');
}

/** The expression's value for `message` as a route key; undefined when it has none. */
export function selectionValue(expression: string, message: string): string | undefined {
  const path = BODY_PATH.exec(expression.trim())?.[1];
  if (path === undefined) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, part)) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}
