/**
 * From a carried document and the deployed outputs to a checked vendor_outputs.json on disk.
 * Nothing is written unless the whole document is rebuilt and valid.
 */
import * as path from 'path';
import { writeFileAtomic } from '../../outputs/cdk-free/atomic-write';
import { CarriageError, CarriedDocument, readCarriedDocument, rebuildDocument } from '../../outputs/cdk-free/carriage';
import { OUTPUTS_FILE_NAME } from '../../outputs/cdk-free/file-names';
import { displayPointer } from '../../outputs/cdk-free/json-pointer';
import { validateDocument } from '../../outputs/cdk-free/validation';
import { CliError } from '../command';
import { ClientConfigFormat, clientConfigFormat } from '../outputs-format/client-config-format';

/** Reads and checks the carried document from template Metadata, turning carriage errors into CLI errors. */
export function carriedFromMetadata(metadata: unknown, where: string): CarriedDocument {
  return asCliError(() => readCarriedDocument(metadata, where));
}

/**
 * Fills the pending values from `outputs` (OutputKey → OutputValue) and validates the result.
 * Throws a CliError naming every missing output, undecodable output or invalid value.
 */
export function rebuildAndValidate(carried: CarriedDocument, outputs: Readonly<Record<string, string>>, where: string): Record<string, unknown> {
  const document = asCliError(() => rebuildDocument(carried, outputs, where));
  const violations = validateDocument(document);
  if (violations.length > 0) {
    const lines = violations.map((v) => `${displayPointer(v.pointer)}: ${v.message}`);
    throw new CliError(`${where}: the rebuilt ${OUTPUTS_FILE_NAME} is invalid (nothing written):\n  ${lines.join('\n  ')}`);
  }
  return document;
}

/**
 * Writes the document to `outDir/vendor_outputs.json` atomically; returns the absolute path.
 * A file that is replaced keeps its mode, and a symbolic link keeps pointing where it did:
 * its target is written (see writeFileAtomic).
 */
export function writeDocument(outDir: string, document: Record<string, unknown>, format: ClientConfigFormat = clientConfigFormat('json')): string {
  const file = path.resolve(outDir, format.fileName);
  // Rendered before anything is written: a document the format cannot hold leaves the old file as it was.
  const content = format.render(document);
  try {
    writeFileAtomic(file, content);
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
