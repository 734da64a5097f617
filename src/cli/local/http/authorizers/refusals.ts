/**
 * The gateway's refusals of an authorized route, as HTTP APIs send them: 401
 * `{"message":"Unauthorized"}` (no identity, an invalid token), 403 `{"message":"Forbidden"}` (the
 * token lacks the route's scopes, the authorizer says no), 500 `{"message":"Internal Server Error"}`
 * (the authorizer failed); each with the `apigw-requestid` header.
 */
import type { ApiResponse } from '../../api-kind/api-kind';
import { gatewayAnswer } from '../gateway-answers';

export type Refusal = 'unauthorized' | 'forbidden' | 'internalError';

const REFUSALS: Record<Exclude<Refusal, 'internalError'>, { readonly statusCode: number; readonly message: string }> = {
  unauthorized: { statusCode: 401, message: 'Unauthorized' },
  forbidden: { statusCode: 403, message: 'Forbidden' },
};

export function refusalAnswer(refusal: Refusal, requestId: string): ApiResponse {
  if (refusal === 'internalError') {
    return gatewayAnswer('internalError', requestId);
  }
  const { statusCode, message } = REFUSALS[refusal];
  return {
    statusCode,
    headers: [['Content-Type', 'application/json'], ['apigw-requestid', requestId]],
    body: JSON.stringify({ message }),
    requestId,
  };
}
