/**
 * Where a local vendor_outputs.json still holds values known only after a cloud deploy.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { childPointer } from '../../../../outputs/cdk-free/json-pointer';
import { isPendingMarker } from '../../../validate/pending-marker';

/** JSON pointers of the pending-value markers of a parsed document, in document order. */
export function pendingPointers(value: unknown, pointer = ''): string[] {
  if (typeof value === 'string') {
    return isPendingMarker(value) ? [pointer] : [];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => pendingPointers(item, childPointer(pointer, i)));
  }
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, item]) => pendingPointers(item, childPointer(pointer, key)));
  }
  return [];
}
