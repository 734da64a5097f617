/**
 * Reads an `HTTP_PROXY` integration of an `AWS::ApiGateway::Method` from the template. What cannot
 * be served locally becomes an `UNSUPPORTED` integration with a start-up warning saying why.
 */
import { isParameterTarget } from './request-parameters';
import { notServed } from './unsupported-kind';
import type { IntegrationSpec } from '../../model/rest-api';
import { integrationTimeoutMs } from '../reader/integration-timeout';

export interface ReadIntegration {
  readonly integration: IntegrationSpec;
  /** A start-up warning (the caller names the stack and method). */
  readonly warning?: string;
}

/**
 * @param integration the method's `Integration` property (`Type: HTTP_PROXY`)
 * @param evaluate resolves an intrinsic expression to a string locally, undefined when it cannot
 */
export function readHttpProxyIntegration(integration: any, evaluate: (expression: unknown) => string | undefined): ReadIntegration {
  if (String(integration?.ConnectionType ?? 'INTERNET').toUpperCase() === 'VPC_LINK') {
    return unsupported('HTTP_PROXY integration through a VPC link', 'HTTP_PROXY integration through a VPC link (ConnectionType VPC_LINK) is not emulated: the VPC is not reachable locally; answered 500');
  }
  const uri = evaluate(integration?.Uri);
  if (uri === undefined) {
    return unsupported('HTTP_PROXY integration whose URI is known only after deploy', 'HTTP_PROXY integration URI refers to values known only after deploy; answered 500');
  }
  if (!/^https?:\/\/[^/]/i.test(uri)) {
    return unsupported(`HTTP_PROXY integration to ${uri}`, `HTTP_PROXY integration URI ${JSON.stringify(uri)} is not an absolute http:// or https:// URL; answered 500`);
  }
  // A raw property (aws-cdk-lib 2.189 has no prop for it): `addPropertyOverride('Integration.ResponseTransferMode', 'STREAM')`.
  const streamed = String(integration?.ResponseTransferMode ?? 'BUFFERED').toUpperCase() === 'STREAM';
  const httpMethod = typeof integration?.IntegrationHttpMethod === 'string' ? integration.IntegrationHttpMethod.toUpperCase() : 'ANY';
  const requestParameters: Record<string, string> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(integration?.RequestParameters ?? {})) {
    if (typeof value === 'string' && isParameterTarget(key)) {
      requestParameters[key] = value;
    } else {
      ignored.push(key);
    }
  }
  return {
    integration: {
      type: 'HTTP_PROXY',
      uri,
      httpMethod,
      requestParameters,
      timeoutMs: integrationTimeoutMs(integration?.TimeoutInMillis),
      description: `HTTP_PROXY ${httpMethod} ${uri}${streamed ? ' (STREAM)' : ''}`,
      ...(streamed ? { streamed: true as const } : {}),
    },
    warning: ignored.length === 0 ? undefined : `HTTP_PROXY integration: request parameters not applied locally: ${ignored.join(', ')}`,
  };
}

function unsupported(description: string, warning: string): ReadIntegration {
  return { integration: notServed(description), warning };
}
