/**
 * A WebSocket API in the console's resource pane: its routes under `/` (each route key in the
 * method column, with what answers it), and the console's question "which route does this message
 * take?", answered by the gateway's own route selection so that the WebSocket panel shows the route
 * each message took.
 */
import type { ConsoleResource } from './console-resource';
import type { FunctionSpec } from '../../model/function-spec';
import type { WebSocketApiSpec } from '../../model/websocket-api';
import { targetOf } from '../../websocket/route-listing';
import { selectRoute } from '../../websocket/route-selection';

export function webSocketRouteTree(api: WebSocketApiSpec, functions: ReadonlyMap<string, FunctionSpec>): ConsoleResource {
  return {
    path: '/',
    pathPart: '',
    methods: api.routes.map((route) => ({
      httpMethod: route.routeKey,
      authorizationType: route.authorizationType,
      apiKeyRequired: false,
      integration: targetOf(route, (key) => functionName(key, functions)),
    })),
    children: [],
  };
}

/** The route key a message takes; null when no route takes it (the client is told `Forbidden`). */
export function routeOfMessage(api: WebSocketApiSpec, message: string): string | null {
  return selectRoute(api, message)?.routeKey ?? null;
}

function functionName(key: string, functions: ReadonlyMap<string, FunctionSpec>): string {
  const fn = functions.get(key);
  return fn === undefined ? key : fn.constructPath ?? `${fn.stackName}/${fn.logicalId}`;
}
