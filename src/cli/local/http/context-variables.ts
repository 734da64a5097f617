/**
 * The `$context` variables of an HTTP API request that the local API knows, with the values its
 * payload 2.0 event gives the same facts ("Customize HTTP API access logs" lists the variables).
 * Variables it has no value for (`authorizer.*` before authorizers, `integration.*`, `error.*`)
 * give nothing.
 */
import { domainNameOf, RoutedHttpRequest } from './routed-request';
import { requestTime } from '../common/dates';

type ContextReader = (routed: RoutedHttpRequest) => string;

const header = (routed: RoutedHttpRequest, name: string) => routed.request.rawHeaders.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';

const VARIABLES: Readonly<Record<string, ContextReader>> = {
  'accountId': () => '123456789012',
  'apiId': (r) => r.api.apiId,
  'domainName': (r) => domainNameOf(r),
  'domainPrefix': (r) => domainNameOf(r).split('.')[0].split(':')[0],
  'httpMethod': (r) => r.request.method.toUpperCase(),
  'identity.sourceIp': (r) => r.request.sourceIp,
  'identity.userAgent': (r) => header(r, 'user-agent'),
  'path': (r) => r.rawPath,
  'protocol': () => 'HTTP/1.1',
  'requestId': (r) => r.requestId,
  'extendedRequestId': (r) => r.requestId,
  'requestTime': (r) => requestTime(r.receivedAt),
  'requestTimeEpoch': (r) => String(r.receivedAt),
  'routeKey': (r) => r.match.route.routeKey,
  'stage': (r) => r.stage,
};

/** The variable's value; undefined for one the local API has no value for. */
export function contextVariable(routed: RoutedHttpRequest, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(VARIABLES, name) ? VARIABLES[name](routed) : undefined;
}

/** The variable names the local API gives values to (for the README and tests). */
export const KNOWN_CONTEXT_VARIABLES: readonly string[] = Object.keys(VARIABLES);
