/**
 * The answers an HTTP API gives itself, with the wording of the service: `{"message":"Not Found"}`
 * (no stage or route matches), `{"message":"Internal Server Error"}` (the integration failed, as
 * "Troubleshooting issues with HTTP API Lambda integrations" quotes it), `{"message":"Service
 * Unavailable"}` (no answer within the integration timeout). Every answer carries the
 * `apigw-requestid` header HTTP APIs send.
 */
import type { ApiResponse } from '../api-kind/api-kind';

export type GatewayAnswer = 'notFound' | 'internalError' | 'timeout' | 'tooLarge' | 'throttled';

const ANSWERS: Record<GatewayAnswer, { readonly statusCode: number; readonly message: string }> = {
  notFound: { statusCode: 404, message: 'Not Found' },
  internalError: { statusCode: 500, message: 'Internal Server Error' },
  timeout: { statusCode: 503, message: 'Service Unavailable' },
  tooLarge: { statusCode: 413, message: 'Request Entity Too Large' },
  throttled: { statusCode: 429, message: 'Too Many Requests' },
};

/** The gateway's own answers, which response parameter mapping leaves as they are. */
const answers = new WeakSet<ApiResponse>();

export function isGatewayAnswer(response: ApiResponse): boolean {
  return answers.has(response);
}

export function gatewayAnswer(answer: GatewayAnswer, requestId: string): ApiResponse {
  const { statusCode, message } = ANSWERS[answer];
  const response: ApiResponse = {
    statusCode,
    headers: [['Content-Type', 'application/json'], ['apigw-requestid', requestId]],
    body: JSON.stringify({ message }),
    requestId,
  };
  answers.add(response);
  return response;
}
