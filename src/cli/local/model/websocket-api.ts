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

/** An integration not served locally (`MOCK`, `HTTP`, `AWS`, a function outside the template), and why. */
export interface WebSocketUnservedIntegrationSpec {
  readonly type: 'UNSUPPORTED';
  /** What the listing calls it (`MOCK integration`). */
  readonly description: string;
}

export type WebSocketIntegrationSpec = WebSocketLambdaIntegrationSpec | WebSocketUnservedIntegrationSpec;

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
