/**
 * Step: run the method's integration, one integration per `Integration.Type`. Each answers a
 * method response (status, headers, body) or a gateway error.
 */
import { API_CONFIGURATION_ERROR, GatewayError } from './gateway-errors';
import type { RoutedRequest } from './request';
import { integrateLambdaProxy } from '../integrations/lambda-proxy';

// The other integrations load on first use: an API of Lambda proxy methods only (the common case)
// starts without the mapping-template and outbound-request machinery.
let httpProxyModule: typeof import('../integrations/http-proxy') | undefined;
let nonProxyModule: typeof import('../integrations/non-proxy') | undefined;

/** What an integration answered, before the gateway adds its own headers. */
export interface MethodResponse {
  readonly statusCode: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Text, or bytes (a binary media type). */
  readonly body: string | Buffer;
  /** Whether the response carries `X-Amzn-Trace-Id` (Lambda integrations do). */
  readonly traced?: boolean;
  /** What it is, for messages: `Lambda proxy response`, `MOCK integration response`. */
  readonly kind: string;
  /** Who produced it (a function name), for the terminal. */
  readonly producer?: string;
}

export type IntegrationResult = MethodResponse | GatewayError;

export function integrate(routed: RoutedRequest): Promise<IntegrationResult> | IntegrationResult {
  const integration = routed.route.method.integration;
  switch (integration.type) {
    case 'AWS_PROXY':
      return integrateLambdaProxy(routed, integration);
    case 'HTTP_PROXY':
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      httpProxyModule ??= require('../integrations/http-proxy') as typeof import('../integrations/http-proxy');
      return httpProxyModule.integrateHttpProxy(routed, integration);
    case 'MOCK':
    case 'AWS':
    case 'HTTP':
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      nonProxyModule ??= require('../integrations/non-proxy') as typeof import('../integrations/non-proxy');
      return nonProxyModule.integrateNonProxy(routed, integration);
    case 'UNSUPPORTED':
    default: {
      const description = integration.type === 'UNSUPPORTED' ? integration.description : 'this integration';
      routed.settings.note?.(routed.ids.requestId, `${routed.route.method.httpMethod} ${routed.route.resource.path}: ${description} is not served locally`);
      routed.log?.add(`Execution failed due to configuration error: ${description} is not served locally`);
      return API_CONFIGURATION_ERROR;
    }
  }
}
