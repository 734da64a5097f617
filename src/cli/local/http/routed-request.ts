/**
 * A request to an HTTP API once its stage and route are known: what the integrations and the Lambda
 * events are built from.
 */
import type { RouteAuthorization } from './authorizers/authorization';
import type { RouteMatch } from './router';
import type { ApiRequest } from '../api-kind/api-kind';
import type { HttpApiSpec } from '../model/http-api';

export interface RoutedHttpRequest {
  readonly api: HttpApiSpec;
  readonly request: ApiRequest;
  readonly match: RouteMatch;
  readonly stage: string;
  /** The path as sent (the stage segment of a named stage included), without the query string. */
  readonly rawPath: string;
  /** The path below the stage, as sent. */
  readonly pathBelowStage: string;
  /** The query string as sent, without `?`. */
  readonly rawQueryString: string;
  /** `requestContext.requestId` (and the `apigw-requestid` header). */
  readonly requestId: string;
  /** The function's `awsRequestId`. */
  readonly invocationId: string;
  readonly traceId: string;
  readonly receivedAt: number;
  /** The path `overwrite:path` of the integration's request mapping sends instead of the route's. */
  readonly mappedPath?: string;
  /** What the route's authorizer found (undefined: the route has none). */
  readonly authorization?: RouteAuthorization;
}

/** The stage's variables, or undefined when it has none. */
export function stageVariablesOf(routed: RoutedHttpRequest): Readonly<Record<string, string>> | undefined {
  const all = routed.api.stageVariables;
  const variables = Object.prototype.hasOwnProperty.call(all, routed.stage) ? all[routed.stage] : undefined;
  return variables === undefined || Object.keys(variables).length === 0 ? undefined : variables;
}

/** The request's `Host`, or the local address it came in on. */
export function domainNameOf(routed: RoutedHttpRequest): string {
  const host = routed.request.rawHeaders.find(([name]) => name.toLowerCase() === 'host');
  return host?.[1] ?? `127.0.0.1${routed.request.port ? `:${routed.request.port}` : ''}`;
}

/** Whether a request body reaches the function as text: `text/*`, JSON, XML and JavaScript; anything else (no type, forms) is base64. */
export function isTextBody(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type.startsWith('text/') || type === 'application/json' || type === 'application/xml' || type === 'application/javascript';
}
