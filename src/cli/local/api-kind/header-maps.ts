/**
 * An answer's headers as test-invoke and the console's TEST show them: the last value of each
 * name, and every value of each name. Maps without a prototype: header names come from the
 * function or the endpoint (`__proto__` is a name like any other).
 */
export function headerMaps(headers: ReadonlyArray<readonly [string, string]>): {
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
} {
  const single: Record<string, string> = Object.create(null);
  const multi: Record<string, string[]> = Object.create(null);
  for (const [name, value] of headers) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  return { headers: single, multiValueHeaders: multi };
}
