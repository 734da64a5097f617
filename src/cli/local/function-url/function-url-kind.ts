/**
 * Lambda function URLs (`AWS::Lambda::Url`) as an API kind: read by function-url-reader.ts, served
 * by function-url-handler.ts, each on a port of its own at the root (its one stage is `$default`).
 */
import { urlAnswer } from './function-url-answers';
import { FunctionUrlHandler } from './function-url-handler';
import { readFunctionUrls } from './function-url-reader';
import type { ApiKind, RouteRow } from '../api-kind/api-kind';
import { MAX_REQUEST_PAYLOAD_BYTES } from '../lambda/limits';
import type { FunctionUrlSpec } from '../model/function-url';
import type { ApiSpec } from '../model/rest-api';

export const FUNCTION_URL_KIND: ApiKind = {
  kind: 'FUNCTION_URL',
  readApis: readFunctionUrls,
  serving() {
    return { handler: (api, context) => new FunctionUrlHandler(functionUrl(api), context) };
  },
  routeRows: (api, _stage, stageUrl, functionLabel): RouteRow[] => {
    const url = functionUrl(api);
    return [{ method: 'ANY', url: stageUrl, target: functionLabel(url.functionKey), checks: checksOf(url) }];
  },
  routes: (_api, stageUrl) => [`ANY ${stageUrl}`],
  // The invocation payload limit: the event is at least the body's size ("Lambda quotas", 6 MB synchronous).
  maxBodyBytes: MAX_REQUEST_PAYLOAD_BYTES,
  tooLarge: (requestId) => urlAnswer('tooLarge', requestId),
  userPools: () => ({ uses: false, pools: [] }),
};

/** The listing's checks column: the auth type, the invoke mode, CORS. */
function checksOf(url: FunctionUrlSpec): string[] {
  return [
    `function URL ${url.authType}`,
    url.invokeMode,
    ...(url.cors !== undefined ? ['CORS'] : []),
    ...(url.qualifier !== undefined ? [`qualifier ${url.qualifier} (runs the template's code)`] : []),
  ];
}

function functionUrl(api: ApiSpec): FunctionUrlSpec {
  if (api.kind !== 'FUNCTION_URL') {
    throw new Error(`${api.stackName}/${api.logicalId} is not a function URL`);
  }
  return api;
}
