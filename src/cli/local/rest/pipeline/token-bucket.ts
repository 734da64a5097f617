/**
 * The token bucket API Gateway throttles with: the bucket holds up to `burstLimit` tokens, refills
 * at `rateLimit` tokens per second, and each request takes one; a request that finds no whole
 * token is throttled. It starts full.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html
 */
import type { ThrottleLimits } from '../../model/rest-api';

export class TokenBucket {
  private tokens: number;
  private updated: number;

  constructor(public readonly limits: ThrottleLimits, now: number) {
    this.tokens = limits.burstLimit;
    this.updated = now;
  }

  /** Takes a token for one request at `now` (ms); false when there is none (the request is throttled). */
  take(now: number): boolean {
    const elapsed = now - this.updated;
    if (elapsed > 0) {
      this.tokens = Math.min(this.limits.burstLimit, this.tokens + (elapsed * this.limits.rateLimit) / 1000);
      this.updated = now;
    }
    if (this.tokens < 1) {
      return false;
    }
    this.tokens -= 1;
    return true;
  }
}
