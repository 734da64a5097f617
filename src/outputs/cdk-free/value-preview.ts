/**
 * A short preview of a value for error messages: what `JSON.stringify` would print, cut short,
 * computed without stringifying the whole value. A message about one key of an object with
 * 16,000 keys, or about a value nested 100,000 levels deep, costs the same as any other.
 */

/** Longest preview; longer ones end in `...`. */
export const PREVIEW_LENGTH = 80;

/** Stops the walk once the preview is long enough. */
class PreviewFull extends Error {}

class PreviewBuffer {
  public text = '';
  constructor(private readonly limit: number) {}

  public add(part: string): void {
    this.text += part;
    if (this.text.length > this.limit) {
      throw new PreviewFull();
    }
  }
}

/** Formats a value for a message: JSON, cut to {@link PREVIEW_LENGTH} characters. */
export function previewValue(value: unknown): string {
  const out = new PreviewBuffer(PREVIEW_LENGTH);
  let complete = true;
  try {
    write(value, out, '');
  } catch (error) {
    if (!(error instanceof PreviewFull)) {
      return fallback(value);
    }
    complete = false;
  }
  const text = out.text === '' ? fallback(value) : out.text;
  return complete && text.length <= PREVIEW_LENGTH ? text : `${text.slice(0, PREVIEW_LENGTH - 3)}...`;
}

/** What JSON cannot show (undefined, a function, a bigint), as `String` shows it. */
function fallback(value: unknown): string {
  try {
    const text = String(value);
    return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 3)}...` : text;
  } catch {
    return typeof value;
  }
}

/**
 * Writes `value` as `JSON.stringify` would. Each level writes at least one character before
 * going deeper, so the recursion is at most {@link PREVIEW_LENGTH} levels deep.
 */
function write(value: unknown, out: PreviewBuffer, key: string): void {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (typeof value === 'string' && value.length > PREVIEW_LENGTH) {
    // Only the start can be shown: never escape a long string whole.
    out.add(JSON.stringify(value.slice(0, PREVIEW_LENGTH)));
    return;
  }
  if (value === null || typeof value !== 'object') {
    out.add(JSON.stringify(value) ?? '');
    return;
  }
  if (Array.isArray(value)) {
    out.add('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) {
        out.add(',');
      }
      const item = value[i];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
        out.add('null');
      } else {
        write(item, out, String(i));
      }
    }
    out.add(']');
    return;
  }
  out.add('{');
  let first = true;
  for (const name of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[name];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
      continue;
    }
    out.add(`${first ? '' : ','}${JSON.stringify(name)}:`);
    first = false;
    write(item, out, name);
  }
  out.add('}');
}
