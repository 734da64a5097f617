/**
 * The errors the local API throws (reading the app, its option values, starting the server,
 * running functions). They say what went wrong and what to do; the commands turn them into exit
 * codes and messages at their boundary (see command.ts `asCommandError`), so nothing in local/
 * knows about the command layer.
 */

/**
 * What kind of failure it is:
 * - `usage`: a value the user gave (an option, a setting in the environment) is not allowed;
 * - `input`: the app, the cloud assembly or a file cannot be used as it is;
 * - `server`: the machine refused (a port in use, a file not writable) or the server is closed.
 */
export type LocalApiErrorKind = 'usage' | 'input' | 'server';

/** A failure of the local API the user can act on; its message is shown without a stack trace. */
export class LocalApiError extends Error {
  constructor(message: string, public readonly kind: LocalApiErrorKind = 'input') {
    super(message);
    this.name = 'LocalApiError';
  }
}

/** A value the user gave is not allowed (the command adds the hint to `--help`). */
export function usageError(message: string): LocalApiError {
  return new LocalApiError(message, 'usage');
}

/** The process exit code of each kind: 2 for usage errors, 1 for the others, as every command has it. */
export const EXIT_CODES: Readonly<Record<LocalApiErrorKind, number>> = { usage: 2, input: 1, server: 1 };
