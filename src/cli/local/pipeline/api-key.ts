/**
 * Step: a method with `ApiKeyRequired` refuses requests without an `x-api-key` header (usage plans
 * and key values are not checked locally). The console's TEST skips this step.
 */
import { GatewayError, INVALID_API_KEY } from './gateway-errors';
import type { RoutedRequest } from './request';

export function requireApiKey(routed: RoutedRequest): GatewayError | undefined {
  if (routed.settings.testInvoke || !routed.route.method.apiKeyRequired) {
    return undefined;
  }
  return routed.headers.get('x-api-key') ? undefined : INVALID_API_KEY;
}
