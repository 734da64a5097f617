/**
 * Counts the own keys of every object in a parsed JSON value, without recursion (a value may be
 * nested a million levels deep). Compared with the members in the text, it tells whether
 * JSON.parse dropped values of duplicate keys.
 */
export function ownKeyCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') {
      continue;
    }
    if (Array.isArray(next)) {
      for (const item of next) {
        if (item !== null && typeof item === 'object') {
          pending.push(item);
        }
      }
      continue;
    }
    // Object.values: one own value per key, and faster than reading each key's value.
    const values = Object.values(next);
    count += values.length;
    for (const item of values) {
      if (item !== null && typeof item === 'object') {
        pending.push(item);
      }
    }
  }
  return count;
}
