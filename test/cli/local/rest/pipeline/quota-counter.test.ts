/**
 * Usage plan quotas: the periods (UTC; weeks from Sunday) and the count per period.
 */
import { periodStart, QuotaCounter } from '../../../../../src/cli/local/rest/pipeline/quota-counter';

describe('quotas', () => {
  const at = (iso: string) => Date.parse(iso);

  test.each([
    ['DAY', '2026-11-25T23:59:59.999Z', '2026-11-25T00:00:00.000Z'],
    ['WEEK', '2026-11-25T12:00:00.000Z', '2026-11-22T00:00:00.000Z'],
    ['WEEK', '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z'],
    ['WEEK', '2026-11-21T23:59:59.999Z', '2026-11-15T00:00:00.000Z'],
    ['MONTH', '2026-12-31T23:00:00.000Z', '2026-12-01T00:00:00.000Z'],
  ] as const)('a %s period holding %s starts at %s (UTC; weeks from Sunday)', (period, time, start) => {
    expect(new Date(periodStart(period, at(time))).toISOString()).toBe(start);
  });

  test('the limit per period, Offset fewer in the initial period, counted again in the next', () => {
    const counter = new QuotaCounter({ limit: 3, period: 'DAY', offset: 1 }, at('2026-11-25T10:00:00Z'));
    const day1 = [0, 1, 2].map(() => counter.take(at('2026-11-25T23:59:59Z')));
    expect(day1).toEqual([true, true, false]);
    const day2 = [0, 1, 2, 3].map(() => counter.take(at('2026-11-26T00:00:00Z')));
    expect(day2).toEqual([true, true, true, false]);
  });
});
