/**
 * What an integration answers: a method response, or a gateway error. The contract between the
 * integrate step and the integration kinds (../integrations/), which import it and none of whose
 * users it imports.
 */
import type { GatewayError } from './gateway-errors';
import type { StreamedBody } from '../../api-kind/api-kind';

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
  /** A streamed body (`ResponseTransferMode: STREAM`): `body` is empty, the bytes come through it. */
  readonly stream?: StreamedBody;
}

export type IntegrationResult = MethodResponse | GatewayError;
