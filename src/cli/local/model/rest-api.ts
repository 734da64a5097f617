/**
 * A REST API (API Gateway v1) as the local API reads it from the template: resources, methods,
 * integrations, authorizers, request validation, usage plans, gateway responses.
 */
import type { ApiIdentity } from './api-identity';
import type { FunctionUrlSpec } from './function-url';
import type { HttpApiSpec } from './http-api';
import type { StandIn } from './stand-in';
import type { WebSocketApiSpec } from './websocket-api';
/** `ContentHandling` of an integration or integration response (absent: the payload passes as it is). */
export type ContentHandling = 'CONVERT_TO_TEXT' | 'CONVERT_TO_BINARY';

/** `PassthroughBehavior` of a non-proxy integration (default `WHEN_NO_MATCH`). */
export type PassthroughBehavior = 'WHEN_NO_MATCH' | 'WHEN_NO_TEMPLATES' | 'NEVER';

/** One entry of a non-proxy integration's `IntegrationResponses`. */
export interface IntegrationResponseSpec {
  readonly statusCode: number;
  /** `SelectionPattern`; undefined (or empty) for the default response. */
  readonly selectionPattern?: string;
  /** `method.response.header.X` → mapping expression (a static value is quoted: `'value'`). */
  readonly responseParameters: Readonly<Record<string, string>>;
  /** Content type → template. */
  readonly responseTemplates: Readonly<Record<string, string>>;
  readonly contentHandling?: ContentHandling;
}

/** Where a non-proxy integration sends the mapped request. */
export type NonProxyBackend =
  /** `Type: MOCK`: nothing is called; the request template's `statusCode` selects the response. */
  | { readonly kind: 'mock' }
  /** `Type: AWS` with a Lambda `.../functions/<arn>/invocations` Uri: the function runs locally. */
  | { readonly kind: 'lambda'; readonly functionKey: string }
  /** `Type: HTTP`: the Uri, with `{name}` placeholders filled from `integration.request.path.name`. */
  | { readonly kind: 'http'; readonly uri: string }
  /** `Type: AWS` to another service: `arn:aws:apigateway:<region>:<service>:action/<Action>` or `:path/<path>`. */
  | { readonly kind: 'aws'; readonly uri: string; readonly region: string };

/** A non-proxy integration (`MOCK`, `AWS`, `HTTP`): request and response mapped by templates and parameters. */
export interface NonProxyIntegrationSpec {
  readonly type: 'MOCK' | 'AWS' | 'HTTP';
  readonly backend: NonProxyBackend;
  /** What the route listing and messages call it. */
  readonly description: string;
  /** `IntegrationHttpMethod` (the method of the backend request; the method request's when absent). */
  readonly httpMethod?: string;
  /** Content type → template. */
  readonly requestTemplates: Readonly<Record<string, string>>;
  readonly passthroughBehavior: PassthroughBehavior;
  readonly contentHandling?: ContentHandling;
  /** `integration.request.header|querystring|path.X` → mapping expression. */
  readonly requestParameters: Readonly<Record<string, string>>;
  /** Values the template names but nobody passed, used in the URI, templates or parameters (listed at start). */
  readonly standIns?: readonly StandIn[];
  readonly integrationResponses: readonly IntegrationResponseSpec[];
  readonly timeoutMs: number;
}

/** An `HTTP_PROXY` integration (public endpoint): the request forwarded as it is, the response passed back as it is. */
export interface HttpProxyIntegrationSpec {
  readonly type: 'HTTP_PROXY';
  /** `Uri`, stage variables left as `${stageVariables.x}`, path parameters as `{name}`. */
  readonly uri: string;
  /** `IntegrationHttpMethod` (`ANY`: the request's method). */
  readonly httpMethod: string;
  /** `integration.request.header|querystring|path|multivalueheader|multivaluequerystring.X` → source expression. */
  readonly requestParameters: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** What the route listing and messages call it (`HTTP_PROXY ANY http://host/{proxy}`). */
  readonly description: string;
  /** Values the template names but nobody passed, used in the request parameters (listed at start). */
  readonly standIns?: readonly StandIn[];
  /** `ResponseTransferMode: STREAM`: the endpoint's response goes to the client as it comes. */
  readonly streamed?: true;
}

/** A Lambda proxy (`AWS_PROXY`) integration with a function of the template. */
export interface LambdaProxyIntegrationSpec {
  readonly type: 'AWS_PROXY';
  readonly functionKey: string;
  readonly timeoutMs: number;
  /** `IntegrationHttpMethod` when it is not `POST` (Lambda is invoked with POST only: every request answers 500). */
  readonly integrationHttpMethod?: string;
  /** `ResponseTransferMode: STREAM`: the function's response stream goes to the client as written. */
  readonly streamed?: true;
}

/** An integration that is not served locally (every request answers 500), and why. */
export interface UnsupportedIntegrationSpec {
  readonly type: 'UNSUPPORTED';
  /** What the route listing and messages call it (`HTTP integration through a VPC link`). */
  readonly description: string;
}

