/**
 * The integration kinds the local REST API serves. The reader, the integrate step, the start-up
 * listing and the console ask this list for the kind of an integration type; adding a kind is its
 * module (see integration-kind.ts) and one line here.
 */
import { httpProxyKind } from './http-proxy-kind';
import type { IntegrationKind } from './integration-kind';
import { lambdaProxyKind } from './lambda-proxy-kind';
import { nonProxyKind } from './non-proxy-kind';
import { unsupportedKind } from './unsupported-kind';

export const INTEGRATION_KINDS: readonly IntegrationKind[] = [
  lambdaProxyKind,
  httpProxyKind,
  nonProxyKind,
  unsupportedKind,
];

const byType = new Map<string, IntegrationKind>(INTEGRATION_KINDS.flatMap((kind) => kind.types.map((type) => [type, kind] as const)));

/** The kind that reads and runs integrations of `type` (an `Integration.Type`, or a spec's `type`); any other type is not served. */
export function integrationKind(type: string): IntegrationKind {
  return byType.get(type) ?? unsupportedKind;
}
