/**
 * An authorizer a method names that cannot run locally (it is not in the template, or its function
 * is not): the gateway's 500 for a failing authorizer, with a note saying why.
 */
import { AUTHORIZER_CONFIGURATION_ERROR, GatewayError } from '../pipeline/gateway-errors';
import type { RoutedRequest } from '../pipeline/request';

export function authorizerNotRunnable(routed: RoutedRequest, why: string): GatewayError {
  const name = routed.route.method.authorizerName ?? 'of the method';
  routed.settings.note?.(routed.ids.requestId, `authorizer ${name}: ${why}, so it cannot run locally; answered 500`);
  return AUTHORIZER_CONFIGURATION_ERROR;
}
