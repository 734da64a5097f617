/**
 * Every API, function URL and function of an app as `test-invoke` lists them: the APIs it can
 * test, then what is not served, with why.
 */
import type { LocalApp } from './model/local-app';
import { unservedLines } from './server/unserved-listing';

/** The APIs `test-invoke --api` can pick, one line each, then the `Not served` lines. */
export function appInventoryLines(app: LocalApp): string[] {
  const apis = app.apis.map((api) => `  REST API  ${api.name} (${api.constructPath ?? `${api.stackName}/${api.logicalId}`}, --api ${api.logicalId})${api.stages.length > 0 ? `: stages ${api.stages.join(', ')}` : ''}`);
  return [
    apis.length > 0 ? `Served (${apis.length}):` : 'Served: no REST API',
    ...apis,
    ...unservedLines(app.unserved),
  ];
}
