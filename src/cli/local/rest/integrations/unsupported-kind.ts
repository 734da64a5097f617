/**
 * Integration kind `UNSUPPORTED`: what the other kinds read but cannot serve locally (a VPC link,
 * a function outside the template, a URI known only after deploy), and any `Integration.Type`
 * no kind reads. Listed as `not served (why)`; every request answers 500.
 */
import type { IntegrationKind } from './integration-kind';
import type { UnsupportedIntegrationSpec } from '../../model/rest-api';
import { API_CONFIGURATION_ERROR } from '../pipeline/gateway-errors';

/** An integration that is not served locally, and why (`HTTP integration through a VPC link`). */
export function notServed(description: string): UnsupportedIntegrationSpec {
  return { type: 'UNSUPPORTED', description };
}

export const unsupportedKind: IntegrationKind<UnsupportedIntegrationSpec> = {
  types: ['UNSUPPORTED'],
  read: (context, _integration, methodId, type) => {
    context.warnings.push(`${context.stackName}/${methodId}: ${type} integrations are not served locally; answered 500`);
    return notServed(`${type} integration`);
  },
  listingTarget: (spec) => `not served (${spec.description})`,
  consoleLabel: (spec) => `not served (${spec.description})`,
  run: (routed, spec) => {
    // A spec of a type no kind registers (not read from a template) is not served either.
    const description = spec.type === 'UNSUPPORTED' ? spec.description : 'this integration';
    routed.settings.note?.(routed.ids.requestId, `${routed.route.method.httpMethod} ${routed.route.resource.path}: ${description} is not served locally`);
    routed.log?.add(`Execution failed due to configuration error: ${description} is not served locally`);
    return API_CONFIGURATION_ERROR;
  },
};
