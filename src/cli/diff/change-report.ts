/**
 * How diff shows changes: one line per change for people, one JSON document for tools. Secret
 * values (see secret-values.ts) are never shown, only whether they changed.
 *
 *   + POINTER: NEW          added by generate
 *   - POINTER: OLD          removed by generate
 *   ~ POINTER: OLD -> NEW   changed (~ POINTER: (secret changed) for a secret)
 *   ! POINTER: key order differs (generate writes: KEY, KEY, ...)
 *   ! (layout): ...         the values are laid out differently (generate rewrites the file)
 *
 * Values are JSON, cut to a short preview when long.
 */
import { isSecretPointer, maskSecrets, SECRET_PLACEHOLDER } from './secret-values';
import { displayPointer } from '../../outputs/cdk-free/json-pointer';
import { PREVIEW_LENGTH, previewValue } from '../../outputs/cdk-free/value-preview';
import { DocumentChange } from '../document-diff/document-changes';

/** Everything diff found, before it is shown. */
export interface Comparison {
  /** The local file, as given. */
  readonly file: string;
  /** Whether the local file does not exist (then every value is an addition). */
  readonly missing: boolean;
  readonly changes: readonly DocumentChange[];
  /** Whether the file's text differs from what generate would write for the values it holds. */
  readonly layoutDiffers: boolean;
}

export function isEqual(comparison: Comparison): boolean {
  return !comparison.missing && comparison.changes.length === 0 && !comparison.layoutDiffers;
}

export const LAYOUT_LINE = '! (layout): not laid out as generate writes it (whitespace, indentation, escapes, duplicate keys, comments or the final newline)';

/** The lines for a terminal, in document order, the layout line last. */
export function changeLines(comparison: Comparison): string[] {
  const lines = comparison.changes.map(changeLine);
  return comparison.layoutDiffers ? [...lines, LAYOUT_LINE] : lines;
}

function changeLine(change: DocumentChange): string {
  const where = printable(displayPointer(change.pointer));
  const secret = isSecretPointer(change.pointer);
  switch (change.op) {
    case 'add':
      return `+ ${where}: ${secret ? SECRET_PLACEHOLDER : shown(change.new, change.pointer)}`;
    case 'remove':
      return `- ${where}: ${secret ? SECRET_PLACEHOLDER : shown(change.old, change.pointer)}`;
    case 'replace':
      return secret ? `~ ${where}: (secret changed)` : `~ ${where}: ${shown(change.old, change.pointer)} -> ${shown(change.new, change.pointer)}`;
    case 'order':
      return `! ${where}: key order differs (generate writes: ${keyList(change.new)})`;
  }
}

function shown(value: unknown, pointer: string): string {
  return previewValue(maskSecrets(value, pointer));
}

function keyList(keys: readonly string[]): string {
  const text = printable(keys.join(', '));
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 3)}...` : text;
}

/** Keys are text from the file: control characters (a newline, a terminal escape) are shown as \uXXXX, so each change stays one harmless line. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The `--json` document: `{ equal, file, missing, changes: [...] }`. Each change has `op` (add,
 * remove, replace, order, layout) and `path` (a JSON pointer); values in full under `old` and `new`,
 * secrets left out with `secret: true` (or replaced by "(secret)" inside a value that is shown).
 */
export function changeReport(comparison: Comparison, absoluteFile: string): Record<string, unknown> {
  const changes: Array<Record<string, unknown>> = comparison.changes.map(changeEntry);
  if (comparison.layoutDiffers) {
    changes.push({ op: 'layout' });
  }
  return { equal: isEqual(comparison), file: absoluteFile, missing: comparison.missing, changes };
}

function changeEntry(change: DocumentChange): Record<string, unknown> {
  const path = change.pointer;
  if (change.op === 'order') {
    return { op: 'order', path, old: change.old, new: change.new };
  }
  if (isSecretPointer(path)) {
    return { op: change.op, path, secret: true };
  }
  switch (change.op) {
    case 'add':
      return { op: 'add', path, new: maskSecrets(change.new, path) };
    case 'remove':
      return { op: 'remove', path, old: maskSecrets(change.old, path) };
    case 'replace':
      return { op: 'replace', path, old: maskSecrets(change.old, path), new: maskSecrets(change.new, path) };
  }
}
