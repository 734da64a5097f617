/**
 * Turns what `addOutput` receives (camelCase struct properties) into the file's shape
 * (snake_case keys), refusing unknown keys and tokens that must be known at synth.
 */
import { Token } from 'aws-cdk-lib';
import { childPointer, displayPointer } from './json-pointer';
import { PendingToken } from './pending-token';
import { deref, describeAllowed, isClosedObject, isFreeForm, isNamedMap, isPlainString, SchemaNode, schemaRoot } from './schema-walk';

/** `userPoolClientId` → `user_pool_client_id`. */
export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `user_pool_client_id` → `userPoolClientId`. */
export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Keys that only the library writes. */
export const MANAGED_KEYS = ['version', '$schema'];

/**
 * Converts one `addOutput` argument. Tokens become {@link PendingToken}s where a plain string
 * is allowed; every other problem is collected in `errors` (one line each).
 */
export function toFileShape(part: Record<string, unknown>, errors: string[]): Record<string, unknown> {
  const root = schemaRoot();
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part ?? {})) {
    if (value === undefined) {
      continue;
    }
    if (MANAGED_KEYS.includes(key)) {
      errors.push(`/${key}: '${key}' is managed by cdk-vendor-outputs and cannot be set with addOutput`);
      continue;
    }
    const section = root.properties[key];
    if (section === undefined) {
      const allowed = Object.keys(root.properties).filter((k) => !MANAGED_KEYS.includes(k));
      errors.push(`/${key}: unknown section '${key}'; allowed sections: ${allowed.join(', ')}`);
      continue;
    }
    result[key] = convert(value, section, `/${key}`, errors);
  }
  return result;
}

function convert(value: unknown, node: SchemaNode, pointer: string, errors: string[]): unknown {
  const schema = deref(node);
  if (Token.isUnresolved(value)) {
    return convertToken(value, schema, pointer, errors);
  }
  if (isFreeForm(schema)) {
    return convertFree(value, pointer, errors);
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const at = childPointer(pointer, i);
      if (Token.isUnresolved(item)) {
        errors.push(`${at}: a deploy-time token cannot stand in a list (${display(item)}): lists must be known at synth; allowed: ${describeAllowed(deref(schema.items ?? {}))}`);
        return item;
      }
      return convert(item, schema.items ?? {}, at, errors);
    });
  }
  if (isPlainObject(value) && (isClosedObject(schema) || isNamedMap(schema))) {
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) {
        continue;
      }
      if (Token.isUnresolved(key)) {
        errors.push(`${pointer}: a key cannot be a deploy-time token (${key})`);
        continue;
      }
      if (isNamedMap(schema)) {
        result[key] = convert(child, schema.additionalProperties, childPointer(pointer, key), errors);
        continue;
      }
      const fileKey = camelToSnake(key);
      const childSchema = schema.properties[fileKey];
      if (childSchema === undefined) {
        const allowed = Object.keys(schema.properties).map(snakeToCamel);
        errors.push(`${childPointer(pointer, fileKey)}: unknown key '${key}' in ${displayPointer(pointer)}; allowed keys: ${allowed.join(', ')}`);
        continue;
      }
      result[fileKey] = convert(child, childSchema, childPointer(pointer, fileKey), errors);
    }
    return result;
  }
  // Wrong types are reported, with the contributor's path, by schema validation at synth.
  return value;
}

function convertToken(value: unknown, schema: SchemaNode, pointer: string, errors: string[]): unknown {
  if (typeof value === 'string' && (isPlainString(schema) || isFreeForm(schema) || Object.keys(schema).length === 0)) {
    return new PendingToken(value);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainString(schema)) {
    // An IResolvable in a string position is carried like a string token.
    return new PendingToken(Token.asString(value));
  }
  errors.push(`${pointer}: the value is a deploy-time token (${display(value)}) but must be known at synth: allowed: ${describeAllowed(schema)}`);
  return value;
}

function convertFree(value: unknown, pointer: string, errors: string[]): unknown {
  if (Token.isUnresolved(value)) {
    if (typeof value === 'string') {
      return new PendingToken(value);
    }
    errors.push(`${pointer}: the value is a deploy-time token (${display(value)}) but must be known at synth: only string values may be deploy-time tokens`);
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => convertFree(item, childPointer(pointer, i), errors));
  }
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (Token.isUnresolved(key)) {
        errors.push(`${pointer}: a key cannot be a deploy-time token (${key})`);
      } else if (child !== undefined) {
        result[key] = convertFree(child, childPointer(pointer, key), errors);
      }
    }
    return result;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function display(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  try {
    return Token.asString(value);
  } catch {
    return String(value);
  }
}
