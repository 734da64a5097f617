/**
 * The JSON that `cdk deploy --outputs-file FILE` writes:
 * `{ "<StackName>": { "<OutputKey>": "<value>" } }`.
 */
import * as fs from 'fs';
import { CliError } from '../command';

/** Stack outputs by stack name, then by output key. */
export type DeployOutputs = Record<string, Record<string, string>>;

/** Reads and checks an outputs file; every error names the file and the bad entry. */
export function readOutputsFile(file: string): DeployOutputs {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  return checkOutputs(parsed, file);
}

/**
 * Checks the `{ stack: { key: string } }` shape. The maps it returns have no prototype, so a
 * stack or output named `__proto__` or `constructor` is an ordinary key.
 */
export function checkOutputs(parsed: unknown, file: string): DeployOutputs {
  const shape = "expected the JSON of 'cdk deploy --outputs-file': { \"<StackName>\": { \"<OutputKey>\": \"<value>\" } }";
  if (!isObject(parsed)) {
    throw new CliError(`${file}: ${shape}`);
  }
  const result: DeployOutputs = Object.create(null);
  for (const [stack, outputs] of Object.entries(parsed)) {
    if (!isObject(outputs)) {
      throw new CliError(`${file}: the value of "${stack}" is not an object; ${shape}`);
    }
    const values: Record<string, string> = Object.create(null);
    for (const [key, value] of Object.entries(outputs)) {
      if (typeof value !== 'string') {
        throw new CliError(`${file}: "${stack}"."${key}" is not a string (got ${JSON.stringify(value)}); ${shape}`);
      }
      values[key] = value;
    }
    result[stack] = values;
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
