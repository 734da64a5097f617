import * as fs from 'fs';
import { CliError, Command, parseOptions, UsageError } from './command';
import { displayPointer } from '../outputs/json-pointer';
import { validateDocument } from '../outputs/validation';

/** Line and column of a character offset, both counted from 1. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Parses JSON text, turning a syntax error into one that names the file, line and column.
 */
export function parseJsonFile(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? (({ line, column }) => `${line}:${column}`)(lineAndColumn(text, Number(position[1]))) : '1:1';
    throw new CliError(`${file}:${where}: not valid JSON: ${message}`);
  }
}

/** Problems of one file, formatted `FILE: <pointer>: <message>`; empty when valid. */
export function validateFile(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
  }
  let document: unknown;
  try {
    document = parseJsonFile(file, text);
  } catch (error) {
    return [(error as Error).message];
  }
  return validateDocument(document).map((v) => `${file}: ${displayPointer(v.pointer)}: ${v.message}`);
}

export const command: Command = {
  name: 'validate',
  summary: 'Check vendor_outputs.json files against the schema',
  help: [
    'Usage: vendor-outputs validate FILE...',
    '',
    'Checks each FILE against the vendor_outputs.json schema (JSON Schema draft 2020-12, version 1).',
    'Prints one line per problem: FILE: <json-pointer>: <message naming what is allowed>.',
    '',
    'Exit status: 0 when every file is valid, 1 when any is invalid, 2 on usage errors or unreadable files.',
    '',
    'Example:',
    '  vendor-outputs validate vendor_outputs.json cdk.out/MyStack.vendor_outputs.json',
  ].join('\n'),
  async run(args) {
    const { positionals } = parseOptions(args, {}, true);
    if (positionals.length === 0) {
      throw new UsageError('no FILE given');
    }
    let invalid = 0;
    let unreadable = 0;
    for (const file of positionals) {
      try {
        const problems = validateFile(file);
        if (problems.length > 0) {
          invalid++;
          process.stdout.write(`${problems.join('\n')}\n`);
        }
      } catch (error) {
        if (!(error instanceof CliError)) {
          throw error;
        }
        unreadable++;
        process.stderr.write(`vendor-outputs validate: ${error.message}\n`);
      }
    }
    if (unreadable > 0) {
      return 2;
    }
    if (invalid === 0) {
      process.stderr.write(`${positionals.length} file(s) valid\n`);
    }
    return invalid > 0 ? 1 : 0;
  },
};
