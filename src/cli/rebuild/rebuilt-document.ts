/**
 * From a carried document and the deployed outputs to a checked vendor_outputs.json document.
 * A document is returned only when it is rebuilt whole and valid.
 */
import { CarriageError, CarriedDocument, readCarriedDocument, rebuildDocument } from '../../outputs/cdk-free/carriage';
import { OUTPUTS_FILE_NAME } from '../../outputs/cdk-free/file-names';
import { displayPointer } from '../../outputs/cdk-free/json-pointer';
import { validateDocument } from '../../outputs/cdk-free/validation';
import { CliError } from '../command';

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
