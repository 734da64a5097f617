/**
 * One REST API's request pipeline, as API Gateway runs it. Each step is a file of ./pipeline:
 *
 *   limits -> route -> authorize (the method's authorizer kind) -> api-key -> throttle -> validate-request
 *   -> integrate (the method's integration kind) -> map-response
 *
 * A step either lets the request go on or answers it (a gateway error, rendered with the API's
 * gateway responses). The HTTP server and `test-invoke` both drive this pipeline; neither knows
 * these rules.
 */
import { apigwId, requestId as newRequestId, traceId as newTraceId } from '../common/ids';
import { requireApiKey } from './pipeline/api-key';
import { authorize } from './pipeline/authorize';
import { ExecutionLog } from './pipeline/execution-log';
import { GatewayError, isGatewayError } from './pipeline/gateway-errors';
import { integrate } from './pipeline/integrate';
import { checkLimits } from './pipeline/limits';
import { mapResponse } from './pipeline/map-response';
import { renderError } from './pipeline/render-error';
import { GatewayRequest, GatewayResponse, GatewaySettings, ReceivedRequest, RequestHeaders, RequestIds, RoutedRequest } from './pipeline/request';
import { routeRequest } from './pipeline/route';
import { throttle } from './pipeline/throttle';
import { validateRequest } from './pipeline/validate-request';
import { parseQuery } from '../common/query-string';

export { ExecutionLog, mask } from './pipeline/execution-log';
export { MAX_BODY_BYTES, tooLarge } from './pipeline/render-error';
export type { GatewayRequest, GatewayResponse, GatewaySettings } from './pipeline/request';
export { TEST_INVOKE_STAGE } from './pipeline/route';

/** A step after routing: undefined lets the request go on. */
type RoutedStep = (routed: RoutedRequest) => GatewayError | undefined | Promise<GatewayError | undefined>;

/** The steps between routing and the integration, in order. */
const CHECKS: readonly RoutedStep[] = [authorize, requireApiKey, throttle, validateRequest];

export class LocalGateway {
  constructor(public readonly settings: GatewaySettings) {}

  async handle(request: GatewayRequest, log?: ExecutionLog): Promise<GatewayResponse> {
    const received = receive(this.settings, request, log);
    const refused = checkLimits(received);
    if (refused !== undefined) {
      return refused;
    }
    const routed = routeRequest(received);
    if (isGatewayError(routed)) {
      return renderError(this.settings.api, received.ids, routed, received);
    }
    for (const check of CHECKS) {
      const outcome = check(routed);
      // Synchronous steps are not awaited: a microtask per step per request adds up.
      const error = outcome instanceof Promise ? await outcome : outcome;
      if (error !== undefined) {
        return this.fail(routed, error);
      }
    }
    const integrated = integrate(routed);
    const result = integrated instanceof Promise ? await integrated : integrated;
    if (isGatewayError(result)) {
      return this.fail(routed, result);
    }
    const mapped = mapResponse(routed, result);
    const response = mapped instanceof Promise ? await mapped : mapped;
    log?.add(`Method completed with status: ${response.statusCode}`);
    return response;
  }

  private async fail(routed: RoutedRequest, error: GatewayError): Promise<GatewayResponse> {
    const rendered = renderError(this.settings.api, routed.ids, error, routed);
    const response = rendered instanceof Promise ? await rendered : rendered;
    routed.log?.add(`Method completed with status: ${response.statusCode}`);
    return response;
  }
}

function newIds(): RequestIds {
  const traceId = newTraceId();
  return { requestId: newRequestId(), apigwId: apigwId(), traceId, integrationTraceId: traceId };
}

function receive(settings: GatewaySettings, request: GatewayRequest, log: ExecutionLog | undefined): ReceivedRequest {
  const question = request.target.indexOf('?');
  const rawQuery = question < 0 ? '' : request.target.slice(question + 1);
  return {
    settings,
    request,
    ids: newIds(),
    receivedAt: Date.now(),
    rawPath: question < 0 ? request.target : request.target.slice(0, question),
    rawQuery,
    headers: new RequestHeaders(request.rawHeaders),
    query: parseQuery(rawQuery),
    log,
  };
}
