/**
 * An HTTP API (API Gateway v2, `ProtocolType: HTTP`) as the local API reads it from the template:
 * its stages, and its routes, each with the integration that answers it.
 */
import type { ApiIdentity } from './api-identity';
import type { HttpAuthorizerSpec } from './http-authorizer';
import type { HttpParameterMapping, HttpStageThrottle } from './http-mapping';

/** A Lambda proxy (`AWS_PROXY`) integration with a function of the template. */
export interface HttpLambdaIntegrationSpec {
  readonly type: 'AWS_PROXY';
  readonly functionKey: string;
  /** `PayloadFormatVersion`: the event the function gets and how its answer is read. */
  readonly payloadFormatVersion: '1.0' | '2.0';
  readonly timeoutMs: number;
  /** `RequestParameters` / `ResponseParameters`, when the integration has any. */
  readonly mapping?: HttpParameterMapping;
}

/** An `HTTP_PROXY` integration to a public URL: the request forwarded, the answer relayed. */
export interface HttpUrlIntegrationSpec {
  readonly type: 'HTTP_PROXY';
  /** `IntegrationUri`, path variables left as `{name}`. */
  readonly uri: string;
  /** `IntegrationMethod` (`ANY`: the request's method). */
  readonly method: string;
  readonly timeoutMs: number;
  /** `RequestParameters` / `ResponseParameters`, when the integration has any. */
  readonly mapping?: HttpParameterMapping;
}

/**
 * A first-class AWS service integration (`AWS_PROXY` with an `IntegrationSubtype` such as
 * `SQS-SendMessage`): the action's parameters mapped from the request, the call signed and sent.
 */
export interface HttpAwsServiceIntegrationSpec {
  readonly type: 'AWS_SERVICE';
  /** `IntegrationSubtype` as the service spells it (`SQS-SendMessage`). */
  readonly subtype: string;
  /** `RequestParameters`: the action's parameter → a static value or `$request...`/`$context...`/`$stageVariables...`. */
  readonly parameters: Readonly<Record<string, string>>;
  /** The signing region: the `Region` parameter's when static, else the stack's. */
  readonly region: string;
  readonly timeoutMs: number;
}

/** An integration not served locally (every request of its routes answers 500), and why. */
export interface HttpUnservedIntegrationSpec {
  readonly type: 'UNSUPPORTED';
  /** What the listing calls it (`HTTP_PROXY through a VPC link`). */
  readonly description: string;
}

export type HttpIntegrationSpec = HttpLambdaIntegrationSpec | HttpUrlIntegrationSpec | HttpAwsServiceIntegrationSpec | HttpUnservedIntegrationSpec;

/** One segment of a route's path: `items`, `{id}` or `{proxy+}`. */
export type RouteSegment =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'greedy'; readonly name: string };

/** An `AWS::ApiGatewayV2::Route`. */
export interface HttpRouteSpec {
  readonly logicalId: string;
  /** `GET /items/{id}`, `ANY /{proxy+}` or `$default`. */
  readonly routeKey: string;
  /** `GET`, ..., `ANY`; undefined for the `$default` route. */
  readonly method?: string;
  /** The route's path split at `/` (empty for `/` and for `$default`). */
  readonly segments: readonly RouteSegment[];
  /** `AuthorizationType`: `NONE`, `JWT`, `CUSTOM` or `AWS_IAM`. */
  readonly authorizationType: string;
  /** The route's authorizer (`AuthorizerId`), when it names one of the template. */
  readonly authorizer?: HttpAuthorizerSpec;
  /** `AuthorizationScopes` (JWT routes: the token must hold one of them). */
  readonly authorizationScopes?: readonly string[];
  readonly integration: HttpIntegrationSpec;
}

/** The API's `CorsConfiguration`: the gateway answers preflights and adds these headers itself. */
export interface HttpCorsSpec {
  /** `AllowOrigins` (`*`: any). */
  readonly allowOrigins: readonly string[];
  readonly allowMethods: readonly string[];
  readonly allowHeaders: readonly string[];
  readonly exposeHeaders: readonly string[];
  /** `MaxAge` in seconds, when set. */
  readonly maxAgeSeconds?: number;
  readonly allowCredentials: boolean;
}

/** An `AWS::ApiGatewayV2::Api` with `ProtocolType: HTTP` and what hangs off it. */
export interface HttpApiSpec extends ApiIdentity {
  readonly kind: 'HTTP';
  readonly routes: readonly HttpRouteSpec[];
  /** `CorsConfiguration`; undefined when the API has none (requests pass as they are). */
  readonly cors?: HttpCorsSpec;
  /** Stage name → its route throttling; stages that throttle nothing are absent. */
  readonly throttles?: Readonly<Record<string, HttpStageThrottle>>;
}
