/**
 * `test-invoke` on an HTTP API: one request through the same gateway `serve` runs (stage, route,
 * throttling, parameter mapping, integration, CORS), without a server. The service has no TEST for
 * HTTP APIs, so this is the local API's own: the request goes to the stage `--stage` names, else
 * the `$default` stage, else the API's first; the log holds the route it took and the gateway's
 * notes (why it refused). Routes with an authorizer answer as `serve` answers them.
 */
import { HttpGateway } from './http-gateway';
import { matchRoute } from './router';
import type { HandlerContext } from '../api-kind/api-kind';
import { headerMaps } from '../api-kind/header-maps';
import { LocalApiError } from '../common/local-api-error';
import type { HttpApiSpec } from '../model/http-api';
import type { TestInvokeRequest, TestInvokeResult } from '../rest/test-invoke-run';

/** The source address a test-invoke request comes from. */
const TEST_INVOKE_SOURCE_IP = '127.0.0.1';

export type HttpTestInvokeContext = Omit<HandlerContext, 'note'>;

export async function runHttpTestInvoke(
  api: HttpApiSpec, context: HttpTestInvokeContext, request: TestInvokeRequest, stage?: string,
): Promise<TestInvokeResult> {
  const stageName = stageOf(api, stage);
  const notes: string[] = [];
  const gateway = new HttpGateway(api, { ...context, note: (_id, text) => notes.push(text) });
  const target = `${stageName === '$default' ? '' : `/${stageName}`}${request.target}`;
  const started = Date.now();
  const response = await gateway.handle({
    method: request.method.toUpperCase(),
    target,
    rawHeaders: [['Host', 'localhost'], ...request.rawHeaders],
    body: Buffer.from(request.body, 'utf8'),
    sourceIp: TEST_INVOKE_SOURCE_IP,
  });
  const latency = Date.now() - started;
  const { headers, multiValueHeaders } = headerMaps(response.headers);
  return {
    request: `${request.method.toUpperCase()} ${target}`,
    status: response.statusCode,
    latency,
    body: typeof response.body === 'string' ? response.body : response.body.toString('utf8'),
    headers,
    multiValueHeaders,
    log: [`Request ${response.requestId}: stage ${stageName}, ${routeLine(api, request)}`, ...notes].join('\n'),
  };
}

/**
 * `--route "GET /items"`: the method, and the path when the route has no path variables; a route
 * with variables, or `$default`, needs `--path`. Undefined parts are left to the caller.
 */
export function routeRequestParts(api: HttpApiSpec, routeKey: string): { method?: string; path?: string } {
  const route = api.routes.find((r) => r.routeKey === routeKey.trim().replace(/\s+/, ' '));
  if (route === undefined) {
    throw new LocalApiError(`no route '${routeKey}' in HTTP API ${api.name}; routes: ${api.routes.map((r) => r.routeKey).join(', ') || '(none)'}`);
  }
  const path = route.routeKey.slice(route.routeKey.indexOf(' ') + 1);
  const literal = route.method !== undefined && !path.includes('{');
  return { ...(route.method !== undefined && route.method !== 'ANY' ? { method: route.method } : {}), ...(literal ? { path } : {}) };
}

/** The route the request takes, for the log. */
function routeLine(api: HttpApiSpec, request: TestInvokeRequest): string {
  const below = request.target.split('?')[0];
  const match = matchRoute(api.routes, request.method.toUpperCase(), below.split('/').filter((s) => s !== ''));
  return match === undefined ? 'no route matches' : `route ${match.route.routeKey}`;
}

function stageOf(api: HttpApiSpec, stage: string | undefined): string {
  if (stage !== undefined) {
    if (!api.stages.includes(stage)) {
      throw new LocalApiError(`HTTP API ${api.name} has no stage '${stage}'; stages: ${api.stages.join(', ') || '(none)'}`);
    }
    return stage;
  }
  if (api.stages.length === 0) {
    throw new LocalApiError(`HTTP API ${api.name} has no stage; it is not served`);
  }
  return api.stages.includes('$default') ? '$default' : api.stages[0];
}
