/**
 * Reads a method's `Integration` from a template: the kind registered for its `Type`
 * (../integrations/kinds.ts) reads the rest; a type no kind reads is not served.
 */
import type { IntegrationSpec } from '../../model/rest-api';
import type { IntegrationReadContext } from '../integrations/integration-kind';
import { integrationKind } from '../integrations/kinds';

export type { IntegrationReadContext } from '../integrations/integration-kind';

export function readIntegration(context: IntegrationReadContext, integration: any, methodId: string): IntegrationSpec {
  const type = String(integration?.Type ?? 'MOCK').toUpperCase();
  return integrationKind(type).read(context, integration, methodId, type);
}
