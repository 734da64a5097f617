/**
 * The console's execution log: what happened to a request, one timestamped line per event, with
 * the values of secret headers masked.
 */

/** Header names whose values the execution log masks. */
const MASKED = new Set(['authorization', 'x-amz-security-token']);

export class ExecutionLog {
  public readonly lines: string[] = [];

  add(text: string): void {
    this.lines.push(`${consoleDate(new Date())} : ${text}`);
  }
}

/** A header value as the execution log shows a secret: all but its last 4 characters hidden. */
export function mask(value: string): string {
  return value.length <= 8 ? '*'.repeat(value.length) : `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
}

/** The value to show for a header: masked when the header carries a secret. */
export function shownHeaderValue(name: string, value: string): string {
  return MASKED.has(name.toLowerCase()) ? mask(value) : value;
}

/** `{a=1, b=2}`, as the console prints maps; entries keep their order. */
export function javaMap(entries: Iterable<readonly [string, string]>): string {
  const parts: string[] = [];
  for (const [k, v] of entries) {
    parts.push(`${k}=${v}`);
  }
  return `{${parts.join(', ')}}`;
}

/** Headers as the log shows them, secret values masked. */
export function maskedHeaders(headers: Iterable<readonly [string, string]>): string {
  const shown: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    shown.push([name, shownHeaderValue(name, value)]);
  }
  return javaMap(shown);
}

/** A proxy event as JSON with the secret header values of `headers` and `multiValueHeaders` masked. */
export function maskedEvent(event: Record<string, unknown>): string {
  return JSON.stringify(event, function (this: unknown, key: string, value: unknown) {
    if (this !== null && typeof this === 'object' && (this === event.headers || this === event.multiValueHeaders) && MASKED.has(key.toLowerCase())) {
      return Array.isArray(value) ? value.map((v) => mask(String(v))) : mask(String(value));
    }
    return value;
  });
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** `Sat Nov 22 03:10:00 UTC 2026`, the console log's timestamp. */
function consoleDate(d: Date): string {
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}
