/**
 * Date formats API Gateway and Lambda show, in UTC.
 */

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Two digits. */
export function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `requestContext.requestTime`: `23/Nov/2026:04:38:27 +0000`. */
export function requestTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** The date part of a log stream name: `2026/11/23`. */
export function logStreamDay(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}`;
}
