/**
 * The one reader of a JSON file, for the CLI and for construct code. Callers word its two
 * failures themselves (a file that cannot be read, a text that is not JSON) and choose the error
 * they throw: the CLI throws its CliError, each command names the file its own way. Free of
 * aws-cdk-lib.
 */
import * as fs from 'fs';

/** How a caller reports the two ways reading a JSON file fails. */
export interface JsonFileFailures {
  /**
   * The file cannot be read; `reason` is the system's error code (`ENOENT`, `EISDIR`...), else its
   * message; `message` is the system's whole message (`ENOENT: no such file or directory, open '...'`).
   */
  unreadable(reason: string, message: string): Error;
  /** The file's text is not JSON; `reason` is JSON.parse's message, `text` what was read (to locate the error). */
  invalid(reason: string, text: string): Error;
}

/** Errors of type `kind` that name the file `name`: `cannot read NAME: ENOENT`, `NAME is not valid JSON: ...`. */
export function failuresNaming(name: string, kind: new (message: string) => Error = Error): JsonFileFailures {
  return {
    unreadable: (reason) => new kind(`cannot read ${name}: ${reason}`),
    invalid: (reason) => new kind(`${name} is not valid JSON: ${reason}`),
  };
}

/** The parsed content of `file`; throws what `failures` makes of a read or parse error. */
export function readJsonFile(file: string, failures: JsonFileFailures = failuresNaming(file)): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const message = (error as Error).message;
    throw failures.unreadable((error as NodeJS.ErrnoException).code ?? message, message);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw failures.invalid((error as Error).message, text);
  }
}
