import { dataObject, hasOwn, isPlainObject } from './cdk-free/json-data';
import { childPointer } from './cdk-free/json-pointer';
import { PendingToken } from './cdk-free/pending-token';
import { formatValue } from './cdk-free/validation';

/** Who wrote which part of the document: JSON pointer → construct path of the first writer. */
export type Provenance = Map<string, string>;

/**
 * Merges `part` into `target` in place. Objects merge key by key; everything else (strings,
 * numbers, booleans, arrays, pending tokens) is a leaf. Writing a leaf again with the same
 * value is fine; with another value (including `false`, `0` and `""`) it is a conflict.
 *
 * Either the whole part is merged or, on any conflict, nothing is and one error lists them all.
 * Only the objects' own keys count (never `Object.prototype`'s), and new objects have no
 * prototype, so `constructor` or `__proto__` merge like any other key.
 */
export function mergeInto(target: Record<string, unknown>, provenance: Provenance, part: Record<string, unknown>, source: string): void {
  const conflicts: string[] = [];
  findConflicts(target, part, '', provenance, source, conflicts);
  if (conflicts.length > 0) {
    throw new Error(`Conflicting vendor outputs from ${source}:\n  ${conflicts.join('\n  ')}\n`
      + 'A value may be written more than once only with the same value.');
  }
  apply(target, part, '', provenance, source);
}

/** Deep equality of leaves; pending tokens are equal when they encode the same token. */
export function leafEquals(a: unknown, b: unknown): boolean {
  if (a instanceof PendingToken || b instanceof PendingToken) {
    return a instanceof PendingToken && a.equals(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => leafEquals(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && leafEquals(a[k], b[k]));
  }
  return a === b;
}

function describe(value: unknown): string {
  if (value instanceof PendingToken) {
    return `a deploy-time token ${value.token}`;
  }
  return formatValue(value);
}

function findConflicts(target: Record<string, unknown>, part: Record<string, unknown>, at: string,
  provenance: Provenance, source: string, out: string[]): void {
  for (const [key, value] of Object.entries(part)) {
    if (value === undefined) {
      continue;
    }
    if (!hasOwn(target, key)) {
      continue;
    }
    const pointer = childPointer(at, key);
    const existing = target[key];
    if (isPlainObject(existing) && isPlainObject(value)) {
      findConflicts(existing, value, pointer, provenance, source, out);
    } else if (!leafEquals(existing, value)) {
      const owner = provenance.get(pointer) ?? 'an earlier contribution';
      out.push(`${pointer}: ${describe(existing)} from ${owner} conflicts with ${describe(value)} from ${source}`);
    }
  }
}

function apply(target: Record<string, unknown>, part: Record<string, unknown>, at: string, provenance: Provenance, source: string): void {
  for (const [key, value] of Object.entries(part)) {
    if (value === undefined) {
      continue;
    }
    const pointer = childPointer(at, key);
    if (!provenance.has(pointer)) {
      provenance.set(pointer, source);
    }
    if (isPlainObject(value)) {
      if (!hasOwn(target, key) || !isPlainObject(target[key])) {
        target[key] = dataObject();
      }
      apply(target[key] as Record<string, unknown>, value, pointer, provenance, source);
    } else if (!hasOwn(target, key)) {
      target[key] = value;
    }
  }
}

/** Construct paths that wrote at, under, or (when nothing did) above `pointer`. */
export function contributorsAt(provenance: Provenance, pointer: string): string[] {
  let at = pointer;
  for (;;) {
    const found = new Set<string>();
    for (const [p, source] of provenance) {
      if (p === at || p.startsWith(`${at}/`) || at === '') {
        found.add(source);
      }
    }
    if (found.size > 0 || at === '') {
      return [...found];
    }
    at = at.slice(0, at.lastIndexOf('/'));
  }
}
