/**
 * Step: the method's authorization: the kind registered for its `AuthorizationType`
 * (../authorizers/kinds.ts) either refuses the request or sets its identity. The console's TEST
 * skips this step (unless `test-invoke --authorize`).
 */
import type { GatewayError } from './gateway-errors';
import type { RoutedRequest } from './request';
import { authorizerKind } from '../authorizers/kinds';

export function authorize(routed: RoutedRequest): GatewayError | undefined | Promise<GatewayError | undefined> {
  if (routed.settings.testInvoke && !routed.settings.testInvokeAuthorize) {
    return undefined;
  }
  return authorizerKind(routed.route.method.authorizationType).authorize(routed);
}
