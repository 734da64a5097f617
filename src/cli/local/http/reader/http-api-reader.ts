/**
 * The HTTP APIs of one stack (`AWS::ApiGatewayV2::Api` with `ProtocolType: HTTP`): their stages
 * and routes, each route with its integration; also the quick-create form (`Target` on the API,
 * which makes a `$default` stage and one route); and an inline OpenAPI `Body` (http-openapi-reader.ts).
 * An API whose document is in S3 (`BodyS3Location`) is warned of and not served.
 */
import { readCors } from './cors-reader';
import { readRouteAuthorizer } from './http-authorizer-reader';
import { readHttpIntegration } from './http-integration-reader';
import { OpenApiHttpApi, readOpenApiHttpApi } from './http-openapi-reader';
import { HttpStages, readHttpStages } from './http-stage-reader';
import { httpIntegrationTimeoutMs } from './integration-timeout';
import { parseRouteKey } from './route-key';
import { targetIntegrationId } from './route-target';
import type { HttpApiSpec, HttpCorsSpec, HttpIntegrationSpec, HttpRouteSpec } from '../../model/http-api';
import { readApiIdentity } from '../../template/api-identity-reader';
import type { StackTemplate } from '../../template/stack-template';
import { integrationFunctionId, referencedId } from '../../template/template-references';

export function readHttpApis(stack: StackTemplate): HttpApiSpec[] {
  const stages = readHttpStages(stack);
  const apis: HttpApiSpec[] = [];
  for (const [logicalId, resource] of stack.ofType('AWS::ApiGatewayV2::Api')) {
    const props = resource.Properties ?? {};
    const protocol = typeof props.ProtocolType === 'string' ? props.ProtocolType.toUpperCase() : 'HTTP';
    if (protocol !== 'HTTP') {
      continue;
    }
    if (props.Body === undefined && props.BodyS3Location !== undefined) {
      stack.warnings.push(`${where(stack, logicalId)}: HTTP API defined by an OpenAPI document in S3 (BodyS3Location) is not served locally (the document is not in the template)`);
      continue;
    }
    apis.push(readHttpApi(stack, logicalId, props, stages));
  }
  return apis;
}

function readHttpApi(stack: StackTemplate, logicalId: string, props: any, stages: HttpStages): HttpApiSpec {
  const quick = props.Target === undefined ? undefined : quickCreateRoute(stack, logicalId, props);
  const document = props.Body === undefined ? undefined : readOpenApiHttpApi(stack, props.Body, where(stack, logicalId));
  const stageNames = quick === undefined ? stages.namesOf(logicalId) : ['$default', ...stages.namesOf(logicalId).filter((s) => s !== '$default')];
  if (stageNames.length === 0) {
    stack.warnings.push(`${where(stack, logicalId)}: HTTP API has no stage; not served`);
  }
  return {
    kind: 'HTTP',
    ...readApiIdentity(stack, logicalId, props, { stages: stageNames, stageVariables: stages.variablesOf(logicalId) }),
    routes: [...(quick === undefined ? [] : [quick]), ...(document?.routes ?? []), ...readRoutes(stack, logicalId)],
    ...corsOf(props, document),
    ...throttlesOf(stages, logicalId),
  };
}

/** `{ cors }`: `CorsConfiguration` when set (precedence over the document not checked against the service), else the document's `x-amazon-apigateway-cors`. */
function corsOf(props: any, document: OpenApiHttpApi | undefined): { cors?: HttpCorsSpec } {
  const cors = props.CorsConfiguration === undefined ? document?.cors : readCors(props.CorsConfiguration);
  return cors === undefined ? {} : { cors };
}

/** `{ throttles }` when a stage of the API throttles routes. */
function throttlesOf(stages: HttpStages, apiId: string): { throttles?: ReturnType<HttpStages['throttlesOf']> } {
  const throttles = stages.throttlesOf(apiId);
  return Object.keys(throttles).length === 0 ? {} : { throttles };
}

/** The routes (`AWS::ApiGatewayV2::Route`) of the API, in template order; a route key that cannot be read is warned of. */
function readRoutes(stack: StackTemplate, apiId: string): HttpRouteSpec[] {
  const routes: HttpRouteSpec[] = [];
  for (const [logicalId, resource] of stack.ofType('AWS::ApiGatewayV2::Route')) {
    const props = resource.Properties ?? {};
    if (referencedId(props.ApiId) !== apiId) {
      continue;
    }
    const routeKey = String(props.RouteKey);
    const key = parseRouteKey(routeKey);
    if ('problem' in key) {
      stack.warnings.push(`${where(stack, logicalId)}: ${key.problem}; not served`);
      continue;
    }
    const authorizer = props.AuthorizerId === undefined ? undefined : readRouteAuthorizer(stack, logicalId, props.AuthorizerId);
    routes.push({
      logicalId,
      routeKey,
      ...key,
      authorizationType: String(props.AuthorizationType ?? 'NONE').toUpperCase(),
      ...(authorizer !== undefined ? { authorizer } : {}),
      ...(Array.isArray(props.AuthorizationScopes) ? { authorizationScopes: props.AuthorizationScopes.map(String) } : {}),
      integration: routeIntegration(stack, logicalId, props.Target),
    });
  }
  return routes;
}

function routeIntegration(stack: StackTemplate, routeId: string, target: unknown): HttpIntegrationSpec {
  if (target === undefined) {
    stack.warnings.push(`${where(stack, routeId)}: route without a Target (no integration); answers 500`);
    return { type: 'UNSUPPORTED', description: 'a route without an integration' };
  }
  const integrationId = targetIntegrationId(target, stack.resources);
  if (integrationId === undefined) {
    stack.warnings.push(`${where(stack, routeId)}: the route's Target names no integration of this template; answers 500`);
    return { type: 'UNSUPPORTED', description: 'an integration outside the template' };
  }
  return readHttpIntegration(stack, stack.resources[integrationId].Properties, where(stack, integrationId));
}

/**
 * Quick create: `Target` (a Lambda function ARN or a URL) and `RouteKey` (`$default` when absent)
 * on the API make one route, its integration (payload 2.0 for a function) and a `$default` stage.
 */
function quickCreateRoute(stack: StackTemplate, apiId: string, props: any): HttpRouteSpec {
  const routeKey = typeof props.RouteKey === 'string' ? props.RouteKey : '$default';
  const key = parseRouteKey(routeKey);
  const segments = 'problem' in key ? [] : key.segments;
  const fnId = integrationFunctionId(props.Target, stack.resources);
  const integration: HttpIntegrationSpec = fnId !== undefined
    ? { type: 'AWS_PROXY', functionKey: stack.registerFunction(fnId), payloadFormatVersion: '2.0', timeoutMs: httpIntegrationTimeoutMs(undefined) }
    : readHttpIntegration(stack, { IntegrationType: 'HTTP_PROXY', IntegrationUri: props.Target }, where(stack, apiId));
  return { logicalId: apiId, routeKey, method: 'problem' in key ? undefined : key.method, segments, authorizationType: 'NONE', integration };
}

function where(stack: StackTemplate, logicalId: string): string {
  return `${stack.artifact.stackName}/${logicalId}`;
}
