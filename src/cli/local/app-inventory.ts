/**
 * Every API, function URL and function of an app as `test-invoke` lists them: the APIs it can
 * test, then what is not served, with why.
 */
import type { LocalApp } from './model/local-app';
import { ApiSpec, isRestApi } from './model/rest-api';
import { unservedLines } from './server/unserved-listing';

/** The APIs `test-invoke --api` can pick, one line each, then the `Not served` lines. */
export function appInventoryLines(app: LocalApp): string[] {
  const apis = app.apis.map(inventoryLine);
  return [
    apis.length > 0 ? `Served (${apis.length}):` : 'Served: no REST API',
    ...apis,
    ...unservedLines(app.unserved),
  ];
}

/** A REST API with what `--api` takes; an HTTP API, which `serve` serves and test-invoke does not run yet. */
function inventoryLine(api: ApiSpec): string {
  const stages = api.stages.length > 0 ? `: stages ${api.stages.join(', ')}` : '';
  const where = api.constructPath ?? `${api.stackName}/${api.logicalId}`;
  return isRestApi(api)
    ? `  REST API  ${api.name} (${where}, --api ${api.logicalId})${stages}`
    : `  HTTP API  ${api.name} (${where})${stages} (served by serve; test-invoke runs REST APIs only)`;
}
