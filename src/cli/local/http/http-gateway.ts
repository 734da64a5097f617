/**
 * One HTTP API's requests, as the service handles them: a CORS preflight answered by the gateway
 * (cors.ts), the stage (stage-selection.ts), the route (router.ts), the stage's route throttling
 * (route-throttle.ts), the route's authorizer (authorizers/route-authorization.ts; one not served
 * answers 500, so that nothing it guards is answered without it), then the route's integration
 * with its parameter mapping (mapping/), whose answer gets the configured CORS headers.
 */
import { authorizeRoute } from './authorizers/route-authorization';
import { isPreflight, preflightAnswer, withCorsHeaders } from './cors';
import { gatewayAnswer, isGatewayAnswer } from './gateway-answers';
import { integrateAwsService } from './integrations/aws-service-integration';
import { integrateLambda } from './lambda-integration';
import { mapRequest } from './mapping/request-mapping';
import { mapResponse } from './mapping/response-mapping';
import { RouteThrottle } from './route-throttle';
import type { RoutedHttpRequest } from './routed-request';
import { matchRoute } from './router';
import { selectStage } from './stage-selection';
import { integrateUrl } from './url-integration';
import type { ApiHandler, ApiRequest, ApiResponse, HandlerContext } from '../api-kind/api-kind';
import { apigwId, requestId as newInvocationId, traceId as newTraceId } from '../common/ids';
import type { HttpApiSpec } from '../model/http-api';

export class HttpGateway implements ApiHandler {
  private readonly throttle: RouteThrottle;

  constructor(private readonly api: HttpApiSpec, private readonly context: HandlerContext) {
    this.throttle = new RouteThrottle(api.throttles ?? {});
  }

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { cors } = this.api;
    const requestId = apigwId();
    if (cors !== undefined && isPreflight(request)) {
      return preflightAnswer(cors, request, requestId);
    }
    const response = await this.answer(request, requestId);
    return cors === undefined ? response : withCorsHeaders(cors, request, response);
  }

  /** The route's answer, or the gateway's when no route takes the request or it cannot be served. */
  private async answer(request: ApiRequest, requestId: string): Promise<ApiResponse> {
    const receivedAt = Date.now();
    const routed = this.route(request, requestId, receivedAt);
    if (routed === undefined) {
      return gatewayAnswer('notFound', requestId);
    }
    const { route } = routed.match;
    const overLimits = this.throttle.take(routed.stage, route, receivedAt);
    if (overLimits !== undefined) {
      this.context.note(requestId, `${route.routeKey}: over the stage ${routed.stage}'s route throttle (rate ${overLimits.rateLimit}, burst ${overLimits.burstLimit}); answered 429`);
      return gatewayAnswer('throttled', requestId);
    }
    const authorized = await authorizeRoute(routed, this.context);
    if (!authorized.allowed) {
      return authorized.response;
    }
    return this.integrate({ ...routed, authorization: authorized.authorization });
  }

  /** The integration's answer, with its parameter mapping applied to the request and to the answer. */
  private async integrate(routed: RoutedHttpRequest): Promise<ApiResponse> {
    const { route } = routed.match;
    const { requestId } = routed;
    switch (route.integration.type) {
      case 'AWS_PROXY':
      case 'HTTP_PROXY': {
        const { mapping } = route.integration;
        const mapped = mapping === undefined ? routed : mapRequest(routed, mapping.request);
        const response = route.integration.type === 'AWS_PROXY'
          ? await integrateLambda(mapped, route.integration, this.context)
          : await integrateUrl(mapped, route.integration, this.context);
        return mapping === undefined || isGatewayAnswer(response) ? response : mapResponse(mapped, mapping, response);
      }
      case 'AWS_SERVICE':
        return integrateAwsService(routed, route.integration, this.context);
      default:
        this.context.note(requestId, `${route.routeKey}: ${route.integration.description} is not served locally; answered 500`);
        return gatewayAnswer('internalError', requestId);
    }
  }

  /** The request with its stage and route; undefined when no stage or route takes it. */
  private route(request: ApiRequest, requestId: string, receivedAt: number): RoutedHttpRequest | undefined {
    const queryAt = request.target.indexOf('?');
    const rawPath = queryAt < 0 ? request.target : request.target.slice(0, queryAt);
    const selected = selectStage(this.api, rawPath);
    if (selected === undefined) {
      return undefined;
    }
    const segments = selected.pathBelowStage.split('/').filter((s) => s !== '');
    const match = matchRoute(this.api.routes, request.method.toUpperCase(), segments);
    if (match === undefined) {
      return undefined;
    }
    return {
      api: this.api,
      request,
      match,
      stage: selected.stage,
      rawPath,
      pathBelowStage: selected.pathBelowStage,
      rawQueryString: queryAt < 0 ? '' : request.target.slice(queryAt + 1),
      requestId,
      invocationId: newInvocationId(),
      traceId: newTraceId(receivedAt),
      receivedAt,
    };
  }
}
