/**
 * Integration kind `AWS_PROXY`: a Lambda proxy integration with a function of the template, which
 * runs locally (lambda-proxy.ts). A function outside the template is not served.
 */
import type { IntegrationKind, IntegrationReadContext } from './integration-kind';
import { integrateLambdaProxy } from './lambda-proxy';
import { notServed } from './unsupported-kind';
import type { IntegrationSpec, LambdaProxyIntegrationSpec } from '../../model/rest-api';
import { integrationTimeoutMs } from '../reader/integration-timeout';

export const lambdaProxyKind: IntegrationKind<LambdaProxyIntegrationSpec> = {
  types: ['AWS_PROXY'],
  read: readLambdaProxy,
  listingTarget: (spec, { functionLabel }) => (spec.integrationHttpMethod === undefined
    ? `${functionLabel(spec.functionKey)}${spec.streamed ? ' (STREAM)' : ''}`
    : `${functionLabel(spec.functionKey)} (IntegrationHttpMethod ${spec.integrationHttpMethod}, not POST: answers 500)`),
  consoleLabel: (spec, { functionName }) => `Lambda proxy: ${functionName(spec.functionKey)}`,
  run: integrateLambdaProxy,
};

function readLambdaProxy(context: IntegrationReadContext, integration: any, methodId: string): IntegrationSpec {
  const fnId = context.functionIdOf(integration?.Uri);
  if (fnId === undefined) {
    context.warnings.push(`${context.stackName}/${methodId}: AWS_PROXY integration does not invoke a Lambda function of this template; answered 502`);
    return notServed('AWS_PROXY integration with a function outside the template');
  }
  const httpMethod = String(integration?.IntegrationHttpMethod ?? 'POST').toUpperCase();
  if (httpMethod !== 'POST') {
    context.warnings.push(`${context.stackName}/${methodId}: AWS_PROXY integration with IntegrationHttpMethod ${httpMethod} (Lambda is invoked with POST only); answered 500, as API Gateway answers it`);
  }
  return {
    type: 'AWS_PROXY',
    functionKey: context.registerFunction(fnId),
    timeoutMs: integrationTimeoutMs(integration?.TimeoutInMillis),
    ...(httpMethod === 'POST' ? {} : { integrationHttpMethod: httpMethod }),
    // A raw property (aws-cdk-lib 2.189 has no prop for it): `addPropertyOverride('Integration.ResponseTransferMode', 'STREAM')`.
    ...(String(integration?.ResponseTransferMode ?? 'BUFFERED').toUpperCase() === 'STREAM' ? { streamed: true as const } : {}),
  };
}
