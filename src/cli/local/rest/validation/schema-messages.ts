/**
 * ajv's validation errors in the wording API Gateway's execution log uses for a body that does not
 * match its model (`Request body does not match model schema for content type application/json:
 * [object has missing required properties (["name"])]`, as the console's TEST shows it). Keywords
 * without a known wording keep ajv's message.
 */
import type { ErrorObject } from 'ajv';

/** One message per failed check, in ajv's order; the missing properties of one object are one message. */
export function schemaMessages(errors: readonly ErrorObject[], body: unknown): { readonly text: string; readonly pointer: string }[] {
  const out: { text: string; pointer: string }[] = [];
  const missingByPointer = new Map<string, { text: string; pointer: string; names: string[] }>();
  for (const error of errors) {
    const pointer = error.instancePath === '' ? '/' : error.instancePath;
    if (error.keyword === 'required') {
      let entry = missingByPointer.get(pointer);
      if (entry === undefined) {
        entry = { text: '', pointer, names: [] };
        missingByPointer.set(pointer, entry);
        out.push(entry);
      }
      entry.names.push(String(error.params.missingProperty));
      entry.text = `object has missing required properties (${JSON.stringify(entry.names)})`;
      continue;
    }
    out.push({ text: message(error, valueAt(body, error.instancePath)), pointer });
  }
  return out;
}

function message(error: ErrorObject, value: unknown): string {
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'type':
      return `instance type (${jsonType(value)}) does not match any allowed primitive type (allowed: ${JSON.stringify([p.type].flat())})`;
    case 'enum':
      return `instance value (${JSON.stringify(value)}) not found in enum (possible values: ${JSON.stringify(p.allowedValues)})`;
    case 'minimum':
      return `numeric instance is lower than the required minimum (minimum: ${p.limit}, found: ${value})`;
    case 'maximum':
      return `numeric instance is greater than the required maximum (maximum: ${p.limit}, found: ${value})`;
    case 'minLength':
      return `string ${JSON.stringify(value)} is too short (length: ${String(value).length}, required minimum: ${p.limit})`;
    case 'maxLength':
      return `string ${JSON.stringify(value)} is too long (length: ${String(value).length}, maximum allowed: ${p.limit})`;
    case 'pattern':
      return `ECMA 262 regex ${JSON.stringify(p.pattern)} does not match input string ${JSON.stringify(value)}`;
    case 'additionalProperties':
      return `object instance has properties which are not allowed by the schema: ${JSON.stringify([p.additionalProperty])}`;
    case 'minItems':
      return `array is too short: must have at least ${p.limit} elements but instance has ${Array.isArray(value) ? value.length : 0} elements`;
    case 'maxItems':
      return `array is too long: must have at most ${p.limit} elements but instance has ${Array.isArray(value) ? value.length : 0} elements`;
    default:
      return error.message ?? error.keyword;
  }
}

/** The JSON Schema primitive type of a value (`integer` for whole numbers, as draft 4 names them). */
function jsonType(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  return typeof value;
}

/** The value at a JSON pointer of ajv's `instancePath` (`/pet/name`, `/items/0`). */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    value = value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key) ? (value as any)[key] : undefined;
  }
  return value;
}
