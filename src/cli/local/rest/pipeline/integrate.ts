/**
 * Step: run the method's integration: the kind registered for its type (../integrations/kinds.ts)
 * answers a method response (status, headers, body) or a gateway error.
 */
import type { IntegrationResult } from './method-response';
import type { RoutedRequest } from './request';
import { integrationKind } from '../integrations/kinds';

export function integrate(routed: RoutedRequest): Promise<IntegrationResult> | IntegrationResult {
  const integration = routed.route.method.integration;
  return integrationKind(integration.type).run(routed, integration);
}
