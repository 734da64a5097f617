/**
 * How the document travels from synth to deploy time, and how it is rebuilt afterwards.
 *
 * This module never loads aws-cdk-lib: the CLI uses it to rebuild the file from a deployed stack.
 *
 * - The literal part of the document (the "skeleton") goes into the template's Metadata under
 *   {@link METADATA_KEY}, with `null` where a value is pending, plus the list of pending values
 *   (checked on reading: src/outputs/carried-shape.ts).
 * - Each distinct pending value is a slot in a stack output. One output carries up to
 *   {@link VALUES_PER_OUTPUT} slots, each Base64-encoded (`Fn::Base64`) and joined with
 *   {@link SLOT_SEPARATOR} (src/outputs/packed-output.ts): any deployed value (quotes,
 *   backslashes, newlines, commas) comes back byte for byte, and 100 distinct values cost 13 of
 *   CloudFormation's 200 outputs.
 * - A skeleton whose JSON is longer than {@link COMPRESS_ABOVE} characters travels as
 *   `documentGzip` instead of `document` (src/outputs/compressed-document.ts).
 */
import { CarriageError } from './carriage-error';
import { CarriedDocument, checkCarriedDocument, PendingEntry } from './carried-shape';
import { COMPRESS_ABOVE, compressDocument } from './compressed-document';
import { isPlainObject } from './json-data';
import { decodePackedOutput, VALUES_PER_OUTPUT } from './packed-output';

export { CarriageError } from './carriage-error';
export type { CarriedDocument, PendingEntry } from './carried-shape';
export { SLOT_SEPARATOR, VALUES_PER_OUTPUT, decodePackedOutput, encodePackedOutput } from './packed-output';

/** Template Metadata key; the suffix is the version of the carriage format. */
export const METADATA_KEY = 'cdk-vendor-outputs/v1';

/** Most stack outputs the library will use in one stack (CloudFormation allows 200 in all). */
export const MAX_OUTPUTS = 50;

/** The Metadata value of a document: the skeleton as it is, or compressed when it is large. */
export function carriedMetadata(carried: CarriedDocument): Record<string, unknown> {
  if (JSON.stringify(carried.document).length <= COMPRESS_ABOVE) {
    return { document: carried.document, pending: carried.pending };
  }
  return { documentGzip: compressDocument(carried.document), pending: carried.pending };
}

/** The text that stands for a pending value in the synth-time file. */
export function pendingMarker(entry: PendingEntry): string {
  return `<pending: Outputs.${entry.output}[${entry.index}] after deploy; run 'vendor-outputs generate'>`;
}

/** Whether a template's Metadata has the carriage key (as its own key). */
export function hasCarriedDocument(metadata: unknown): boolean {
  return isPlainObject(metadata) && Object.hasOwn(metadata, METADATA_KEY);
}

/** Reads and checks the Metadata value of a template (or template summary). */
export function readCarriedDocument(metadata: unknown, where: string): CarriedDocument {
  if (!hasCarriedDocument(metadata)) {
    throw new CarriageError(`${where} has no '${METADATA_KEY}' template Metadata: it was not synthesized with cdk-vendor-outputs (or by a version with another carriage format)`);
  }
  const raw = (metadata as Record<string, unknown>)[METADATA_KEY];
  return checkCarriedDocument(raw, `${where}: template Metadata '${METADATA_KEY}' is malformed`);
}

/**
 * Fills every pending value of a carried document from the deployed stack outputs.
 *
 * @param outputs stack outputs by logical id (OutputKey → OutputValue)
 * @param where names the stack in error messages
 */
export function rebuildDocument(carried: CarriedDocument, outputs: Readonly<Record<string, string>>, where: string): Record<string, unknown> {
  const document = prototypeFree(carried.document) as Record<string, unknown>;
  const decoded = new Map<string, string[]>();
  const missing = new Set<string>();
  for (const entry of carried.pending) {
    if (!Object.hasOwn(outputs, entry.output)) {
      missing.add(entry.output);
      continue;
    }
    let values = decoded.get(entry.output);
    if (values === undefined) {
      values = decodeOutput(carried, entry.output, outputs[entry.output], where);
      decoded.set(entry.output, values);
    }
    if (entry.index >= values.length) {
      throw new CarriageError(`${where}: output ${entry.output} carries ${values.length} value(s) but ${entry.pointer} needs value ${entry.index}`);
    }
    fillPlaceholder(document, entry.pointer, values[entry.index]);
  }
  if (missing.size > 0) {
    const pointers = carried.pending.filter((e) => missing.has(e.output)).map((e) => e.pointer);
    throw new CarriageError(`${where} is missing output(s) ${[...missing].join(', ')}, needed for ${pointers.join(', ')}`);
  }
  // Back to ordinary objects; JSON.parse keeps a "__proto__" key as data, never as a prototype.
  return JSON.parse(JSON.stringify(document));
}

function decodeOutput(carried: CarriedDocument, output: string, value: string, where: string): string[] {
  const result = decodePackedOutput(value);
  if ('values' in result) {
    return result.values;
  }
  const ofOutput = carried.pending.filter((e) => e.output === output);
  const ofSlot = ofOutput.filter((e) => e.index === result.bad.index);
  const pointers = (ofSlot.length > 0 ? ofSlot : ofOutput).map((e) => e.pointer).join(', ');
  throw new CarriageError(`${where}: output ${output} (for ${pointers}) is not what cdk-vendor-outputs deploys `
    + `(up to ${VALUES_PER_OUTPUT} comma-separated Base64 values of UTF-8 text): value ${result.bad.index}: ${result.bad.reason}; `
    + 'was the output changed after deploy? Deploy the stack again');
}

/** A deep copy whose objects have no prototype, so no key can reach `Object.prototype`. */
function prototypeFree(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(prototypeFree);
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) {
      copy[key] = prototypeFree((value as Record<string, unknown>)[key]);
    }
    return copy;
  }
  return value;
}

/** Sets the `null` placeholder at `pointer` (checked by checkCarriedDocument) to `value`. */
function fillPlaceholder(document: Record<string, unknown>, pointer: string, value: string): void {
  const tokens = pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: any = document;
  for (const token of tokens.slice(0, -1)) {
    node = node[Array.isArray(node) ? Number(token) : token];
  }
  const last = tokens[tokens.length - 1];
  node[Array.isArray(node) ? Number(last) : last] = value;
}
