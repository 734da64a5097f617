/**
 * Query strings as API Gateway reads them for REST APIs: parameters separated by `&` (and by `;`,
 * which the gateway splits on too), `name=value`, `+` read as a space, each part percent-decoded
 * (text that is not valid encoding stays as it is).
 *
 * Recorded against API Gateway: `?plus=a+b&email=a%2Bb` reaches the function as `a b` and `a+b`.
 * The `;` split is in "Amazon API Gateway important notes for REST APIs".
 */
import { appendValue } from './own-record';
import { safeDecode } from './percent-decoding';

/** Decoded query parameters: the single-value map keeps the last value, as API Gateway does. */
export interface ParsedQuery {
  readonly single: Record<string, string>;
  readonly multi: Record<string, string[]>;
  /** Number of parameters (repeats included). */
  readonly count: number;
}

const FORM_SEPARATOR = /[&;]/;

/**
 * @param form true (the gateway's reading): `;` separates and `+` is a space; false: only `&`
 *   separates and `+` is a plus, as a SigV4 canonical query reads it.
 */
export function parseQuery(raw: string, form = true): ParsedQuery {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let count = 0;
  if (raw === '') {
    return { single, multi, count };
  }
  for (const part of raw.split(form ? FORM_SEPARATOR : '&')) {
    if (part === '') {
      continue;
    }
    const eq = part.indexOf('=');
    const name = decodePart(eq < 0 ? part : part.slice(0, eq), form);
    const value = decodePart(eq < 0 ? '' : part.slice(eq + 1), form);
    appendValue(single, multi, name, value);
    count++;
  }
  return { single, multi, count };
}

function decodePart(text: string, form: boolean): string {
  return safeDecode(form && text.includes('+') ? text.replace(/\+/g, ' ') : text);
}
