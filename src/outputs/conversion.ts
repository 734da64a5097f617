/**
 * Turns what `addOutput` receives (camelCase struct properties) into the file's shape
 * (snake_case keys), refusing unknown keys and tokens that must be known at synth.
 */
import { Token as CdkToken } from 'aws-cdk-lib';
import { childPointer, displayPointer } from './json-pointer';
import { PendingToken } from './pending-token';
import { deref, describeAllowed, isClosedObject, isFreeForm, isNamedMap, isPlainString, SchemaNode, schemaRoot } from './schema-walk';

// aws-cdk-lib's index exports are lazy getters that cost a require() on every access;
// resolve Token once, as this module asks it about every value it converts.
const Token = CdkToken;

const snakeKeys = new Map<string, string>();

/**
 * Struct properties named apart from their file key, because the file key is a word that jsii's
 * target languages reserve (JSII5018): `geo.*.defaultName` is the file's `default`.
 */
const RENAMED_PROPERTIES = new Map<string, string>([['defaultName', 'default']]);
const RENAMED_FILE_KEYS = new Map([...RENAMED_PROPERTIES].map(([property, fileKey]) => [fileKey, property]));

/** `userPoolClientId` → `user_pool_client_id` (`defaultName` → `default`). */
export function camelToSnake(key: string): string {
  let snake = snakeKeys.get(key);
  if (snake === undefined) {
    snake = RENAMED_PROPERTIES.get(key) ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeKeys.set(key, snake);
  }
  return snake;
}

/** `user_pool_client_id` → `userPoolClientId` (`default` → `defaultName`). */
export function snakeToCamel(key: string): string {
  return RENAMED_FILE_KEYS.get(key) ?? key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Where a value is, as a chain of keys; turned into a JSON pointer only for an error message,
 * because building pointers for every value costs more than the conversion itself.
 */
interface Location {
  readonly parent?: Location;
  readonly key: string | number;
}

function pointerOf(at: Location | undefined): string {
  return at === undefined ? '' : childPointer(pointerOf(at.parent), at.key);
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
    result[key] = convert(value, section, { key }, errors);
  }
  return result;
}

function convert(value: unknown, node: SchemaNode, pointer: Location, errors: string[]): unknown {
  const schema = deref(node);
  if (Token.isUnresolved(value)) {
    return convertToken(value, schema, pointer, errors);
  }
  if (isFreeForm(schema)) {
    return convertFree(value, pointer, errors);
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const at: Location = { parent: pointer, key: i };
      if (Token.isUnresolved(item)) {
        errors.push(`${pointerOf(at)}: a deploy-time token cannot stand in a list (${display(item)}): lists must be known at synth; allowed: ${describeAllowed(deref(schema.items ?? {}))}`);
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
        errors.push(`${pointerOf(pointer)}: a key cannot be a deploy-time token (${key})`);
        continue;
      }
      if (isNamedMap(schema)) {
        result[key] = convert(child, schema.additionalProperties, { parent: pointer, key }, errors);
        continue;
      }
      const fileKey = camelToSnake(key);
      const childSchema = schema.properties[fileKey];
      if (childSchema === undefined) {
        const allowed = Object.keys(schema.properties).map(snakeToCamel);
        errors.push(`${childPointer(pointerOf(pointer), fileKey)}: unknown key '${key}' in ${displayPointer(pointerOf(pointer))}; allowed keys: ${allowed.join(', ')}`);
        continue;
      }
      result[fileKey] = convert(child, childSchema, { parent: pointer, key: fileKey }, errors);
    }
    return result;
  }
  // Wrong types are reported, with the contributor's path, by schema validation at synth.
  return value;
}

function convertToken(value: unknown, schema: SchemaNode, pointer: Location, errors: string[]): unknown {
  if (typeof value === 'string' && (isPlainString(schema) || isFreeForm(schema) || Object.keys(schema).length === 0)) {
    return new PendingToken(value);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainString(schema)) {
    // An IResolvable in a string position is carried like a string token.
    return new PendingToken(Token.asString(value));
  }
  errors.push(`${pointerOf(pointer)}: the value is a deploy-time token (${display(value)}) but must be known at synth: allowed: ${describeAllowed(schema)}`);
  return value;
}

function convertFree(value: unknown, pointer: Location, errors: string[]): unknown {
  if (Token.isUnresolved(value)) {
    if (typeof value === 'string') {
      return new PendingToken(value);
    }
    errors.push(`${pointerOf(pointer)}: the value is a deploy-time token (${display(value)}) but must be known at synth: only string values may be deploy-time tokens`);
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => convertFree(item, { parent: pointer, key: i }, errors));
  }
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (Token.isUnresolved(key)) {
        errors.push(`${pointerOf(pointer)}: a key cannot be a deploy-time token (${key})`);
      } else if (child !== undefined) {
        result[key] = convertFree(child, { parent: pointer, key }, errors);
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
