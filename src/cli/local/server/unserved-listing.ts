/**
 * The listing's lines for what the app has that is not served: one line per API, function URL and
 * function, with its kind and why, so every part of the assembly is accounted for.
 */
import type { UnservedPart } from '../model/unserved-part';

/** `Not served (N):` and one indented line per part; nothing when every part is served. */
export function unservedLines(parts: readonly UnservedPart[]): string[] {
  if (parts.length === 0) {
    return [];
  }
  const width = Math.max(...parts.map((p) => p.kind.length));
  return [
    `Not served (${parts.length}):`,
    ...parts.map((p) => `  ${p.kind.padEnd(width)}  ${p.label}: ${p.reason}`),
  ];
}

/** The APIs among `parts` (functions left out), for a message about what could have been served. */
export function unservedApis(parts: readonly UnservedPart[]): UnservedPart[] {
  return parts.filter((p) => p.kind !== 'function');
}
