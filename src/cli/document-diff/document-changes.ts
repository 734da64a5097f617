/**
 * The one diff of two client configurations (vendor_outputs.json documents), for `diff` (what
 * generate would change in a local file) and `sandbox` (what a reload changed).
 *
 * `documentChanges` lists every change, pointer by pointer, in the order of the generated document: for each object, its keys as generate writes them, then the keys only the
 * local file has (in the file's order). A value that differs is reported at the highest pointer where
 * it differs (an added section is one change, not one per leaf); lists are compared whole, as the
 * merge treats them. Objects whose values are equal but whose keys come in another order are
 * reported too, since generate would rewrite them.
 */
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { childPointer, pointerTokens } from '../../outputs/cdk-free/json-pointer';

/** One change, as RFC 6902 names them, plus `order` for a key order that generate would change. */
export type DocumentChange =
  | { readonly op: 'add'; readonly pointer: string; readonly new: unknown }
  | { readonly op: 'remove'; readonly pointer: string; readonly old: unknown }
  | { readonly op: 'replace'; readonly pointer: string; readonly old: unknown; readonly new: unknown }
  | { readonly op: 'order'; readonly pointer: string; readonly old: string[]; readonly new: string[] };

/** Every change from `local` (the file's document) to `generated`, in document order. */
export function documentChanges(local: unknown, generated: unknown, pointer = ''): DocumentChange[] {
  if (isPlainObject(local) && isPlainObject(generated)) {
    return objectChanges(local, generated, pointer);
  }
  if (!jsonEqual(local, generated)) {
    return [{ op: 'replace', pointer, old: local, new: generated }];
  }
  // Equal lists can still hold objects whose keys come in another order.
  return Array.isArray(local) && Array.isArray(generated)
    ? generated.flatMap((item, index) => documentChanges(local[index], item, childPointer(pointer, index)))
    : [];
}

function objectChanges(local: Record<string, unknown>, generated: Record<string, unknown>, pointer: string): DocumentChange[] {
  const changes: DocumentChange[] = [];
  const localKeys = Object.keys(local);
  const generatedKeys = Object.keys(generated);
  const shared = new Set(localKeys.filter((key) => Object.hasOwn(generated, key)));
  const localOrder = localKeys.filter((key) => shared.has(key));
  const generatedOrder = generatedKeys.filter((key) => shared.has(key));
  if (localOrder.some((key, i) => key !== generatedOrder[i])) {
    changes.push({ op: 'order', pointer, old: localKeys, new: generatedKeys });
  }
  for (const key of generatedKeys) {
    const child = childPointer(pointer, key);
    if (shared.has(key)) {
      changes.push(...documentChanges(local[key], generated[key], child));
    } else {
      changes.push({ op: 'add', pointer: child, new: generated[key] });
    }
  }
  for (const key of localKeys.filter((k) => !shared.has(k))) {
    changes.push({ op: 'remove', pointer: childPointer(pointer, key), old: local[key] });
  }
  return changes;
}

/** Whether two JSON values are equal, whatever the order of their objects' keys. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return a === b;
}

/** A change as the sandbox reports it after a reload: which value, and how. */
export interface ValueChange {
  readonly pointer: string;
  readonly kind: 'added' | 'removed' | 'changed';
}

const VALUE_CHANGE_KINDS = { add: 'added', remove: 'removed', replace: 'changed' } as const;

/**
 * The values added, removed or changed from `before` to `after`, as JSON pointers in key order
 * (each object's keys sorted): the changes of documentChanges, without the key-order ones.
 */
export function valueChanges(before: unknown, after: unknown): ValueChange[] {
  const changes: ValueChange[] = [];
  for (const change of documentChanges(before, after)) {
    if (change.op !== 'order') {
      changes.push({ pointer: change.pointer, kind: VALUE_CHANGE_KINDS[change.op] });
    }
  }
  return changes.sort((a, b) => compareTokens(pointerTokens(a.pointer), pointerTokens(b.pointer)));
}

/** Key by key, as Array.prototype.sort orders strings; a parent before its children. */
function compareTokens(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return a.length - b.length;
}
