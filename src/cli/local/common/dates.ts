/**
 * Date formats API Gateway and Lambda show, in UTC.
 */

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Two digits. */
export function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The last second formatted by {@link requestTime}: every request of a second shares its text. */
let formattedSecond = NaN;
let formattedText = '';

/** `requestContext.requestTime`: `23/Nov/2026:04:38:27 +0000` (whole seconds, so formatted once a second). */
export function requestTime(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== formattedSecond) {
    const d = new Date(second * 1000);
    formattedText = `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
    formattedSecond = second;
  }
  return formattedText;
}

/** The date part of a log stream name: `2026/11/23`. */
export function logStreamDay(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}`;
}
