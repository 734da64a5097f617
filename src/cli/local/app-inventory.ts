/**
 * Every API, function URL and function of an app as `test-invoke` lists them: the APIs it can
 * test, then what is not served, with why.
 */
import type { LocalApp } from './model/local-app';
import { ApiSpec, isRestApi } from './model/rest-api';
import { unservedLines } from './server/unserved-listing';

/** The APIs `test-invoke --api` can pick, one line each, then the `Not served` lines. */
export function appInventoryLines(app: LocalApp): string[] {
  const apis = app.apis.flatMap(inventoryLines);
  return [
    app.apis.length > 0 ? `Served (${app.apis.length}):` : 'Served: no REST or HTTP API',
    ...apis,
    ...unservedLines(app.unserved),
  ];
}

/** An API with what `--api` takes; an HTTP API's routes below it, as `--route` takes them. */
function inventoryLines(api: ApiSpec): string[] {
  const stages = api.stages.length > 0 ? `: stages ${api.stages.join(', ')}` : '';
  const where = api.constructPath ?? `${api.stackName}/${api.logicalId}`;
  if (api.kind === 'FUNCTION_URL') {
    return [`  function URL  ${where}: ${api.authType}, ${api.invokeMode} (call its URL under serve; test-invoke does not)`];
  }
  if (isRestApi(api)) {
    return [`  REST API  ${api.name} (${where}, --api ${api.logicalId})${stages}`];
  }
  if (api.kind === 'WEBSOCKET') {
    // Served by serve and sandbox; test-invoke runs REST and HTTP APIs only.
    return [`  WebSocket API  ${api.name} (${where})${stages}: served by serve, not by test-invoke`];
  }
  const routes = api.routes.map((r) => `    --route "${r.routeKey}"`);
  return [`  HTTP API  ${api.name} (${where}, --api ${api.logicalId})${stages}`, ...routes];
}
