/**
 * `--env-vars FILE`: environment variables for the functions, in the SAM CLI's JSON shape.
 * `Parameters` applies to every function; an object keyed by a function's logical id, its
 * construct path or `<stack>/<logical id>` applies to that function and wins over `Parameters`.
 * Both override the template's `Environment.Variables`.
 */
import { isPlainObject } from '../../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../../outputs/cdk-free/json-file';
import { usageError } from '../common/local-api-error';
import { ownSet } from '../common/own-record';
import type { FunctionSpec } from '../model/function-spec';

/**
 * Keys Lambda reserves: a function's configuration cannot set them, so neither can the file.
 * The credential keys are left out: locally they name what the function signs with.
 */
export const RESERVED_VARIABLES: ReadonlySet<string> = new Set([
  '_HANDLER', '_X_AMZN_TRACE_ID', 'AWS_DEFAULT_REGION', 'AWS_REGION', 'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME', 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE', 'AWS_LAMBDA_LOG_GROUP_NAME', 'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_LAMBDA_RUNTIME_API', 'LAMBDA_TASK_ROOT', 'LAMBDA_RUNTIME_DIR',
]);

/** Reserved on Lambda too, but the file may set them: locally they are what the function signs with. */
const CREDENTIAL_VARIABLES: ReadonlySet<string> = new Set(['AWS_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN']);

/** Whether a template's `Environment.Variables` may not hold `name` (Lambda refuses the function). */
export function reservedInTemplate(name: string): boolean {
  return RESERVED_VARIABLES.has(name) || CREDENTIAL_VARIABLES.has(name);
}

/** The file, read and checked. */
export interface EnvVarsFile {
  readonly file: string;
  /** `Parameters`: for every function. */
  readonly parameters: Readonly<Record<string, string>>;
  /** Key of the file (logical id, construct path or stack/logical id) → its variables. */
  readonly perFunction: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** JSON pointer of a key (RFC 6901 escaping). */
function pointer(...keys: string[]): string {
  return keys.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Strings as written; numbers and booleans as their JSON text (as the SAM CLI converts them). */
function variablesAt(file: string, value: unknown, key: string): Record<string, string> {
  if (!isPlainObject(value)) {
    throw usageError(`--env-vars ${file}: ${pointer(key)} must be an object of NAME: "value" (got ${JSON.stringify(value)})`);
  }
  const out: Record<string, string> = Object.create(null);
  for (const [name, v] of Object.entries(value)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw usageError(`--env-vars ${file}: ${pointer(key, name)} is not a variable name (letters, digits and _, not starting with a digit)`);
    }
    if (RESERVED_VARIABLES.has(name)) {
      throw usageError(`--env-vars ${file}: ${pointer(key, name)}: ${name} is reserved by the Lambda runtime and cannot be set`);
    }
    if (typeof v === 'string') {
      ownSet(out, name, v);
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      ownSet(out, name, String(v));
    } else {
      throw usageError(`--env-vars ${file}: ${pointer(key, name)} must be a string, number or boolean (got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object'})`);
    }
  }
  return out;
}

/** Reads and checks the file; a bad one is a usage error naming the file and the JSON pointer. */
export function readEnvVarsFile(file: string): EnvVarsFile {
  const json = readJsonFile(file, {
    unreadable: (reason) => usageError(`--env-vars ${file}: cannot read the file (${reason})`),
    invalid: (reason) => usageError(`--env-vars ${file}: not valid JSON (${reason})`),
  });
  if (!isPlainObject(json)) {
    throw usageError(`--env-vars ${file}: the file must hold one JSON object: {"Parameters": {"NAME": "value"}, "<function logical id or construct path>": {"NAME": "value"}}`);
  }
  let parameters: Record<string, string> = Object.create(null);
  const perFunction = new Map<string, Record<string, string>>();
  for (const [key, value] of Object.entries(json)) {
    if (key === 'Parameters') {
      parameters = variablesAt(file, value, key);
    } else {
      perFunction.set(key, variablesAt(file, value, key));
    }
  }
  return { file, parameters, perFunction };
}

/** The keys of the file a function answers to. */
function keysOf(fn: FunctionSpec): string[] {
  return [fn.logicalId, `${fn.stackName}/${fn.logicalId}`, ...(fn.constructPath === undefined ? [] : [fn.constructPath])];
}

/** What the file sets for one function: `Parameters`, then the function's own object. */
export function envVarsFor(envVars: EnvVarsFile | undefined, fn: FunctionSpec): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (envVars === undefined) {
    return out;
  }
  Object.assign(out, envVars.parameters);
  for (const key of keysOf(fn)) {
    Object.assign(out, envVars.perFunction.get(key) ?? {});
  }
  return out;
}

/** Warnings for objects of the file that name no function of the app (likely a typo). */
export function unmatchedKeys(envVars: EnvVarsFile, functions: Iterable<FunctionSpec>): string[] {
  const known = new Set<string>();
  for (const fn of functions) {
    keysOf(fn).forEach((k) => known.add(k));
  }
  return [...envVars.perFunction.keys()].filter((k) => !known.has(k)).map((k) =>
    `--env-vars ${envVars.file}: ${pointer(k)} names no function of the app (use a logical id or a construct path such as Stack/Api/Handler); ignored`);
}
