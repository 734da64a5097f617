/**
 * HTTP APIs (API Gateway v2, `ProtocolType: HTTP`) as an API kind: read by
 * reader/http-api-reader.ts, served by http-gateway.ts, listed by route-listing.ts.
 */
import { jwtUserPools } from './authorizers/jwt-user-pools';
import { isAuthorizationServed, notServedReason } from './authorizers/route-authorization';
import { gatewayAnswer } from './gateway-answers';
import { HttpGateway } from './http-gateway';
import { readHttpApis } from './reader/http-api-reader';
import { httpRouteRows, httpRoutes } from './route-listing';
import type { ApiKind } from '../api-kind/api-kind';
import type { HttpApiSpec } from '../model/http-api';
import type { ApiSpec } from '../model/rest-api';
import type { UnservedPart } from '../model/unserved-part';

/** The payload quota of HTTP APIs: 10 MB ("Amazon API Gateway quotas for configuring and running an HTTP API"). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export const HTTP_API_KIND: ApiKind = {
  kind: 'HTTP',
  readApis: readHttpApis,
  serving() {
    return { handler: (api, context) => new HttpGateway(httpApi(api), context) };
  },
  routeRows: (api, _stage, stageUrl, functionLabel, env) => httpRouteRows(httpApi(api), stageUrl, functionLabel, env),
  routes: (api, stageUrl) => httpRoutes(httpApi(api), stageUrl),
  maxBodyBytes: MAX_BODY_BYTES,
  tooLarge: (requestId) => gatewayAnswer('tooLarge', requestId),
  userPools: (api) => jwtUserPools(httpApi(api)),
  unservedParts: (api) => unservedRoutes(httpApi(api)),
};

/** The routes whose authorizer is not served, each with why. */
function unservedRoutes(api: HttpApiSpec): UnservedPart[] {
  return api.routes.filter((route) => !isAuthorizationServed(route)).map((route) => ({
    kind: 'HTTP API route',
    stackName: api.stackName,
    logicalId: route.logicalId,
    label: `${api.constructPath ?? `${api.stackName}/${api.logicalId}`} ${route.routeKey}`,
    reason: `${notServedReason(route)} (the route answers 500)`,
  }));
}

function httpApi(api: ApiSpec): HttpApiSpec {
  if (api.kind !== 'HTTP') {
    throw new Error(`${api.stackName}/${api.logicalId} is not an HTTP API`);
  }
  return api;
}