/** A method's integration, as its kind (rest/integrations/kinds.ts) reads it; `type` names the kind that runs it. */
export type IntegrationSpec =
  | LambdaProxyIntegrationSpec
  | NonProxyIntegrationSpec
  | HttpProxyIntegrationSpec
  | UnsupportedIntegrationSpec;

/** An `AWS::ApiGateway::Authorizer` of type `TOKEN` or `REQUEST` (a Lambda authorizer). */
export interface LambdaAuthorizerSpec {
  readonly logicalId: string;
  readonly name: string;
  readonly type: 'TOKEN' | 'REQUEST';
  /** The authorizer function (key into `LocalApp.functions`). */
  readonly functionKey: string;
  /** `IdentitySource`, split at commas: `method.request.header.X`, `method.request.querystring.X`, `stageVariables.X`, `context.X`. */
  readonly identitySources: readonly string[];
  /** `IdentityValidationExpression` (TOKEN only). */
  readonly validationExpression?: string;
  /** `AuthorizerResultTtlInSeconds` (default 300; 0: no caching). */
  readonly ttlSeconds: number;
}

/** A user pool a Cognito authorizer trusts: tokens must carry its issuer. */
export interface CognitoPoolSpec {
  /** `us-east-1_AbC123`; for a pool of the template (its ARN unknown before deploy), `<region>_<logical id>`. */
  readonly poolId: string;
  readonly region: string;
  /** `https://cognito-idp.<region>.amazonaws.com/<pool id>`. */
  readonly issuer: string;
  /** Logical ids of the pool's `AWS::Cognito::UserPoolClient`s (the local `aud` / `client_id`). */
  readonly clientIds: readonly string[];
}

/** An `AWS::ApiGateway::Authorizer` of type `COGNITO_USER_POOLS`. */
export interface CognitoAuthorizerSpec {
  readonly logicalId: string;
  readonly name: string;
  /** The header of `IdentitySource` (default `Authorization`). */
  readonly identityHeader: string;
  /** The pools of `ProviderARNs` that could be read (the others are named in the start-up warnings). */
  readonly pools: readonly CognitoPoolSpec[];
  /** `AuthorizerResultTtlInSeconds` (default 300). */
  readonly ttlSeconds: number;
}

/** A request body model of a method, compiled once at start (see validation/). */
export interface BodyModelSpec {
  /** The model's `Name`. */
  readonly name: string;
  /** The failed checks of a parsed body, worded as API Gateway's log words them (empty: it conforms); absent when the model cannot be used. */
  readonly validate?: (body: unknown) => ReadonlyArray<{ readonly text: string; readonly pointer: string }>;
  /** Why the model cannot be used (its schema was refused at start, or it is not in the template). */
  readonly problem?: string;
}

/** A `RequestParameters` entry marked required: `method.request.<location>.<name>`. */
export interface RequiredParameterSpec {
  readonly location: 'path' | 'querystring' | 'header' | 'multivaluequerystring' | 'multivalueheader';
  readonly name: string;
}

/** A method's `AWS::ApiGateway::RequestValidator` with what it checks (only when it checks something). */
export interface RequestValidationSpec {
  /** The validator's `Name`, else its logical id. */
  readonly validatorName: string;
  readonly validateBody: boolean;
  readonly validateParameters: boolean;
  /** Required request parameters, in the template's order. */
  readonly requiredParameters: readonly RequiredParameterSpec[];
  /** `RequestModels`: content type (lowercase) or `$default` → model. */
  readonly bodyModels: ReadonlyMap<string, BodyModelSpec>;
}

/** An `AWS::ApiGateway::Method`. */
export interface MethodSpec {
  readonly logicalId: string;
  /** `GET`, `POST`, ..., or `ANY`. */
  readonly httpMethod: string;
  /** `NONE`, `AWS_IAM`, `COGNITO_USER_POOLS` or `CUSTOM`. */
  readonly authorizationType: string;
  /** The Lambda authorizer of a `CUSTOM` method, when the template defines it. */
  readonly authorizer?: LambdaAuthorizerSpec;
  /** `Name` of the method's `AuthorizerId` (any authorizer type), for the route listing. */
  readonly authorizerName?: string;
  /** The Cognito authorizer of a `COGNITO_USER_POOLS` method, when the template defines it. */
  readonly cognitoAuthorizer?: CognitoAuthorizerSpec;
  /** `AuthorizationScopes`: with them a Cognito method wants an access token holding one of them. */
  readonly authorizationScopes: readonly string[];
  readonly apiKeyRequired: boolean;
  readonly integration: IntegrationSpec;
  /** The method's request validator; undefined when it has none (its requests pay nothing for validation). */
  readonly requestValidation?: RequestValidationSpec;
}

