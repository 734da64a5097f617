/**
 * What changed between two versions of the client configuration, as JSON pointers of the values
 * that were added, removed or changed (lists are compared whole, as the merge treats them).
 */
import { childPointer } from '../../outputs/cdk-free/json-pointer';
import { isJsonObject } from '../assembly/json-file';

export interface ValueChange {
  readonly pointer: string;
  readonly kind: 'added' | 'removed' | 'changed';
}

export function documentChanges(before: unknown, after: unknown, pointer = ''): ValueChange[] {
  if (isJsonObject(before) && isJsonObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const child = childPointer(pointer, key);
      if (!Object.hasOwn(after, key)) {
        return [{ pointer: child, kind: 'removed' as const }];
      }
      if (!Object.hasOwn(before, key)) {
        return [{ pointer: child, kind: 'added' as const }];
      }
      return documentChanges(before[key], after[key], child);
    });
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ pointer, kind: 'changed' }];
}
