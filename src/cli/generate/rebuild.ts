/**
 * From a carried document and the deployed outputs to a checked vendor_outputs.json on disk.
 * Nothing is written unless the whole document is rebuilt and valid.
 */
import * as path from 'path';
import { writeFileAtomic } from '../../outputs/atomic-write';
import { CarriageError, CarriedDocument, METADATA_KEY, readCarriedDocument, rebuildDocument } from '../../outputs/carriage';
import { displayPointer } from '../../outputs/json-pointer';
import { validateDocument } from '../../outputs/validation';
import { CliError } from '../command';

/** Name of the file `generate` writes. */
export const OUTPUT_FILE_NAME = 'vendor_outputs.json';

/** Reads the carried document from template Metadata, turning carriage errors into CLI errors. */
export function carriedFromMetadata(metadata: unknown, where: string): CarriedDocument {
  const carried = asCliError(() => readCarriedDocument(metadata, where));
  carried.pending.forEach((entry, i) => {
    const e = entry as unknown as Record<string, unknown>;
    if (typeof e?.pointer !== 'string' || !e.pointer.startsWith('/') || typeof e.output !== 'string'
      || typeof e.index !== 'number' || !Number.isInteger(e.index) || e.index < 0) {
      throw new CliError(`${where}: template Metadata '${METADATA_KEY}' is malformed: pending[${i}] must be { pointer: "/...", output: string, index: integer >= 0 } (got ${JSON.stringify(entry)})`);
    }
  });
  return carried;
}

/**
 * Fills the pending values from `outputs` (OutputKey → OutputValue) and validates the result.
 * Throws a CliError naming every missing output or invalid value.
 */
export function rebuildAndValidate(carried: CarriedDocument, outputs: Record<string, string>, where: string): Record<string, unknown> {
  const document = asCliError(() => rebuildDocument(carried, outputs, where));
  const violations = validateDocument(document);
  if (violations.length > 0) {
    const lines = violations.map((v) => `${displayPointer(v.pointer)}: ${v.message}`);
    throw new CliError(`${where}: the rebuilt vendor_outputs.json is invalid (nothing written):\n  ${lines.join('\n  ')}`);
  }
  return document;
}

/** Writes the document to `outDir/vendor_outputs.json` atomically; returns the absolute path. */
export function writeDocument(outDir: string, document: Record<string, unknown>): string {
  const file = path.resolve(outDir, OUTPUT_FILE_NAME);
  try {
    writeFileAtomic(file, `${JSON.stringify(document, null, 2)}\n`);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return file;
}

/** One line describing what was rebuilt. */
export function summary(where: string, carried: CarriedDocument, document: Record<string, unknown>): string {
  const sections = Object.keys(document).filter((k) => k !== '$schema' && k !== 'version');
  return `${where}: ${carried.pending.length} deploy-time value(s) filled; sections: ${sections.length > 0 ? sections.join(', ') : 'none'}`;
}

function asCliError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CarriageError) {
      throw new CliError(error.message);
    }
    throw error;
  }
}
