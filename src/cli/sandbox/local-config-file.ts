/**
 * The frontend's client configuration for the app being served: the document of the stack that
 * carries one, its REST endpoints pointing at the local server (serve --write-outputs's code), the
 * pending values filled from a deployed stack when asked, written in the chosen format only when
 * its content changed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { fillPending } from './deployed-values';
import { CliError } from '../command';
import { LocalApp } from '../local/model/local-app';
import { buildLocalOutputs, LocalApiAddress, stacksWithOutputs, writeLocalOutputs } from '../local/server/local-outputs';
import { ClientConfigFormat } from '../outputs-format/client-config-format';

export interface LocalConfigOptions {
  readonly outDir: string;
  readonly format: ClientConfigFormat;
  /** The deployed document (--from-stack / --outputs-file), whose values fill the pending ones. */
  readonly deployed?: Record<string, unknown>;
}

export interface LocalConfigFile {
  readonly file: string;
  readonly document: Record<string, unknown>;
  /** Whether the file on disk was replaced (false: it already held this content). */
  readonly written: boolean;
  /** JSON pointers of the values known only after a cloud deploy. */
  readonly pending: readonly string[];
}

/** Writes the file; undefined when no stack of the app carries a client configuration. */
export function writeLocalConfigFile(app: LocalApp, apis: readonly LocalApiAddress[], options: LocalConfigOptions): LocalConfigFile | undefined {
  const carrying = stacksWithOutputs(app.stacks, app.assemblyDir);
  if (carrying.length === 0) {
    return undefined;
  }
  if (carrying.length > 1) {
    throw new CliError(`several stacks carry a vendor_outputs.json (${carrying.map((s) => s.artifactId).join(', ')}); pick one with --stack`);
  }
  const outputs = fillPending(buildLocalOutputs(carrying[0], app.assemblyDir, apis), options.deployed);
  const file = path.resolve(options.outDir, options.format.fileName);
  const content = options.format.render(outputs.document);
  const written = readOrUndefined(file) !== content;
  writeLocalOutputs(outputs, options.outDir, options.format, '--outputs-out-dir');
  return { file, document: outputs.document, written, pending: outputs.unresolved };
}

function readOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
