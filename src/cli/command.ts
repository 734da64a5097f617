/**
 * What every `vendor-outputs` command provides. Commands live one per file and are loaded
 * only when invoked, so `validate` never pays for what `serve` or `generate` load.
 */
import { parseArgs, ParseArgsConfig } from 'util';
import { EXIT_CODES, LocalApiError } from './local/common/local-api-error';

/** A command; its one-line summary is in main.ts's command list, which shows it without loading the command. */
export interface Command {
  /** Name on the command line. */
  readonly name: string;
  /** Full `--help` text: usage, options, an example. */
  readonly help: string;
  /**
   * Lines `--help` adds after the text, from what the arguments point at (test-invoke: the APIs of
   * the app). Never throws: what it cannot read, it says.
   */
  helpDetails?(args: readonly string[]): string[];
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

/**
 * An error as the command layer reports it: the local API's own errors become usage errors
 * (kind `usage`: exit 2 with the hint to `--help`) or CliErrors with their kind's exit code;
 * anything else is returned as it is. The one place where local/'s errors meet exit codes.
 */
export function asCommandError(error: unknown): unknown {
  if (!(error instanceof LocalApiError)) {
    return error;
  }
  return error.kind === 'usage' ? new UsageError(error.message) : new CliError(error.message, EXIT_CODES[error.kind]);
}

/** The options a command accepts, as `util.parseArgs` describes them. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * The values `util.parseArgs` returns for `options` in strict mode, typed from the options:
 * `{ type: 'string' }` gives `string | undefined`, `{ type: 'boolean', multiple: true }` gives
 * `boolean[] | undefined`, and so on, with no cast.
 */
export type ParsedOptions<O extends OptionsConfig> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>['values'];

/**
 * `util.parseArgs` in strict mode, with its errors turned into usage errors. The values keep the
 * types `util.parseArgs` gives them (declare the options inline or `as const`).
 */
export function parseOptions<const O extends OptionsConfig>(
  args: string[], options: O, allowPositionals = false,
): { values: ParsedOptions<O>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true });
    return { values, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
