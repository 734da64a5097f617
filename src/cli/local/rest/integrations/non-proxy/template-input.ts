/**
 * What a mapping template sees of the routed request: its parameters, `$context` and the stage's
 * variables. The payload is the caller's (the request body, or the integration response's).
 */
import { ownGet, ownSet } from '../../../common/own-record';
import type { ContextInput } from '../../mapping/context-variable';
import type { RequestParameters } from '../../mapping/input-variable';
import type { TemplateInput } from '../../mapping/render-template';
import type { RoutedRequest } from '../../pipeline/request';

export function templateInputOf(routed: RoutedRequest, body: string): TemplateInput {
  return { body, parameters: parametersOf(routed), context: contextInputOf(routed), stageVariables: stageVariablesOf(routed) };
}

export function stageVariablesOf(routed: RoutedRequest): Readonly<Record<string, string>> {
  return ownGet(routed.settings.api.stageVariables, routed.stage) ?? {};
}

function parametersOf(routed: RoutedRequest): RequestParameters {
  const header: Record<string, string> = {};
  for (const [name, value] of routed.request.rawHeaders) {
    ownSet(header, name, value);
  }
  return { path: routed.route.pathParameters, querystring: routed.query.single, header };
}

function contextInputOf(routed: RoutedRequest): ContextInput {
  const { settings, ids, route, request } = routed;
  return {
    apiId: settings.api.apiId,
    accountId: '123456789012',
    requestId: ids.requestId,
    extendedRequestId: ids.apigwId,
    httpMethod: request.method.toUpperCase(),
    resourcePath: route.resource.path,
    resourceId: route.resource.resourceId,
    stage: routed.stage,
    path: settings.testInvoke ? routed.pathBelowStage : `/${routed.stage}${routed.pathBelowStage}`,
    requestTimeEpoch: routed.receivedAt,
    domainName: routed.headers.get('host') ?? `127.0.0.1${request.port ? `:${request.port}` : ''}`,
    sourceIp: request.sourceIp,
    userAgent: routed.headers.get('user-agent') ?? null,
    identity: routed.identity,
    authorizer: routed.authorizer,
    apiKey: routed.apiKey?.key.value,
    apiKeyId: routed.apiKey?.key.logicalId,
  };
}
