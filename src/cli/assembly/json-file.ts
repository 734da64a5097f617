/**
 * Reads one JSON file of a cloud assembly, with errors that name the file.
 */
import * as fs from 'fs';
import { CliError } from '../command';

/** The parsed content of `file`; `what` names it in messages (`manifest.json`, `stack X's template`). */
export function readJsonFile(file: string, what: string = file): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${what}${what === file ? '' : ` ${file}`}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${what}${what === file ? '' : ` ${file}`} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Whether `value` is a JSON object (not null, not a list). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
