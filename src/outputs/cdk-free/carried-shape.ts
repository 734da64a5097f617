/**
 * Checks the carried document read from a template's Metadata before anything uses it.
 *
 * The Metadata of a deployed stack is input like any other: someone can edit the template.
 * So every piece is checked: `document` is an object, `pending` a list of
 * `{ pointer, output, index }`, and each pointer a valid JSON pointer that leads, through the
 * document's own keys only, to a `null` placeholder. A pointer through `__proto__`,
 * `constructor` or any key the document does not have itself is refused, so filling a value
 * can never reach `Object.prototype`. Free of aws-cdk-lib.
 */
import { CarriageError } from './carriage-error';
import { inflateDocument } from './compressed-document';
import { isPlainObject } from './json-data';
import { VALUES_PER_OUTPUT } from './packed-output';

/** Where one pending value comes from after deploy. */
export interface PendingEntry {
  /** JSON pointer of the value in the document. */
  readonly pointer: string;
  /** Logical id of the stack output that carries it. */
  readonly output: string;
  /** Position of the value in that output's comma-separated list. */
  readonly index: number;
}

/** The template Metadata value under the carriage key. */
export interface CarriedDocument {
  /** The document with `null` where a value is pending. */
  readonly document: Record<string, unknown>;
  /** Every pending value, in document order. */
  readonly pending: PendingEntry[];
}

/**
 * Checks the shape of a carried document and every pending pointer.
 *
 * @param raw the Metadata value under the carriage key
 * @param malformed prefix of every message, naming the stack and the Metadata key
 */
export function checkCarriedDocument(raw: unknown, malformed: string): CarriedDocument {
  const compressed = isPlainObject(raw) && Object.hasOwn(raw, 'documentGzip');
  if (!isPlainObject(raw) || !(Object.hasOwn(raw, 'document') !== compressed) || !Object.hasOwn(raw, 'pending')) {
    throw new CarriageError(`${malformed}: expected { document, pending[] } or { documentGzip, pending[] } (got ${describe(raw)})`);
  }
  const document = compressed ? inflateDocument(raw.documentGzip, malformed) : raw.document;
  const pending = raw.pending;
  if (!isPlainObject(document)) {
    throw new CarriageError(`${malformed}: document must be an object (got ${describe(document)})`);
  }
  if (!Array.isArray(pending)) {
    throw new CarriageError(`${malformed}: pending must be a list (got ${describe(pending)})`);
  }
  const seen = new Set<string>();
  const entries = pending.map((entry, i) => {
    const checked = checkEntry(entry, `${malformed}: pending[${i}]`);
    const problem = placeholderProblem(document, checked.pointer);
    if (problem !== undefined) {
      throw new CarriageError(`${malformed}: pending[${i}].pointer ${JSON.stringify(checked.pointer)} does not lead to a pending value (null) of the document: ${problem}`);
    }
    if (seen.has(checked.pointer)) {
      throw new CarriageError(`${malformed}: pending[${i}].pointer ${JSON.stringify(checked.pointer)} is listed twice`);
    }
    seen.add(checked.pointer);
    return checked;
  });
  return { document, pending: entries };
}

function checkEntry(entry: unknown, where: string): PendingEntry {
  const expected = `must be { pointer: "/...", output: string, index: integer 0..${VALUES_PER_OUTPUT - 1} }`;
  if (!isPlainObject(entry)) {
    throw new CarriageError(`${where} ${expected} (got ${describe(entry)})`);
  }
  const pointer = own(entry, 'pointer');
  const output = own(entry, 'output');
  const index = own(entry, 'index');
  if (typeof pointer !== 'string' || typeof output !== 'string' || output === ''
    || typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= VALUES_PER_OUTPUT) {
    throw new CarriageError(`${where} ${expected} (got ${describe(entry)})`);
  }
  const syntax = pointerSyntaxProblem(pointer);
  if (syntax !== undefined) {
    throw new CarriageError(`${where}.pointer ${JSON.stringify(pointer)} is not a JSON pointer: ${syntax}`);
  }
  return { pointer, output, index };
}

/** Why `pointer` is not an RFC 6901 pointer to a member (undefined when it is one). */
function pointerSyntaxProblem(pointer: string): string | undefined {
  if (!pointer.startsWith('/')) {
    return "it must start with '/' (the document itself cannot be pending)";
  }
  if (/~(?![01])/.test(pointer)) {
    return "'~' must be followed by 0 or 1";
  }
  return undefined;
}

/** Why `pointer` does not reach a `null` through own keys of `document` (undefined when it does). */
function placeholderProblem(document: Record<string, unknown>, pointer: string): string | undefined {
  let node: unknown = document;
  let at = '';
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length) {
        return `${at || '/'} is a list of ${node.length} and has no item ${JSON.stringify(token)}`;
      }
      node = node[Number(token)];
    } else if (isPlainObject(node)) {
      if (!Object.hasOwn(node, token)) {
        return `${at || '/'} has no key ${JSON.stringify(token)}`;
      }
      node = node[token];
    } else {
      return `${at} is ${describe(node)}, not an object`;
    }
    at = `${at}/${raw}`;
  }
  return node === null ? undefined : `it holds ${describe(node)}`;
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) {
    return 'nothing';
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
