/**
 * Step: the request limits API Gateway applies before anything else (REST API quotas).
 */
import { MAX_BODY_BYTES, tooLarge } from './render-error';
import type { GatewayResponse, ReceivedRequest } from './request';

/** A payload over 10 MB is refused at the front door with a plain-text 413. */
export function checkLimits(received: ReceivedRequest): GatewayResponse | undefined {
  return received.request.body.length > MAX_BODY_BYTES ? tooLarge(received.ids.requestId) : undefined;
}
