/**
 * The WebSocket APIs of one stack (`AWS::ApiGatewayV2::Api` with `ProtocolType: WEBSOCKET`): their
 * stages (with stage variables, read as HTTP APIs' are), routes, each route's integration, its
 * `$default` route response (a two-way route) and the `$connect` route's authorizer. `AWS_PROXY`
 * integrations to a function of the template and `MOCK` integrations (with their templates and
 * integration responses) are served; others are read as not served, with why.
 */
import { readLambdaAuthorizer } from '../../http/reader/http-authorizer-reader';
import { readHttpStages } from '../../http/reader/http-stage-reader';
import { targetIntegrationId } from '../../http/reader/route-target';
import type { HttpLambdaAuthorizerSpec } from '../../model/http-authorizer';
import type { WebSocketApiSpec, WebSocketIntegrationResponseSpec, WebSocketIntegrationSpec, WebSocketMockIntegrationSpec, WebSocketRouteSpec } from '../../model/websocket-api';
import { readApiIdentity } from '../../template/api-identity-reader';
import type { StackTemplate } from '../../template/stack-template';
import { integrationFunctionId, referencedId } from '../../template/template-references';

/** The integration timeout of WebSocket APIs when `TimeoutInMillis` is absent: 29 s (the quota's upper end). */
const DEFAULT_TIMEOUT_MS = 29_000;

export function readWebSocketApis(stack: StackTemplate): WebSocketApiSpec[] {
  const stages = readHttpStages(stack);
  const apis: WebSocketApiSpec[] = [];
  for (const [logicalId, resource] of stack.ofType('AWS::ApiGatewayV2::Api')) {
    const props = resource.Properties ?? {};
    if (typeof props.ProtocolType !== 'string' || props.ProtocolType.toUpperCase() !== 'WEBSOCKET') {
      continue;
    }
    const stageNames = stages.namesOf(logicalId);
    if (stageNames.length === 0) {
      stack.warnings.push(`${where(stack, logicalId)}: WebSocket API has no stage; not served`);
    }
    apis.push({
      kind: 'WEBSOCKET',
      ...readApiIdentity(stack, logicalId, props, { stages: stageNames, stageVariables: stages.variablesOf(logicalId) }),
      routeSelectionExpression: typeof props.RouteSelectionExpression === 'string' ? props.RouteSelectionExpression : '$request.body.action',
      routes: readRoutes(stack, logicalId),
    });
  }
  return apis;
}

function readRoutes(stack: StackTemplate, apiId: string): WebSocketRouteSpec[] {
  const twoWay = twoWayRoutes(stack);
  const routes: WebSocketRouteSpec[] = [];
  for (const [logicalId, resource] of stack.ofType('AWS::ApiGatewayV2::Route')) {
    const props = resource.Properties ?? {};
    if (referencedId(props.ApiId) !== apiId) {
      continue;
    }
    const authorizer = props.AuthorizerId === undefined ? undefined : readConnectAuthorizer(stack, logicalId, props.AuthorizerId);
    routes.push({
      logicalId,
      routeKey: String(props.RouteKey),
      authorizationType: String(props.AuthorizationType ?? 'NONE').toUpperCase(),
      ...(authorizer !== undefined ? { authorizer } : {}),
      integration: routeIntegration(stack, logicalId, props.Target),
      twoWay: twoWay.has(logicalId),
    });
  }
  return routes;
}

/** Routes with a `$default` `AWS::ApiGatewayV2::RouteResponse` (their answer goes back to the client). */
function twoWayRoutes(stack: StackTemplate): Set<string> {
  const routes = new Set<string>();
  for (const [, resource] of stack.ofType('AWS::ApiGatewayV2::RouteResponse')) {
    const routeId = referencedId(resource.Properties?.RouteId);
    if (routeId !== undefined && resource.Properties?.RouteResponseKey === '$default') {
      routes.add(routeId);
    }
  }
  return routes;
}

