/**
 * The token bucket of throttling: bursts and the rate tokens come back at.
 */
import { TokenBucket } from '../../../../../src/cli/local/rest/pipeline/token-bucket';

describe('the token bucket', () => {
  test.each([[0, 0], [1, 1], [3, 3]])('a burst of %i lets %i requests through at once', (burstLimit, passed) => {
    const bucket = new TokenBucket({ rateLimit: 1, burstLimit }, 0);
    const results = Array.from({ length: burstLimit + 2 }, () => bucket.take(0));
    expect(results.filter(Boolean)).toHaveLength(passed);
    expect(results.slice(0, passed).every(Boolean)).toBe(true);
  });

  test('tokens come back at the rate, never above the burst', () => {
    const bucket = new TokenBucket({ rateLimit: 2, burstLimit: 2 }, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, false]);
    expect(bucket.take(499)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect([bucket.take(60_000), bucket.take(60_000), bucket.take(60_000)]).toEqual([true, true, false]);
  });
});
