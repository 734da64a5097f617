/**
 * Integration kind for the non-proxy types `MOCK`, `AWS` (a Lambda function of the template, or
 * another AWS service) and `HTTP`: request and response mapped by templates and parameters
 * (non-proxy.ts, loaded on first use, with one backend per target in non-proxy/).
 */
import type { IntegrationKind, ListingContext } from './integration-kind';
import { readNonProxyIntegration } from './non-proxy/non-proxy-reader';
import type { NonProxyIntegrationSpec } from '../../model/rest-api';

// Loaded on first use: an API of Lambda proxy methods only starts without the mapping-template machinery.
let nonProxyModule: typeof import('./non-proxy') | undefined;
// Loaded to list an AWS service integration: it brings the request signer.
let awsServiceRequestModule: typeof import('./aws-service-request') | undefined;

export const nonProxyKind: IntegrationKind<NonProxyIntegrationSpec> = {
  types: ['MOCK', 'AWS', 'HTTP'],
  read: (context, integration, methodId, type) => readNonProxyIntegration(context, type as NonProxyIntegrationSpec['type'], integration, methodId),
  listingTarget,
  consoleLabel: (spec, { functionName }) => (spec.backend.kind === 'lambda'
    ? `Lambda (non-proxy): ${functionName(spec.backend.functionKey)}`
    : spec.description),
  run: (routed, spec) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    nonProxyModule ??= require('./non-proxy') as typeof import('./non-proxy');
    return nonProxyModule.integrateNonProxy(routed, spec);
  },
};

function listingTarget(spec: NonProxyIntegrationSpec, { functionLabel, env }: ListingContext): string {
  const backend = spec.backend;
  switch (backend.kind) {
    case 'mock':
      return 'MOCK';
    case 'lambda':
      return `${functionLabel(backend.functionKey)} (non-proxy)`;
    case 'http':
      return spec.description;
    case 'aws': {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      awsServiceRequestModule ??= require('./aws-service-request') as typeof import('./aws-service-request');
      const endpoint = awsServiceRequestModule.awsServiceEndpoint(backend.uri, env);
      if (endpoint === undefined) {
        return spec.description;
      }
      return endpoint.endpoint !== undefined
        ? `${spec.description} at ${endpoint.endpoint}`
        : `${spec.description} (no endpoint: set ${endpoint.variable} or AWS_ENDPOINT_URL; answers 500)`;
    }
  }
}
