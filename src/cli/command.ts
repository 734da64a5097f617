/**
 * What every `vendor-outputs` command provides. Commands live one per file and are loaded
 * only when invoked, so `validate` never pays for what `serve` or `generate` load.
 */
import { parseArgs, ParseArgsConfig } from 'util';

export interface Command {
  /** Name on the command line. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full `--help` text: usage, options, an example. */
  readonly help: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}

/** Bad arguments: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure the user can act on: printed without a stack trace, exit code 1 unless given. */
export class CliError extends Error {
  constructor(message: string, public readonly exitCode = 1) {
    super(message);
    this.name = 'CliError';
  }
}

/** Option values as `util.parseArgs` returns them. */
export type OptionValues = { [name: string]: string | boolean | string[] | boolean[] | undefined };

/** `util.parseArgs` in strict mode, with its errors turned into usage errors. */
export function parseOptions(args: string[], options: NonNullable<ParseArgsConfig['options']>, allowPositionals = false): { values: OptionValues; positionals: string[] } {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true }) as { values: OptionValues; positionals: string[] };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
