import { childPointer } from './json-pointer';
import { SchemaViolation } from './schema-violation';
import { previewValue } from './value-preview';

/** The subset of an ajv error object (verbose mode) that the messages use. */
interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Record<string, any>;
  readonly message?: string;
  readonly data?: unknown;
  readonly parentSchema?: Record<string, any>;
}

type CompiledValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

// Generated at build time from schema/vendor-outputs.schema.json by scripts/generate-validator.js:
// loading it costs ~1 ms, where compiling the schema with ajv costs ~75 ms per process.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const compiled: CompiledValidator = require('./schema-validator.generated');

/**
 * Validates a parsed document against the vendor_outputs.json schema.
 *
 * Returns every violation (not only the first), each with the JSON pointer of the
 * offending value and a message that says what is allowed.
 */
export function validateDocument(document: unknown): SchemaViolation[] {
  // The generated validator never descends into free-form values (model_introspection; in custom
  // it reads only the top-level keys of each value, for API entries) and the schema is a few levels deep, so deeply nested input cannot exhaust the stack here.
  if (compiled(document)) {
    return [];
  }
  const seen = new Set<string>();
  const violations: SchemaViolation[] = [];
  const allowedKeys = new Map<object, string>();
  for (const error of compiled.errors ?? []) {
    if (error.keyword === 'if') {
      // "must match the then schema": the errors of the `then` part say what is wrong.
      continue;
    }
    const violation = describeError(error, allowedKeys);
    const key = `${violation.pointer}\u0000${violation.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      violations.push(violation);
    }
  }
  return violations;
}

/**
 * Formats a value for a message: JSON, cut short when long. Its cost does not depend on the
 * size or depth of the value.
 */
export function formatValue(value: unknown): string {
  return previewValue(value);
}

/**
 * One message per ajv error. Costs what the message shows, never the size of the value it is
 * about: a message about one of 16,000 unknown keys does not print their parent.
 *
 * @param allowedKeys cache of the `allowed keys` list per schema object, for this call
 */
function describeError(error: AjvError, allowedKeys: Map<object, string>): SchemaViolation {
  const at = error.instancePath;
  const got = () => ` (got ${formatValue(error.data)})`;
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return { pointer: childPointer(at, p.missingProperty), message: `is required but missing${inApiEntry(error.parentSchema)}` };
    case 'minLength':
      return { pointer: at, message: `must have at least ${p.limit} character${p.limit === 1 ? '' : 's'}${got()}` };
    case 'additionalProperties': {
      const schema = error.parentSchema ?? {};
      let allowed = allowedKeys.get(schema);
      if (allowed === undefined) {
        allowed = Object.keys(schema.properties ?? {}).join(', ');
        allowedKeys.set(schema, allowed);
      }
      return {
        pointer: childPointer(at, p.additionalProperty),
        message: `is not allowed here; allowed keys: ${allowed}`,
      };
    }
    case 'enum':
      return { pointer: at, message: `must be one of: ${(p.allowedValues as unknown[]).join(', ')}${got()}` };
    case 'const':
      return { pointer: at, message: `must be ${formatValue(p.allowedValue)}${got()}` };
    case 'type':
      return { pointer: at, message: `must be ${article(p.type)} ${p.type}${got()}` };
    case 'minimum':
    case 'maximum':
      return { pointer: at, message: `must be ${range(error.parentSchema)}${got()}` };
    case 'minItems':
      return { pointer: at, message: `must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}${got()}` };
    case 'uniqueItems':
      return { pointer: at, message: `must not repeat items (items ${Math.min(p.i, p.j)} and ${Math.max(p.i, p.j)} are equal)${got()}` };
    default:
      return { pointer: at, message: `${error.message ?? error.keyword}${got()}` };
  }
}

/** Why a key is required in `custom`: the object is an API entry because it has `api_kind`. */
function inApiEntry(schema: Record<string, any> | undefined): string {
  const required: unknown = schema?.required;
  return Array.isArray(required) && required.includes('api_kind')
    ? ` (an object of custom with api_kind is an API entry, which has ${required.join(', ')})`
    : '';
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}

function range(schema: Record<string, any> | undefined): string {
  const type = schema?.type === 'integer' ? 'an integer' : 'a number';
  if (schema?.minimum !== undefined && schema?.maximum !== undefined) {
    return `${type} from ${schema.minimum} to ${schema.maximum} inclusive`;
  }
  if (schema?.minimum !== undefined) {
    return `${type} >= ${schema.minimum}`;
  }
  return `${type} <= ${schema?.maximum}`;
}
