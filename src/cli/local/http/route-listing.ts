/**
 * The start-up listing's rows for one stage of an HTTP API: each route's method and URL (`$default`
 * routes as `ANY <stage URL>*`), what answers it and what the gateway checks first.
 */
import { describeAuthorization } from './authorizers/authorization-listing';
import { isAuthorizationServed, notServedReason } from './authorizers/route-authorization';
import type { FunctionLabel, RouteRow } from '../api-kind/api-kind';
import type { HttpApiSpec, HttpIntegrationSpec, HttpRouteSpec } from '../model/http-api';

export function httpRouteRows(api: HttpApiSpec, stageUrl: string, functionLabel: FunctionLabel): RouteRow[] {
  return api.routes.map((route) => ({
    method: route.method ?? 'ANY',
    url: routeUrl(route, stageUrl),
    target: isAuthorizationServed(route)
      ? integrationTarget(route.integration, functionLabel)
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

function integrationTarget(integration: HttpIntegrationSpec, functionLabel: FunctionLabel): string {
  switch (integration.type) {
    case 'AWS_PROXY':
      return `${functionLabel(integration.functionKey)} (payload ${integration.payloadFormatVersion})`;
    case 'HTTP_PROXY':
      return `HTTP_PROXY ${integration.method} ${integration.uri}`;
    default:
      return `not served (${integration.description}: answers 500)`;
  }
}