/** A `REQUEST` authorizer (WebSocket APIs have no other Lambda kind): an IAM policy answer, as payload 1.0 reads it. */
function readConnectAuthorizer(stack: StackTemplate, routeId: string, authorizerId: unknown): HttpLambdaAuthorizerSpec | undefined {
  const id = referencedId(authorizerId);
  const resource = id === undefined ? undefined : stack.resources[id];
  if (id === undefined || resource?.Type !== 'AWS::ApiGatewayV2::Authorizer') {
    stack.warnings.push(`${where(stack, routeId)}: the route's AuthorizerId names no authorizer of this template; its connections are refused (500)`);
    return undefined;
  }
  const authorizer = readLambdaAuthorizer(stack, id, resource.Properties ?? {});
  return { ...authorizer, payloadFormatVersion: '1.0', simpleResponses: false };
}

function routeIntegration(stack: StackTemplate, routeId: string, target: unknown): WebSocketIntegrationSpec {
  if (target === undefined) {
    return { type: 'UNSUPPORTED', description: 'a route without an integration' };
  }
  const integrationId = targetIntegrationId(target, stack.resources);
  if (integrationId === undefined) {
    stack.warnings.push(`${where(stack, routeId)}: the route's Target names no integration of this template; not served`);
    return { type: 'UNSUPPORTED', description: 'an integration outside the template' };
  }
  const props = stack.resources[integrationId].Properties ?? {};
  const type = String(props.IntegrationType ?? '').toUpperCase();
  if (type === 'MOCK') {
    return readMockIntegration(stack, integrationId, props);
  }
  if (type !== 'AWS_PROXY') {
    return { type: 'UNSUPPORTED', description: `${type} integration (only AWS_PROXY to a function and MOCK are served for WebSocket APIs)` };
  }
  const fnId = integrationFunctionId(props.IntegrationUri, stack.resources);
  if (fnId === undefined) {
    stack.warnings.push(`${where(stack, integrationId)}: AWS_PROXY integration whose IntegrationUri names no function of this template; not served`);
    return { type: 'UNSUPPORTED', description: 'a function outside the template' };
  }
  const timeout = Number(props.TimeoutInMillis);
  return { type: 'AWS_PROXY', functionKey: stack.registerFunction(fnId), timeoutMs: Number.isFinite(timeout) && timeout >= 50 ? timeout : DEFAULT_TIMEOUT_MS };
}

/** A `MOCK` integration: its request templates and selection expression, and its integration responses. */
function readMockIntegration(stack: StackTemplate, integrationId: string, props: Record<string, any>): WebSocketMockIntegrationSpec {
  const responses: WebSocketIntegrationResponseSpec[] = [];
  for (const [, resource] of stack.ofType('AWS::ApiGatewayV2::IntegrationResponse')) {
    const response = resource.Properties ?? {};
    if (referencedId(response.IntegrationId) !== integrationId || typeof response.IntegrationResponseKey !== 'string') {
      continue;
    }
    responses.push({
      key: response.IntegrationResponseKey,
      responseTemplates: templates(stack, integrationId, 'response template', response.ResponseTemplates),
      ...(typeof response.TemplateSelectionExpression === 'string' ? { templateSelectionExpression: response.TemplateSelectionExpression } : {}),
    });
  }
  return {
    type: 'MOCK',
    requestTemplates: templates(stack, integrationId, 'request template', props.RequestTemplates),
    ...(typeof props.TemplateSelectionExpression === 'string' ? { templateSelectionExpression: props.TemplateSelectionExpression } : {}),
    responses,
  };
}

/**
 * `RequestTemplates` / `ResponseTemplates`, resolved as every reader resolves template values
 * (`Fn::Join`, `Fn::Sub`, references); an entry that does not resolve is left out with a warning.
 */
function templates(stack: StackTemplate, integrationId: string, what: string, value: unknown): Record<string, string> {
  const read = stack.values.texts(value);
  for (const { key, problem } of read.problems) {
    stack.warnings.push(`${where(stack, integrationId)}: ${what} ${key} is not known locally (${problem}); left out`);
  }
  return read.values;
}

function where(stack: StackTemplate, logicalId: string): string {
  return `${stack.artifact.stackName}/${logicalId}`;
}
