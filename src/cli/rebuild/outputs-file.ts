/**
 * The JSON that `cdk deploy --outputs-file FILE` writes:
 * `{ "<StackName>": { "<OutputKey>": "<value>" } }`.
 */
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../outputs/cdk-free/json-file';
import { CliError } from '../command';

/** Stack outputs by stack name, then by output key. */
export type DeployOutputs = Record<string, Record<string, string>>;

/** Reads and checks an outputs file; every error names the file and the bad entry. */
export function readOutputsFile(file: string): DeployOutputs {
  const parsed = readJsonFile(file, {
    unreadable: (reason) => new CliError(`${file}: cannot read: ${reason}`),
    invalid: (reason) => new CliError(`${file}: not valid JSON: ${reason}`),
  });
  return checkOutputs(parsed, file);
}

/**
 * Checks the `{ stack: { key: string } }` shape. The maps it returns have no prototype, so a
 * stack or output named `__proto__` or `constructor` is an ordinary key.
 */
export function checkOutputs(parsed: unknown, file: string): DeployOutputs {
  const shape = "expected the JSON of 'cdk deploy --outputs-file': { \"<StackName>\": { \"<OutputKey>\": \"<value>\" } }";
  if (!isPlainObject(parsed)) {
    throw new CliError(`${file}: ${shape}`);
  }
  const result: DeployOutputs = Object.create(null);
  for (const [stack, outputs] of Object.entries(parsed)) {
    if (!isPlainObject(outputs)) {
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
