/**
 * A WebSocket API (API Gateway v2, `ProtocolType: WEBSOCKET`) as the local API reads it from the
 * template: its route selection expression, its routes (each with its integration, whether it
 * answers the client, and the `$connect` route's authorization) and its stages.
 */
import type { ApiIdentity } from './api-identity';
import type { HttpLambdaAuthorizerSpec } from './http-authorizer';

/** A Lambda proxy (`AWS_PROXY`) integration with a function of the template. */
export interface WebSocketLambdaIntegrationSpec {
  readonly type: 'AWS_PROXY';
  readonly functionKey: string;
  readonly timeoutMs: number;
}

/** An `AWS::ApiGatewayV2::IntegrationResponse` of a non-proxy integration. */
export interface WebSocketIntegrationResponseSpec {
  /** `IntegrationResponseKey`: `$default`, or a regular expression in slashes (`/2\d\d/`) matched against the status code. */
  readonly key: string;
  /** `ResponseTemplates`: template key → template. */
  readonly responseTemplates: Readonly<Record<string, string>>;
  /** `TemplateSelectionExpression` (`${request.body.x}`, `${integration.response.statuscode}`, a static key). */
  readonly templateSelectionExpression?: string;
}

/**
 * A `MOCK` integration (`WebSocketMockIntegration`): the request template chosen by the template
 * selection expression names the status code; the integration response of that code renders what a
 * two-way route sends back.
 */
export interface WebSocketMockIntegrationSpec {
  readonly type: 'MOCK';
  /** `RequestTemplates`: template key (`$default`, or a value of the selection expression) → template. */
  readonly requestTemplates: Readonly<Record<string, string>>;
  /** `TemplateSelectionExpression` (`${request.body.x}` or a static key); absent: `$default`. */
  readonly templateSelectionExpression?: string;
  readonly responses: readonly WebSocketIntegrationResponseSpec[];
}

/** An integration not served locally (`HTTP`, `HTTP_PROXY`, `AWS`, a function outside the template), and why. */
export interface WebSocketUnservedIntegrationSpec {
  readonly type: 'UNSUPPORTED';
  /** What the listing calls it (`MOCK integration`). */
  readonly description: string;
}

export type WebSocketIntegrationSpec = WebSocketLambdaIntegrationSpec | WebSocketMockIntegrationSpec | WebSocketUnservedIntegrationSpec;

/** An `AWS::ApiGatewayV2::Route` of a WebSocket API. */
export interface WebSocketRouteSpec {
  readonly logicalId: string;
  /** `$connect`, `$disconnect`, `$default` or a custom key (`sendmessage`). */
  readonly routeKey: string;
  /** `AuthorizationType` (`$connect` only): `NONE`, `CUSTOM` or `AWS_IAM`. */
  readonly authorizationType: string;
  /** The `$connect` route's Lambda `REQUEST` authorizer, when the template defines it. */
  readonly authorizer?: HttpLambdaAuthorizerSpec;
  readonly integration: WebSocketIntegrationSpec;
  /** The route has a `$default` RouteResponse: the integration's answer goes back to the client (two-way route). */
  readonly twoWay: boolean;
}

/** An `AWS::ApiGatewayV2::Api` with `ProtocolType: WEBSOCKET` and what hangs off it. */
export interface WebSocketApiSpec extends ApiIdentity {
  readonly kind: 'WEBSOCKET';
  /** `RouteSelectionExpression`, e.g. `$request.body.action`. */
  readonly routeSelectionExpression: string;
  readonly routes: readonly WebSocketRouteSpec[];
}
