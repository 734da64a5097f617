/**
 * The answers an HTTP API gives itself, with the wording of the service: `{"message":"Not Found"}`
 * (no stage or route matches), `{"message":"Internal Server Error"}` (the integration failed, as
 * "Troubleshooting issues with HTTP API Lambda integrations" quotes it), `{"message":"Service
 * Unavailable"}` (no answer within the integration timeout). Every answer carries the
 * `apigw-requestid` header HTTP APIs send.
 */
import type { ApiResponse } from '../api-kind/api-kind';

export type GatewayAnswer = 'notFound' | 'internalError' | 'timeout' | 'tooLarge';

const ANSWERS: Record<GatewayAnswer, { readonly statusCode: number; readonly message: string }> = {
  notFound: { statusCode: 404, message: 'Not Found' },
  internalError: { statusCode: 500, message: 'Internal Server Error' },
  timeout: { statusCode: 503, message: 'Service Unavailable' },
  tooLarge: { statusCode: 413, message: 'Request Entity Too Large' },
};

export function gatewayAnswer(answer: GatewayAnswer, requestId: string): ApiResponse {
  const { statusCode, message } = ANSWERS[answer];
  return {
    statusCode,
    headers: [['Content-Type', 'application/json'], ['apigw-requestid', requestId]],
    body: JSON.stringify({ message }),
    requestId,
  };
}
