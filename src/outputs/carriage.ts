/**
 * How the document travels from synth to deploy time, and how it is rebuilt afterwards.
 *
 * This module never loads aws-cdk-lib: the CLI uses it to rebuild the file from a deployed stack.
 *
 * - The literal part of the document (the "skeleton") goes into the template's Metadata under
 *   {@link METADATA_KEY}, with `null` where a value is pending, plus the list of pending values.
 * - Each distinct pending value is a slot in a stack output. One output carries up to
 *   {@link VALUES_PER_OUTPUT} slots, each Base64-encoded (`Fn::Base64`) and joined with commas:
 *   Base64 never contains a comma, so any deployed value (quotes, backslashes, newlines, commas)
 *   comes back byte for byte, and 100 distinct values cost 13 of CloudFormation's 200 outputs.
 */
import { setAtPointer } from './json-pointer';

/** Template Metadata key; the suffix is the version of the carriage format. */
export const METADATA_KEY = 'cdk-vendor-outputs/v1';

/** How many pending values one stack output carries. */
export const VALUES_PER_OUTPUT = 8;

/** Most stack outputs the library will use in one stack (CloudFormation allows 200 in all). */
export const MAX_OUTPUTS = 50;

/** Where one pending value comes from after deploy. */
export interface PendingEntry {
  /** JSON pointer of the value in the document. */
  readonly pointer: string;
  /** Logical id of the stack output that carries it. */
  readonly output: string;
  /** Position of the value in that output's comma-separated list. */
  readonly index: number;
}

/** The template Metadata value under {@link METADATA_KEY}. */
export interface CarriedDocument {
  /** The document with `null` where a value is pending. */
  readonly document: Record<string, unknown>;
  /** Every pending value, in document order. */
  readonly pending: PendingEntry[];
}

/** A missing or malformed piece of what a deployed stack should carry. */
export class CarriageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CarriageError';
  }
}

/** The text that stands for a pending value in the synth-time file. */
export function pendingMarker(entry: PendingEntry): string {
  return `<pending: Outputs.${entry.output}[${entry.index}] after deploy; run 'vendor-outputs generate'>`;
}

/** Splits one output value into its decoded slots. */
export function decodePackedOutput(value: string): string[] {
  return value.split(',').map((part) => Buffer.from(part, 'base64').toString('utf8'));
}

/** Reads and checks the Metadata value of a template (or template summary). */
export function readCarriedDocument(metadata: unknown, where: string): CarriedDocument {
  const carried = (metadata as Record<string, unknown> | undefined)?.[METADATA_KEY] as CarriedDocument | undefined;
  if (carried === undefined) {
    throw new CarriageError(`${where} has no '${METADATA_KEY}' template Metadata: it was not synthesized with cdk-vendor-outputs (or by a version with another carriage format)`);
  }
  if (typeof carried !== 'object' || carried === null || typeof carried.document !== 'object' || !Array.isArray(carried.pending)) {
    throw new CarriageError(`${where}: template Metadata '${METADATA_KEY}' is malformed: expected { document, pending[] }`);
  }
  return carried;
}

/**
 * Fills every pending value of a carried document from the deployed stack outputs.
 *
 * @param outputs stack outputs by logical id (OutputKey → OutputValue)
 * @param where names the stack in error messages
 */
export function rebuildDocument(carried: CarriedDocument, outputs: Record<string, string>, where: string): Record<string, unknown> {
  const document = JSON.parse(JSON.stringify(carried.document));
  const decoded = new Map<string, string[]>();
  const missing = new Set<string>();
  for (const entry of carried.pending) {
    if (!decoded.has(entry.output)) {
      const raw = outputs[entry.output];
      if (raw === undefined) {
        missing.add(entry.output);
        continue;
      }
      decoded.set(entry.output, decodePackedOutput(raw));
    }
    const values = decoded.get(entry.output)!;
    if (entry.index >= values.length) {
      throw new CarriageError(`${where}: output ${entry.output} carries ${values.length} value(s) but ${entry.pointer} needs value ${entry.index}`);
    }
    setAtPointer(document, entry.pointer, values[entry.index]);
  }
  if (missing.size > 0) {
    const pointers = carried.pending.filter((e) => missing.has(e.output)).map((e) => e.pointer);
    throw new CarriageError(`${where} is missing output(s) ${[...missing].join(', ')}, needed for ${pointers.join(', ')}`);
  }
  return document;
}
