/**
 * Reads a REST API defined by an OpenAPI document in the template (`SpecRestApi` with
 * `ApiDefinition.fromInline`, i.e. the RestApi's `Body`) into the shapes the template's own
 * resources have: each operation as the `Properties` of an `AWS::ApiGateway::Method`, each
 * `x-amazon-apigateway-gateway-responses` entry as those of an `AWS::ApiGateway::GatewayResponse`.
 * The rest of the reader then treats both kinds of API alike.
 *
 * Mapping (API Gateway's OpenAPI extensions): `x-amazon-apigateway-integration` is the method's
 * `Integration` (its `responses` keys are selection patterns, `default` none);
 * `x-amazon-apigateway-any-method` is `ANY`; a security scheme of type `apiKey` named `x-api-key`
 * in the header is `ApiKeyRequired`; one with `x-amazon-apigateway-authtype: awsSigv4` is
 * `AWS_IAM`; one with `x-amazon-apigateway-authorizer` is an `AWS::ApiGateway::Authorizer` (a
 * TOKEN authorizer's identity source is the scheme's header); request validators, schemas and
 * parameters are validators, models and request parameters (openapi-validation.ts).
 */
import { readOpenApiValidation } from './openapi-validation';
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { stringList } from '../../common/own-record';

/** An operation of the document, as the template would declare it. */
export interface OpenApiMethod {
  /** The resource path, `/items/{id}`. */
  readonly path: string;
  /** A label for messages: `GET /items/{id}`. */
  readonly label: string;
  /** `AWS::ApiGateway::Method` Properties: HttpMethod, AuthorizationType, AuthorizerId, AuthorizationScopes, ApiKeyRequired, Integration. */
  readonly properties: Record<string, unknown>;
}

/** An authorizer of the document: its id (`AuthorizerId` of its methods is `{ Ref: id }`) and `AWS::ApiGateway::Authorizer` Properties. */
export interface OpenApiAuthorizer {
  readonly id: string;
  readonly properties: Record<string, unknown>;
}

export interface OpenApiApi {
  readonly methods: OpenApiMethod[];
  readonly authorizers: OpenApiAuthorizer[];
  /** `AWS::ApiGateway::GatewayResponse` Properties, one per response type. */
  readonly gatewayResponses: Array<Record<string, unknown>>;
  readonly binaryMediaTypes: string[];
  /** Request validators and models as template resources, by pseudo logical id (for the validation reader). */
  readonly resources: Record<string, unknown>;
  /** What the document declares that is not served, one line each. */
  readonly notes: string[];
}

const OPERATIONS: ReadonlyArray<[string, string]> = [
  ['get', 'GET'], ['put', 'PUT'], ['post', 'POST'], ['delete', 'DELETE'], ['options', 'OPTIONS'],
  ['head', 'HEAD'], ['patch', 'PATCH'], ['x-amazon-apigateway-any-method', 'ANY'],
];

/** Reads the document; `idPrefix` (the API's logical id) makes the ids of its authorizers, validators and models unique in the stack. */
export function readOpenApiBody(body: unknown, idPrefix: string): OpenApiApi {
  const notes: string[] = [];
  const doc = isPlainObject(body) ? body : typeof body === 'string' ? parseText(body, notes) : {};
  const schemes = securitySchemes(doc, idPrefix);
  const validation = readOpenApiValidation(doc, idPrefix);
  if (!isPlainObject(doc.paths) && isPlainObject(body)) {
    // `Fn::Transform` (AWS::Include) or another intrinsic standing for the whole document is not evaluated here.
    notes.push(`the OpenAPI document in Body has no paths object (keys: ${Object.keys(doc).join(', ') || 'none'}); no method is served`);
  }
  const methods: OpenApiMethod[] = [];
  for (const [path, item] of Object.entries(isPlainObject(doc.paths) ? doc.paths : {})) {
    if (!path.startsWith('/') || !isPlainObject(item)) {
      continue;
    }
    for (const [key, httpMethod] of OPERATIONS) {
      const operation = item[key];
      if (isPlainObject(operation)) {
        const method = readOperation(path, httpMethod, operation, doc.security, schemes);
        Object.assign(method.properties, validation.methodProperties(item, operation));
        methods.push(method);
      }
    }
  }
  const authorizers: OpenApiAuthorizer[] = [];
  for (const scheme of schemes.values()) {
    if (scheme.kind === 'authorizer') {
      authorizers.push({ id: scheme.id, properties: scheme.properties });
    }
  }
  return {
    methods,
    authorizers,
    gatewayResponses: gatewayResponses(doc['x-amazon-apigateway-gateway-responses']),
    binaryMediaTypes: stringList(doc['x-amazon-apigateway-binary-media-types']),
    resources: validation.resources,
    notes,
  };
}

type Scheme =
  | { readonly kind: 'api-key' }
  | { readonly kind: 'iam' }
  | { readonly kind: 'authorizer'; readonly id: string; readonly authorizationType: string; readonly properties: Record<string, unknown> };

