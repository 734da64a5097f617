/**
 * The answers a function URL gives itself (Lambda's front end, not the function), each with the
 * `x-amzn-RequestId` header: 403 `{"Message":"Forbidden"}` for a refused `AWS_IAM` caller, 413 for a
 * request over the invocation payload, 429 when the function is throttled, 502 for a function that
 * failed or answered what cannot be read. The 403 body is the documented one; the others' bodies
 * are not checked against the service (README, "Not yet checked against the service").
 */
import type { ApiResponse } from '../api-kind/api-kind';

export type UrlAnswer = 'forbidden' | 'tooLarge' | 'throttled' | 'badGateway' | 'notFound';

const ANSWERS: Record<UrlAnswer, { readonly statusCode: number; readonly message: string }> = {
  forbidden: { statusCode: 403, message: 'Forbidden' },
  tooLarge: { statusCode: 413, message: 'Request must be smaller than 6291456 bytes for the InvokeFunction operation' },
  throttled: { statusCode: 429, message: 'Rate Exceeded.' },
  badGateway: { statusCode: 502, message: 'Internal Server Error' },
  notFound: { statusCode: 404, message: 'Not Found' },
};

export function urlAnswer(answer: UrlAnswer, requestId: string, message?: string): ApiResponse {
  const { statusCode, message: standard } = ANSWERS[answer];
  return {
    statusCode,
    headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', requestId]],
    body: JSON.stringify({ Message: message ?? standard }),
    requestId,
  };
}
