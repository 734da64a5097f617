/**
 * Integration kind `HTTP_PROXY`: the request forwarded to a public endpoint as it is, the response
 * passed back as it is (http-proxy.ts, loaded on first use). Read by http-proxy-reader.ts.
 */
import { readHttpProxyIntegration } from './http-proxy-reader';
import type { IntegrationKind } from './integration-kind';
import type { HttpProxyIntegrationSpec } from '../../model/rest-api';
import { tryEvaluateString } from '../../template/intrinsics';

// Loaded on first use: an API of Lambda proxy methods only starts without the outbound-request machinery.
let httpProxyModule: typeof import('./http-proxy') | undefined;

export const httpProxyKind: IntegrationKind<HttpProxyIntegrationSpec> = {
  types: ['HTTP_PROXY'],
  read: (context, integration, methodId) => {
    // Parameters built with intrinsics are read as their text (stand-ins listed); one that cannot be
    // evaluated stays as it is, so the reader names it among those not applied.
    const parameters = context.values.texts(intrinsicEntries(integration?.RequestParameters));
    const resolved = { ...integration, RequestParameters: { ...integration?.RequestParameters, ...parameters.values } };
    // The endpoint must be real: only a known URI is served, never one with a stand-in host.
    const read = readHttpProxyIntegration(resolved, (expression) => tryEvaluateString(expression, context.environment));
    if (read.warning !== undefined) {
      context.warnings.push(`${context.stackName}/${methodId}: ${read.warning}`);
    }
    return read.integration.type === 'HTTP_PROXY' && parameters.standIns.length > 0
      ? { ...read.integration, standIns: parameters.standIns }
      : read.integration;
  },
  listingTarget: (spec) => spec.description,
  consoleLabel: (spec) => spec.description,
  run: (routed, spec) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    httpProxyModule ??= require('./http-proxy') as typeof import('./http-proxy');
    return httpProxyModule.integrateHttpProxy(routed, spec);
  },
};

/** The entries of a template map whose value is an intrinsic function (an object), not a literal. */
function intrinsicEntries(map: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map !== null && typeof map === 'object' && !Array.isArray(map) ? map : {})) {
    if (value !== null && typeof value === 'object') {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}
