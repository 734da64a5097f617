/**
 * Query strings as API Gateway reads them for REST APIs: `&`-separated, `name=value`, each part
 * percent-decoded (text that is not valid encoding stays as it is).
 */
import { appendValue } from './own-record';
import { safeDecode } from './router';

/** Decoded query parameters: the single-value map keeps the last value, as API Gateway does. */
export interface ParsedQuery {
  readonly single: Record<string, string>;
  readonly multi: Record<string, string[]>;
  /** Number of parameters (repeats included). */
  readonly count: number;
}

export function parseQuery(raw: string): ParsedQuery {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let count = 0;
  if (raw === '') {
    return { single, multi, count };
  }
  for (const part of raw.split('&')) {
    if (part === '') {
      continue;
    }
    const eq = part.indexOf('=');
    const name = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const value = safeDecode(eq < 0 ? '' : part.slice(eq + 1));
    appendValue(single, multi, name, value);
    count++;
  }
  return { single, multi, count };
}
