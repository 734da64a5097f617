/**
 * The start-up listing's rows for one stage of an HTTP API: each route's method and URL (`$default`
 * routes as `ANY <stage URL>*`), what answers it and what the gateway checks first.
 */
import { describeAuthorization } from './authorizers/authorization-listing';
import { isAuthorizationServed, notServedReason } from './authorizers/route-authorization';
import { awsSubtype } from './integrations/aws-subtypes';
import type { FunctionLabel, RouteRow } from '../api-kind/api-kind';
import type { HttpApiSpec, HttpAwsServiceIntegrationSpec, HttpIntegrationSpec, HttpRouteSpec } from '../model/http-api';
import { awsService, endpointVariable } from '../rest/integrations/aws-services';

export function httpRouteRows(api: HttpApiSpec, stageUrl: string, functionLabel: FunctionLabel, env: NodeJS.ProcessEnv): RouteRow[] {
  return api.routes.map((route) => ({
    method: route.method ?? 'ANY',
    url: routeUrl(route, stageUrl),
    target: isAuthorizationServed(route)
      ? integrationTarget(route.integration, functionLabel, env)
      : `not served (${notServedReason(route)}: answers 500)`,
    checks: [describeAuthorization(route)],
  }));
}

/** `METHOD URL` of each route (what a reload summary compares). */
export function httpRoutes(api: HttpApiSpec, stageUrl: string): string[] {
  return api.routes.map((route) => `${route.method ?? 'ANY'} ${routeUrl(route, stageUrl)}`);
}

function routeUrl(route: HttpRouteSpec, stageUrl: string): string {
  const base = stageUrl.replace(/\/$/, '');
  if (route.method === undefined) {
    return `${base}/* ($default route)`;
  }
  return `${base}${route.routeKey.slice(route.routeKey.indexOf(' ') + 1)}`;
}

function integrationTarget(integration: HttpIntegrationSpec, functionLabel: FunctionLabel, env: NodeJS.ProcessEnv): string {
  switch (integration.type) {
    case 'AWS_PROXY':
      return `${functionLabel(integration.functionKey)} (payload ${integration.payloadFormatVersion})`;
    case 'HTTP_PROXY':
      return `HTTP_PROXY ${integration.method} ${integration.uri}`;
    case 'AWS_SERVICE':
      return awsServiceTarget(integration, env);
    default:
      return `not served (${integration.description}: answers 500)`;
  }
}

/** `SQS-SendMessage at <endpoint>`, or which variable to set (the route answers 500 without it). */
function awsServiceTarget(integration: HttpAwsServiceIntegrationSpec, env: NodeJS.ProcessEnv): string {
  const variable = endpointVariable(awsService(awsSubtype(integration.subtype)?.service ?? '').serviceId);
  const endpoint = env[variable] || env.AWS_ENDPOINT_URL;
  return endpoint
    ? `${integration.subtype} at ${endpoint}`
    : `${integration.subtype} (no endpoint: set ${variable} or AWS_ENDPOINT_URL; answers 500)`;
}

/** What answers an integration, as the listing and the console name it. */
export { integrationTarget as httpIntegrationTarget };
