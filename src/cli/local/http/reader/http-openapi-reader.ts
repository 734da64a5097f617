/**
 * An HTTP API defined by an inline OpenAPI 3 document (`Body` on the `AWS::ApiGatewayV2::Api`), read
 * with API Gateway's extensions to OpenAPI ("Working with API Gateway extensions to OpenAPI"): each
 * operation of `paths` is a route (`x-amazon-apigateway-any-method` is `ANY`; with `isDefaultRoute`
 * it is `$default`), its `x-amazon-apigateway-integration` (`type`, `uri`, `httpMethod`,
 * `payloadFormatVersion`, `timeoutInMillis`, `connectionType`) is read as the resource form's
 * integration is, `x-amazon-apigateway-cors` is the API's CORS, and an operation's `security` naming
 * a scheme with an `x-amazon-apigateway-authorizer` (`jwt`, `request`) is the route's authorizer.
 */
import { readCors } from './cors-reader';
import { readJwtAuthorizer, readLambdaAuthorizer } from './http-authorizer-reader';
import { readHttpIntegration } from './http-integration-reader';
import { parseRouteKey } from './route-key';
import { isPlainObject as isObject } from '../../../../outputs/cdk-free/json-data';
import { stringList } from '../../common/own-record';
import type { HttpCorsSpec, HttpIntegrationSpec, HttpRouteSpec } from '../../model/http-api';
import type { HttpAuthorizerSpec } from '../../model/http-authorizer';
import type { StackTemplate } from '../../template/stack-template';

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const ANY_METHOD = 'x-amazon-apigateway-any-method';
const INTEGRATION = 'x-amazon-apigateway-integration';

export interface OpenApiHttpApi {
  readonly routes: HttpRouteSpec[];
  readonly cors?: HttpCorsSpec;
}

/** The routes and CORS of the document; `where` names the API in warnings. */
export function readOpenApiHttpApi(stack: StackTemplate, body: unknown, where: string): OpenApiHttpApi {
  const document = documentOf(stack, body, where);
  const paths = isObject(document.paths) ? document.paths : {};
  const routes: HttpRouteSpec[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) {
      continue;
    }
    for (const [method, operation] of operationsOf(item)) {
      const route = readOperation(stack, document, path, method, operation, where);
      if (route !== undefined) {
        routes.push(route);
      }
    }
  }
  const cors = readCors(corsConfiguration(document['x-amazon-apigateway-cors']));
  return { routes, ...(cors === undefined ? {} : { cors }) };
}

/** The document: an object, or JSON text; other forms (YAML text, `Fn::Transform`) are warned of and read as empty. */
function documentOf(stack: StackTemplate, body: unknown, where: string): Record<string, unknown> {
  if (isObject(body) && body['Fn::Transform'] === undefined) {
    return body;
  }
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      if (isObject(parsed)) {
        return parsed;
      }
    } catch {
      // YAML text: warned of below.
    }
  }
  stack.warnings.push(`${where}: an OpenAPI Body that is not an object or JSON text (YAML text, Fn::Transform) is not read locally; the API has no routes from it`);
  return {};
}

/** `[METHOD, operation]` of a path item, `ANY` for the catch-all extension. */
function operationsOf(item: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const operations: Array<[string, Record<string, unknown>]> = [];
  for (const [key, operation] of Object.entries(item)) {
    const method = key === ANY_METHOD ? 'ANY' : OPERATION_METHODS.includes(key.toLowerCase()) ? key.toUpperCase() : undefined;
    if (method !== undefined && isObject(operation)) {
      operations.push([method, operation]);
    }
  }
  return operations;
}

function readOperation(
  stack: StackTemplate, document: Record<string, unknown>, path: string, method: string, operation: Record<string, unknown>, where: string,
): HttpRouteSpec | undefined {
  const routeKey = operation.isDefaultRoute === true || path === '/$default' || path === '$default' ? '$default' : `${method} ${path}`;
  const key = parseRouteKey(routeKey);
  const routeWhere = `${where} ${routeKey} (OpenAPI Body)`;
  if ('problem' in key) {
    stack.warnings.push(`${routeWhere}: ${key.problem}; not served`);
    return undefined;
  }
  const apiId = where.slice(where.lastIndexOf('/') + 1);
  const security = securityOf(document, operation);
  const authorization = security === undefined ? undefined : readAuthorization(stack, apiId, security);
  return {
    logicalId: apiId,
    routeKey,
    ...key,
    authorizationType: authorization?.authorizationType ?? 'NONE',
    ...(authorization?.authorizer !== undefined ? { authorizer: authorization.authorizer } : {}),
    ...(security !== undefined && security.scopes.length > 0 ? { authorizationScopes: security.scopes } : {}),
    integration: authorization?.unserved !== undefined
      ? unservedRoute(stack, routeWhere, authorization.unserved)
      : routeIntegration(stack, document, operation, routeWhere),
  };
}

