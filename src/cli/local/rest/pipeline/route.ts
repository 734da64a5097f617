/**
 * Step: find the stage, the resource and the method. No such stage is the front door's 403
 * "Forbidden"; a stage where no resource and method match is API Gateway's 403 "Missing
 * Authentication Token". Logs the method request.
 */
import { withGatewayParent } from '../../common/ids';
import { safeDecode } from '../../common/percent-decoding';
import { pathSegments, route } from '../router';
import { javaMap, maskedHeaders } from './execution-log';
import { GatewayError, MISSING_AUTHENTICATION_TOKEN, UNKNOWN_STAGE } from './gateway-errors';
import type { ReceivedRequest, RequestIds, RoutedRequest } from './request';

/** The stage name the console's TEST uses. */
export const TEST_INVOKE_STAGE = 'test-invoke-stage';

export function routeRequest(received: ReceivedRequest): RoutedRequest | GatewayError {
  const { settings, request, log } = received;
  let stage: string;
  let below: string;
  if (settings.testInvoke) {
    stage = TEST_INVOKE_STAGE;
    below = received.rawPath === '' ? '/' : received.rawPath;
  } else {
    // Slashes before the stage are ignored (recorded: `//prod/items` is `/prod/items`).
    const m = /^\/+([^/]+)(\/.*)?$/.exec(received.rawPath);
    if (!m || !settings.api.stages.includes(m[1])) {
      return UNKNOWN_STAGE;
    }
    stage = m[1];
    below = m[2] ?? '/';
  }
  const raw = pathSegments(below);
  const match = route(settings.api.root, request.method, raw);
  if (match === undefined) {
    log?.add(`Execution failed: no resource and method match ${request.method} ${below}`);
    return MISSING_AUTHENTICATION_TOKEN;
  }
  log?.add(`Starting execution for request: ${received.ids.requestId}`);
  log?.add(`HTTP Method: ${request.method.toUpperCase()}, Resource Path: ${match.resource.path}`);
  log?.add(`Method request path: ${javaMap(Object.entries(match.pathParameters))}`);
  log?.add(`Method request query string: ${javaMap(Object.entries(received.query.single))}`);
  log?.add(`Method request headers: ${maskedHeaders(request.rawHeaders)}`);
  log?.add(`Method request body before transformations: ${request.body.toString('utf8')}`);
  // Listed field by field (not spread): this runs for every request.
  return {
    settings,
    request,
    ids: tracedIds(received),
    receivedAt: received.receivedAt,
    rawPath: received.rawPath,
    rawQuery: received.rawQuery,
    headers: received.headers,
    query: received.query,
    log,
    stage,
    pathBelowStage: below,
    segments: decodedSegments(raw),
    route: match,
    identity: null,
  };
}

/** The non-empty segments, percent-decoded. */
function decodedSegments(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const segment of raw) {
    if (segment !== '') {
      out.push(safeDecode(segment));
    }
  }
  return out;
}

/**
 * The request's ids with the client's `X-Amzn-Trace-Id`, when it sent one: API Gateway adds a trace
 * header only to requests that have none ("Amazon API Gateway active tracing support for AWS X-Ray"),
 * and a client's `Parent` reaches the integration as the gateway's own segment (recorded).
 */
function tracedIds(received: ReceivedRequest): RequestIds {
  const incoming = received.headers.get('x-amzn-trace-id');
  return incoming === undefined || incoming === ''
    ? received.ids
    : { ...received.ids, traceId: incoming, integrationTraceId: withGatewayParent(incoming) };
}