/** Security schemes by name: `securityDefinitions` (OpenAPI 2.0) or `components.securitySchemes` (3.x). */
function securitySchemes(doc: Record<string, unknown>, idPrefix: string): Map<string, Scheme> {
  const declared = isPlainObject(doc.securityDefinitions) ? doc.securityDefinitions
    : isPlainObject(doc.components) && isPlainObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const out = new Map<string, Scheme>();
  for (const [name, scheme] of Object.entries(declared)) {
    if (!isPlainObject(scheme)) {
      continue;
    }
    const authorizer = scheme['x-amazon-apigateway-authorizer'];
    if (isPlainObject(authorizer)) {
      const properties = authorizerProperties(name, scheme, authorizer);
      const authorizationType = properties.Type === 'COGNITO_USER_POOLS' ? 'COGNITO_USER_POOLS' : 'CUSTOM';
      out.set(name, { kind: 'authorizer', id: `${idPrefix}/${name}`, authorizationType, properties });
    } else if (String(scheme['x-amazon-apigateway-authtype'] ?? '').toLowerCase() === 'awssigv4') {
      out.set(name, { kind: 'iam' });
    } else if (scheme.type === 'apiKey' && String(scheme.name).toLowerCase() === 'x-api-key' && scheme.in === 'header') {
      out.set(name, { kind: 'api-key' });
    }
  }
  return out;
}

function readOperation(
  path: string, httpMethod: string, operation: Record<string, unknown>, topSecurity: unknown, schemes: Map<string, Scheme>,
): OpenApiMethod {
  const label = `${httpMethod} ${path}`;
  // An operation's own `security` replaces the document's (an empty list: none).
  const security = Array.isArray(operation.security) ? operation.security : Array.isArray(topSecurity) ? topSecurity : [];
  const requirements = security.filter(isPlainObject).flatMap((requirement) => Object.entries(requirement));
  const used = requirements.map(([name]) => schemes.get(name));
  const authorizerAt = used.findIndex((scheme) => scheme?.kind === 'authorizer');
  const properties: Record<string, unknown> = {
    HttpMethod: httpMethod,
    AuthorizationType: used.some((scheme) => scheme?.kind === 'iam') ? 'AWS_IAM' : 'NONE',
    ApiKeyRequired: used.some((scheme) => scheme?.kind === 'api-key'),
    Integration: integrationOf(operation['x-amazon-apigateway-integration']),
  };
  if (authorizerAt >= 0) {
    const authorizer = used[authorizerAt] as Extract<Scheme, { kind: 'authorizer' }>;
    properties.AuthorizationType = authorizer.authorizationType;
    properties.AuthorizerId = { Ref: authorizer.id };
    // A Cognito authorizer's requirement lists the method's OAuth scopes.
    properties.AuthorizationScopes = stringList(requirements[authorizerAt][1]);
  }
  return { path, label, properties };
}

/** `x-amazon-apigateway-authorizer` as `AWS::ApiGateway::Authorizer` Properties. */
function authorizerProperties(name: string, scheme: Record<string, unknown>, authorizer: Record<string, unknown>): Record<string, unknown> {
  const type = String(authorizer.type ?? '').toUpperCase();
  // A TOKEN authorizer reads the header the scheme names; the others list their sources.
  const identitySource = type === 'TOKEN' && scheme.in === 'header' && typeof scheme.name === 'string'
    ? `method.request.header.${scheme.name}`
    : authorizer.identitySource;
  return {
    Name: name,
    Type: type,
    AuthorizerUri: authorizer.authorizerUri,
    IdentitySource: identitySource,
    IdentityValidationExpression: authorizer.identityValidationExpression,
    AuthorizerResultTtlInSeconds: authorizer.authorizerResultTtlInSeconds,
    ProviderARNs: authorizer.providerARNs,
  };
}

/** `x-amazon-apigateway-integration` as a method's `Integration`. */
function integrationOf(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) {
    // No integration: the deploy would refuse the method; locally it answers 500 as an unknown type.
    return { Type: 'NONE' };
  }
  const out: Record<string, unknown> = {
    Type: String(value.type ?? '').toUpperCase(),
    Uri: value.uri,
    IntegrationHttpMethod: value.httpMethod,
    RequestTemplates: value.requestTemplates,
    RequestParameters: value.requestParameters,
    PassthroughBehavior: typeof value.passthroughBehavior === 'string' ? value.passthroughBehavior.toUpperCase() : undefined,
    ContentHandling: value.contentHandling,
    TimeoutInMillis: value.timeoutInMillis,
    ConnectionType: value.connectionType,
    Credentials: value.credentials,
  };
  if (isPlainObject(value.responses)) {
    out.IntegrationResponses = Object.entries(value.responses).filter(([, r]) => isPlainObject(r)).map(([pattern, r]) => {
      const response = r as Record<string, unknown>;
      return {
        StatusCode: response.statusCode,
        SelectionPattern: pattern === 'default' ? undefined : pattern,
        ResponseParameters: response.responseParameters,
        ResponseTemplates: response.responseTemplates,
        ContentHandling: response.contentHandling,
      };
    });
  }
  return out;
}

function gatewayResponses(value: unknown): Array<Record<string, unknown>> {
  return Object.entries(isPlainObject(value) ? value : {}).filter(([, r]) => isPlainObject(r)).map(([type, r]) => {
    const response = r as Record<string, unknown>;
    return {
      ResponseType: type,
      StatusCode: response.statusCode,
      ResponseParameters: response.responseParameters,
      ResponseTemplates: response.responseTemplates,
    };
  });
}

/** A `Body` given as JSON text (CloudFormation takes either); YAML text is not read. */
function parseText(text: string, notes: string[]): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) {
      return parsed;
    }
  } catch {
    // reported below
  }
  notes.push('the OpenAPI document in Body is text that is not a JSON object (YAML text is not read locally); no method is served');
  return {};
}