/** A node of an API's resource tree. */
export interface ResourceNode {
  /** `/`, `/items`, `/items/{proxy+}`. */
  readonly path: string;
  readonly pathPart: string;
  readonly kind: 'root' | 'literal' | 'param' | 'greedy';
  /** Parameter name for `{name}` and `{name+}`. */
  readonly paramName?: string;
  /** `requestContext.resourceId`. */
  readonly resourceId: string;
  readonly literalChildren: Map<string, ResourceNode>;
  paramChild?: ResourceNode;
  greedyChild?: ResourceNode;
  /** HTTP method (uppercase, or `ANY`) → method. */
  readonly methods: Map<string, MethodSpec>;
}

/** An `AWS::ApiGateway::GatewayResponse`. */
export interface GatewayResponseSpec {
  readonly responseType: string;
  readonly statusCode?: number;
  /** Header name → static value (quotes removed). */
  readonly headers: Readonly<Record<string, string>>;
  /** Header name → a mapping that is not a literal (`method.request.header.origin`, `stageVariables.x`, `context.requestId`). */
  readonly mappedHeaders: Readonly<Record<string, string>>;
  /** `ResponseTemplates`: content type → template (`$context.error.messageString`, `$context.*`, `$stageVariables`). */
  readonly templates: Readonly<Record<string, string>>;
}

/** A token bucket's settings: `RateLimit` (requests per second) and `BurstLimit` (bucket size). */
export interface ThrottleLimits {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** An `AWS::ApiGateway::ApiKey` that a usage plan of the API holds. */
export interface ApiKeySpec {
  /** The key's id (`requestContext.identity.apiKeyId`): its logical id. */
  readonly logicalId: string;
  readonly stackName: string;
  readonly constructPath?: string;
  /** `Name`, else the logical id. */
  readonly name: string;
  readonly enabled: boolean;
  readonly value: string;
  /** Where the value comes from: the template's `Value`, a local value (the template has none), or `--api-key`. */
  readonly valueSource: 'template' | 'local' | 'option';
}

/** `Quota` of a usage plan. */
export interface QuotaSpec {
  readonly limit: number;
  readonly period: 'DAY' | 'WEEK' | 'MONTH';
  /** Requests subtracted from the limit in the initial period. */
  readonly offset: number;
}

/** An `AWS::ApiGateway::UsagePlan` with stages of the API, and its keys (`AWS::ApiGateway::UsagePlanKey`). */
export interface UsagePlanSpec {
  readonly logicalId: string;
  /** `UsagePlanName`, else the logical id. */
  readonly name: string;
  /** Logical ids of its keys. */
  readonly keyIds: readonly string[];
  /** Stage name → `ApiStages[].Throttle`: `<resource path> <HTTP method>` → limits. */
  readonly stages: Readonly<Record<string, Readonly<Record<string, ThrottleLimits>>>>;
  /** `Throttle`: per key, for every method of the plan. */
  readonly throttle?: ThrottleLimits;
  readonly quota?: QuotaSpec;
}

/** A stage's `MethodSettings` entry that sets throttling, unset limits filled from the stage's `/*` entry, then the account's. */
export interface StageThrottleSetting extends ThrottleLimits {
  /** `ResourcePath` decoded: `/items`, or `/*` for every resource. */
  readonly resourcePath: string;
  /** `GET`, ..., or `*`. */
  readonly httpMethod: string;
}

/** API keys, usage plans and throttling of one REST API. */
export interface UsageSpec {
  /** `ApiKeySourceType`: the `x-api-key` header, or a Lambda authorizer's `usageIdentifierKey`. */
  readonly keySource: 'HEADER' | 'AUTHORIZER';
  readonly keys: readonly ApiKeySpec[];
  readonly plans: readonly UsagePlanSpec[];
  /** Stage name → its `MethodSettings` that set throttling. */
  readonly stageThrottles: Readonly<Record<string, readonly StageThrottleSetting[]>>;
}

/** An API of any kind the local API serves: a REST API, or an HTTP API (http-api.ts). */
export type ApiSpec = RestApiSpec | HttpApiSpec | FunctionUrlSpec | WebSocketApiSpec;

/** An `AWS::ApiGateway::RestApi` with what hangs off it. */
export interface RestApiSpec extends ApiIdentity {
  /** The API kind that reads and serves it (api-kind/api-kind.ts, registered in api-kinds.ts). @default 'REST' */
  readonly kind?: 'REST';
  readonly root: ResourceNode;
  readonly binaryMediaTypes: readonly string[];
  readonly gatewayResponses: readonly GatewayResponseSpec[];
  /** API keys, usage plans and throttling; undefined when the API has none (its requests pay nothing for them). */
  readonly usage?: UsageSpec;
}

/** Whether `api` is a REST API (an API that names no kind is one). */
export function isRestApi(api: ApiSpec): api is RestApiSpec {
  return api.kind === undefined || api.kind === 'REST';
}

/** `api` as a REST API; an API of another kind is a programming error (its kind's code called REST's). */
export function restApi(api: ApiSpec): RestApiSpec {
  if (!isRestApi(api)) {
    throw new Error(`${api.stackName}/${api.logicalId} is an API of kind ${api.kind}, not a REST API`);
  }
  return api;
}
