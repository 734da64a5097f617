/**
 * Writes a rebuilt document where the frontend reads it. Nothing is written unless the whole
 * document renders in the chosen format; a replaced file is replaced atomically.
 */
import * as path from 'path';
import { writeFileAtomic } from '../../outputs/cdk-free/atomic-write';
import { CliError } from '../command';
import { ClientConfigFormat, clientConfigFormat } from '../outputs-format/client-config-format';

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
