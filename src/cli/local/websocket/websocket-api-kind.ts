/**
 * WebSocket APIs (API Gateway v2, `ProtocolType: WEBSOCKET`) as an API kind: read by
 * reader/websocket-api-reader.ts, served by websocket-gateway.ts (connections on the upgrade, the
 * `@connections` management API on plain requests), listed by route-listing.ts.
 */
import { ConnectionRegistry } from './connection';
import type { ApiKind } from '../api-kind/api-kind';
import { apigwId } from '../common/ids';
import type { ApiSpec } from '../model/rest-api';
import type { UnservedPart } from '../model/unserved-part';
import type { WebSocketApiSpec } from '../model/websocket-api';
import { readWebSocketApis } from './reader/websocket-api-reader';
import { webSocketRouteRows, webSocketRoutes } from './route-listing';
import { WebSocketGateway } from './websocket-gateway';
import { webSocketLimits } from './websocket-limits';

export const WEBSOCKET_API_KIND: ApiKind = {
  kind: 'WEBSOCKET',
  readApis: readWebSocketApis,
  serving() {
    const connections = new ConnectionRegistry();
    const limits = webSocketLimits(process.env);
    const latest = new Map<string, WebSocketApiSpec>();
    return {
      handler: (api, context) => new WebSocketGateway(webSocketApi(api), context, { connections, limits, latest }),
      close: () => connections.terminateAll(),
    };
  },
  routeRows: (api, _stage, stageUrl, functionLabel) => webSocketRouteRows(webSocketApi(api), stageUrl, functionLabel),
  routes: (api, stageUrl) => webSocketRoutes(webSocketApi(api), stageUrl),
  // A management API call carries at most one message (128 KB); the server's cap is the quota's.
  maxBodyBytes: webSocketLimits(process.env).maxMessageBytes,
  upgradesAndTls: true,
  tooLarge: (requestId = apigwId()) => ({
    statusCode: 413,
    headers: [['x-amzn-ErrorType', 'PayloadTooLargeException'], ['Content-Type', 'application/json'], ['x-amzn-RequestId', requestId]],
    body: JSON.stringify({ message: 'Request Entity Too Large' }),
    requestId,
  }),
  userPools: () => ({ uses: false, pools: [] }),
  unservedParts: (api) => unservedRoutes(webSocketApi(api)),
};

function unservedRoutes(api: WebSocketApiSpec): UnservedPart[] {
  return api.routes.filter((route) => route.integration.type === 'UNSUPPORTED').map((route) => ({
    kind: 'WebSocket API route',
    stackName: api.stackName,
    logicalId: route.logicalId,
    label: `${api.constructPath ?? `${api.stackName}/${api.logicalId}`} ${route.routeKey}`,
    reason: route.integration.type === 'UNSUPPORTED' ? `${route.integration.description} (the client gets Internal server error)` : '',
  }));
}

function webSocketApi(api: ApiSpec): WebSocketApiSpec {
  if (api.kind !== 'WEBSOCKET') {
    throw new Error(`${api.stackName}/${api.logicalId} is not a WebSocket API`);
  }
  return api;
}
