import { logStreamDay, requestTime } from '../../../../src/cli/local/common/dates';

test('requestTime formats whole seconds in UTC, as requestContext.requestTime', () => {
  expect(requestTime(Date.UTC(2026, 10, 23, 4, 38, 27, 5))).toBe('23/Nov/2026:04:38:27 +0000');
  expect(requestTime(Date.UTC(2026, 0, 2, 13, 5, 9, 999))).toBe('02/Jan/2026:13:05:09 +0000');
});

test('requestTime gives every instant of one second the same text, and the next second its own', () => {
  const second = Date.UTC(2026, 11, 31, 23, 59, 59);
  expect(requestTime(second)).toBe('31/Dec/2026:23:59:59 +0000');
  expect(requestTime(second + 999)).toBe('31/Dec/2026:23:59:59 +0000');
  expect(requestTime(second + 1000)).toBe('01/Jan/2027:00:00:00 +0000');
  expect(requestTime(second)).toBe('31/Dec/2026:23:59:59 +0000');
});

test('logStreamDay is the date part of a log stream name', () => {
  expect(logStreamDay(Date.UTC(2026, 10, 3, 23, 0, 0))).toBe('2026/11/03');
});
