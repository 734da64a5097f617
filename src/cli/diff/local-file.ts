/**
 * Reads the local client configuration that diff compares: its text, or nothing when it does not
 * exist yet. Anything else that keeps it from being read is a CliError.
 */
import * as fs from 'fs';
import { CliError } from '../command';

/** The file's text, or undefined when there is no file at `file` (generate would create it). */
export function readLocalFile(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!stat.isFile()) {
    throw new CliError(`${file} is not a regular file${stat.isDirectory() ? ' but a folder' : ''}: give the client configuration file as FILE`);
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new CliError(`${file} is not valid UTF-8 text: generate writes UTF-8`);
  }
}

/** Deepest nesting diff compares; a vendor_outputs.json nests a handful of levels. */
export const MAX_NESTING = 512;

/** Throws when `value` nests deeper than MAX_NESTING (walked without recursion). */
export function checkNesting(value: unknown, file: string): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') {
      continue;
    }
    if (depth >= MAX_NESTING) {
      throw new CliError(`${file} nests objects or lists deeper than ${MAX_NESTING} levels: not a client configuration diff can compare`);
    }
    for (const item of Object.values(node)) {
      stack.push({ value: item, depth: depth + 1 });
    }
  }
}
