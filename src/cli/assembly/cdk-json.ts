/**
 * What a CDK project's `cdk.json` (and `cdk.context.json`) hold, read as the CDK CLI reads them:
 * the files, their names, and their typed fields with messages that name the file. `sandbox`
 * reads the project from them, `generate` and `diff` the project's app id.
 */
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../outputs/cdk-free/json-file';
import { CliError } from '../command';
import { scanJson } from '../validate/json-scan';

export const CDK_JSON = 'cdk.json';
export const CDK_CONTEXT_JSON = 'cdk.context.json';

/** Parses a JSON object file; a syntax error names the file, line and column. */
export function readJsonObject(file: string): Record<string, unknown> {
  const parsed = readJsonFile(file, {
    unreadable: (reason) => new CliError(`cannot read ${file}: ${reason}`),
    invalid: (reason, text) => {
      // The project's JSON scanner says where, and says it better than V8 (which often gives no position).
      const found = scanJson(text, { parsed: false, findingLimit: 0 }).syntaxError;
      return new CliError(found === undefined
        ? `${file}: not valid JSON: ${reason}`
        : `${file}:${found.position.line}:${found.position.column}: not valid JSON: ${found.message}`);
    },
  });
  if (!isPlainObject(parsed)) {
    throw new CliError(`${file}: must hold a JSON object ({ ... }), not ${Array.isArray(parsed) ? 'a list' : JSON.stringify(parsed)}`);
  }
  return parsed;
}

/** A string field of `config` (read from `file`), or undefined when absent. */
export function optionalString(config: Record<string, unknown>, key: string, file: string): string | undefined {
  const value = config[key];
  if (value !== undefined && typeof value !== 'string') {
    throw new CliError(`${file}: "${key}" must be a string (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** An object field of `config` (read from `file`); an empty object when absent. */
export function objectField(config: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const value = config[key];
  if (value === undefined) {
    return {};
  }
  if (!isPlainObject(value)) {
    throw new CliError(`${file}: "${key}" must be an object (got ${JSON.stringify(value)})`);
  }
  return value;
}
