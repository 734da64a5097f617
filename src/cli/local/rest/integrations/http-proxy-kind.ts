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
    const read = readHttpProxyIntegration(integration, (expression) => tryEvaluateString(expression, context.environment));
    if (read.warning !== undefined) {
      context.warnings.push(`${context.stackName}/${methodId}: ${read.warning}`);
    }
    return read.integration;
  },
  listingTarget: (spec) => spec.description,
  consoleLabel: (spec) => spec.description,
  run: (routed, spec) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    httpProxyModule ??= require('./http-proxy') as typeof import('./http-proxy');
    return httpProxyModule.integrateHttpProxy(routed, spec);
  },
};