interface Security {
  /** The security scheme's name (under `components.securitySchemes`). */
  readonly scheme: string;
  /** Its `x-amazon-apigateway-authorizer`. */
  readonly authorizer: Record<string, unknown>;
  /** The scopes the requirement lists (JWT: the route's authorization scopes). */
  readonly scopes: string[];
}

interface Authorization {
  readonly authorizationType: string;
  readonly authorizer?: HttpAuthorizerSpec;
  /** Why the route is not served, for an authorizer not read. */
  readonly unserved?: string;
}

/**
 * An `x-amazon-apigateway-authorizer` as the `AWS::ApiGatewayV2::Authorizer` it imports to: `jwt`
 * (`identitySource`, `jwtConfiguration.issuer`/`audience`) and `request` (`authorizerUri`,
 * `authorizerPayloadFormatVersion`, `enableSimpleResponses`, `identitySource`,
 * `authorizerResultTtlInSeconds`), read by the resource form's reader.
 */
function readAuthorization(stack: StackTemplate, apiId: string, security: Security): Authorization {
  const authorizer = security.authorizer;
  const type = String(authorizer.type ?? '').toLowerCase();
  const logicalId = `${apiId}/${security.scheme}`;
  if (type === 'jwt') {
    const jwt = isObject(authorizer.jwtConfiguration) ? authorizer.jwtConfiguration : {};
    const configuration = { Issuer: jwt.issuer, Audience: jwt.audience };
    const props = { Name: security.scheme, IdentitySource: authorizer.identitySource, JwtConfiguration: configuration };
    return { authorizationType: 'JWT', authorizer: readJwtAuthorizer(stack, logicalId, props) };
  }
  if (type === 'request') {
    const props = {
      Name: security.scheme,
      AuthorizerUri: authorizer.authorizerUri,
      AuthorizerPayloadFormatVersion: authorizer.authorizerPayloadFormatVersion,
      EnableSimpleResponses: authorizer.enableSimpleResponses,
      IdentitySource: authorizer.identitySource,
      AuthorizerResultTtlInSeconds: authorizer.authorizerResultTtlInSeconds,
    };
    return { authorizationType: 'CUSTOM', authorizer: readLambdaAuthorizer(stack, logicalId, props) };
  }
  const unserved = `a route protected by the OpenAPI authorizer ${security.scheme} of type ${JSON.stringify(type)} (jwt and request are read)`;
  return { authorizationType: 'NONE', unserved };
}

function unservedRoute(stack: StackTemplate, where: string, description: string): HttpIntegrationSpec {
  stack.warnings.push(`${where}: ${description} is not served locally; its requests answer 500`);
  return { type: 'UNSUPPORTED', description };
}

function routeIntegration(
  stack: StackTemplate, document: Record<string, unknown>, operation: Record<string, unknown>, where: string,
): HttpIntegrationSpec {
  const integration = operation[INTEGRATION] ?? document[INTEGRATION];
  if (!isObject(integration)) {
    stack.warnings.push(`${where}: route without an ${INTEGRATION}; answers 500`);
    return { type: 'UNSUPPORTED', description: 'a route without an integration' };
  }
  return readHttpIntegration(stack, integrationProperties(integration), where);
}

/** The extension's fields as the `AWS::ApiGatewayV2::Integration` properties the resource form reads. */
function integrationProperties(integration: Record<string, unknown>): Record<string, unknown> {
  const props: Record<string, unknown> = {
    IntegrationType: integration.type,
    IntegrationUri: integration.uri,
    IntegrationMethod: integration.httpMethod,
    PayloadFormatVersion: integration.payloadFormatVersion,
    TimeoutInMillis: integration.timeoutInMillis,
    ConnectionType: integration.connectionType,
    IntegrationSubtype: integration.integrationSubtype,
    RequestParameters: integration.requestParameters,
    ResponseParameters: integration.responseParameters,
  };
  return Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
}

/**
 * The security scheme with an `x-amazon-apigateway-authorizer` that protects the operation (its
 * `security`, else the document's; `security: []` protects nothing), with the scopes listed.
 */
function securityOf(document: Record<string, unknown>, operation: Record<string, unknown>): Security | undefined {
  const security = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : [];
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const requirement of security) {
    for (const [scheme, scopes] of isObject(requirement) ? Object.entries(requirement) : []) {
      const definition = schemes[scheme];
      if (isObject(definition) && isObject(definition['x-amazon-apigateway-authorizer'])) {
        return { scheme, authorizer: definition['x-amazon-apigateway-authorizer'], scopes: stringList(scopes) };
      }
    }
  }
  return undefined;
}

/** `x-amazon-apigateway-cors` (camelCase fields) as a `CorsConfiguration`. */
function corsConfiguration(cors: unknown): Record<string, unknown> | undefined {
  if (!isObject(cors)) {
    return undefined;
  }
  return {
    AllowOrigins: cors.allowOrigins,
    AllowMethods: cors.allowMethods,
    AllowHeaders: cors.allowHeaders,
    ExposeHeaders: cors.exposeHeaders,
    MaxAge: cors.maxAge,
    AllowCredentials: cors.allowCredentials,
  };
}
