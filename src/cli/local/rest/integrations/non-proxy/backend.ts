/**
 * What a non-proxy integration's backend answered, before the integration response is selected.
 */
import type { NonProxyIntegrationSpec } from '../../../model/rest-api';
import type { GatewayError } from '../../pipeline/gateway-errors';
import type { RoutedRequest } from '../../pipeline/request';
import type { MappedParameters } from '../request-parameters';

export interface BackendResponse {
  readonly statusCode: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  /**
   * What `SelectionPattern`s are matched against: the status code (HTTP, AWS, MOCK) or a Lambda
   * function's `errorMessage`; undefined (a function that succeeded) selects the default response.
   */
  readonly selectionInput: string | undefined;
}

/** The integration request after mapping. */
export interface IntegrationRequest {
  readonly body: Buffer;
  readonly contentType: string | undefined;
  /** `integration.request.*` values, with the template's `$context.requestOverride` applied. */
  readonly parameters: MappedParameters;
}

export type Backend<K extends NonProxyIntegrationSpec['backend']['kind']> = (
  routed: RoutedRequest,
  integration: NonProxyIntegrationSpec & { readonly backend: Extract<NonProxyIntegrationSpec['backend'], { kind: K }> },
  request: IntegrationRequest,
) => Promise<BackendResponse | GatewayError> | BackendResponse | GatewayError;
