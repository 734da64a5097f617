/**
 * Turns what `addOutput` receives (camelCase struct properties) into the file's shape
 * (snake_case keys), refusing unknown keys, file-shaped (snake_case) keys in typed sections,
 * values that are not JSON data, and tokens that must be known at synth.
 */
import { Token as CdkToken } from 'aws-cdk-lib';
import { ALLOWED_DATA, dataObject, isPlainObject, notJsonData, symbolKeyOf } from './cdk-free/json-data';
import { childPointer, displayPointer } from './cdk-free/json-pointer';
import { PendingToken } from './cdk-free/pending-token';
import { deref, describeAllowed, isClosedObject, isFreeForm, isNamedMap, isPlainString, propertyOf, SchemaNode, schemaRoot } from './schema-walk';

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

const camelKeys = new Map<string, string>();

/** `user_pool_client_id` → `userPoolClientId` (`default` → `defaultName`). */
export function snakeToCamel(key: string): string {
  let camel = camelKeys.get(key);
  if (camel === undefined) {
    camel = RENAMED_FILE_KEYS.get(key) ?? key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    camelKeys.set(key, camel);
  }
  return camel;
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

/** One conversion: the problems found so far, and the objects on the path to the current value. */
interface Conversion {
  readonly errors: string[];
  /** Containers being converted (a short list: the depth of the document): meeting one again is a cycle. */
  readonly ancestors: object[];
  /** Where each of `ancestors` is. */
  readonly ancestorLocations: Location[];
}

/** Keys that only the library writes. */
export const MANAGED_KEYS = ['version', '$schema'];

/**
 * Converts one `addOutput` argument. Tokens become {@link PendingToken}s where a plain string
 * is allowed; every other problem is collected in `errors` (one line each). The result's
 * objects have no prototype, so keys such as `constructor` or `__proto__` are plain data.
 */
export function toFileShape(part: Record<string, unknown>, errors: string[]): Record<string, unknown> {
  const root = schemaRoot();
  const result = dataObject();
  if (part === undefined || part === null) {
    return result;
  }
  if (!isPlainObject(part)) {
    errors.push(`/: addOutput takes an object whose keys are sections (got ${notJsonData(part) ?? (Array.isArray(part) ? 'an array' : JSON.stringify(part))})`);
    return result;
  }
  const conversion: Conversion = { errors, ancestors: [], ancestorLocations: [] };
  for (const key of Object.keys(part)) {
    const value = part[key];
    if (value === undefined) {
      continue;
    }
    if (MANAGED_KEYS.includes(key)) {
      errors.push(`/${key}: '${key}' is managed by cdk-vendor-outputs and cannot be set with addOutput`);
      continue;
    }
    const section = propertyOf(root, key);
    if (section === undefined) {
      const allowed = Object.keys(root.properties).filter((k) => !MANAGED_KEYS.includes(k));
      errors.push(`${childPointer('', key)}: unknown section '${key}'; allowed sections: ${allowed.join(', ')}`);
      continue;
    }
    result[key] = convert(value, section, { key }, conversion);
  }
  return result;
}

/**
 * Reports `value` and returns true when it cannot be written. Checked at every position before anything else,
 * so a Date or NaN is refused wherever it stands (a typed section, a list, custom).
 */
function refuseNonData(value: unknown, at: Location, conversion: Conversion): boolean {
  const problem = notJsonData(value);
  if (problem !== undefined) {
    conversion.errors.push(`${pointerOf(at)}: ${problem} cannot be written to vendor_outputs.json; ${ALLOWED_DATA}`);
    return true;
  }
  if (typeof value === 'object' && value !== null) {
    const index = conversion.ancestors.indexOf(value);
    if (index >= 0) {
      const ancestor = conversion.ancestorLocations[index];
      conversion.errors.push(`${pointerOf(at)}: a circular reference (back to ${displayPointer(pointerOf(ancestor))}) cannot be written to vendor_outputs.json; ${ALLOWED_DATA}`);
      return true;
    }
    const symbol = Array.isArray(value) ? undefined : symbolKeyOf(value);
    if (symbol !== undefined) {
      conversion.errors.push(`${pointerOf(at)}: a Symbol key (${String(symbol)}) cannot be written to vendor_outputs.json; object keys must be strings`);
      return true;
    }
  }
  return false;
}

/**
 * Runs `body` with `container` marked as being converted (for cycle detection). Nothing in a
 * conversion throws (problems are collected), so the mark needs no `finally`.
 */
/**
 * How deep objects and arrays may nest in the file. The document travels in the template Metadata,
 * and aws-cdk-lib refuses to resolve a path of more than 200 keys ("circular reference"); far deeper
 * values would end in a bare RangeError. 100 leaves room and is far past any real configuration.
 */
export const MAX_NESTING = 100;

/** Converts the contents of `container` with it on the ancestor stack; refuses nesting past {@link MAX_NESTING}. */
function within<T>(container: object, at: Location, conversion: Conversion, body: () => T): T | object {
  if (conversion.ancestors.length >= MAX_NESTING) {
    const pointer = pointerOf(at);
    const shown = pointer.length > 80 ? `${pointer.slice(0, 80)}…` : pointer;
    conversion.errors.push(`${shown}: nested more than ${MAX_NESTING} levels deep; values may nest at most ${MAX_NESTING} levels`);
    return container;
  }
  conversion.ancestors.push(container);
  conversion.ancestorLocations.push(at);
  const result = body();
  conversion.ancestors.pop();
  conversion.ancestorLocations.pop();
  return result;
}

function convert(value: unknown, node: SchemaNode, at: Location, conversion: Conversion): unknown {
  const schema = deref(node);
  if (Token.isUnresolved(value)) {
    return convertToken(value, schema, at, conversion);
  }
  if (isFreeForm(schema)) {
    return convertFree(value, at, conversion);
  }
  if (refuseNonData(value, at, conversion)) {
    return value;
  }
  if (Array.isArray(value) && schema.type === 'array') {
    return within(value, at, conversion, () => convertList(value, schema, at, conversion));
  }
  if (isPlainObject(value) && (isClosedObject(schema) || isNamedMap(schema))) {
    return within(value, at, conversion, () => convertObject(value, schema, at, conversion));
  }
  // A value of the wrong type is reported, with the contributor's path, by schema validation at
  // synth; its contents are still checked and copied like free-form data.
  return convertFree(value, at, conversion);
}

/** A hole in a sparse array (`[1, , 3]`) has no JSON form: refused, as JSON.stringify would write `null`. */
function isEmptySlot(list: unknown[], index: number, itemAt: Location, conversion: Conversion): boolean {
  if (index in list) {
    return false;
  }
  conversion.errors.push(`${pointerOf(itemAt)}: an empty array slot cannot be written to vendor_outputs.json; ${ALLOWED_DATA}`);
  return true;
}

function convertList(value: unknown[], schema: SchemaNode, at: Location, conversion: Conversion): unknown[] {
  const result: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const itemAt: Location = { parent: at, key: i };
    if (isEmptySlot(value, i, itemAt, conversion)) {
      continue;
    }
    const item = value[i];
    if (Token.isUnresolved(item)) {
      conversion.errors.push(`${pointerOf(itemAt)}: a deploy-time token cannot stand in a list (${display(item)}): lists must be known at synth; allowed: ${describeAllowed(deref(schema.items ?? {}))}`);
      continue;
    }
    result.push(convert(item, schema.items ?? {}, itemAt, conversion));
  }
  return result;
}

function convertObject(value: Record<string, unknown>, schema: SchemaNode, at: Location, conversion: Conversion): Record<string, unknown> {
  const result = dataObject();
  const named = isNamedMap(schema);
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child === undefined) {
      continue;
    }
    if (Token.isUnresolved(key)) {
      conversion.errors.push(`${pointerOf(at)}: a key cannot be a deploy-time token (${key})`);
      continue;
    }
    if (named) {
      // Names chosen by the user (map names) pass through unchanged.
      result[key] = convert(child, schema.additionalProperties, { parent: at, key }, conversion);
      continue;
    }
    const fileKey = fileKeyOf(key, schema, at, conversion.errors);
    if (fileKey !== undefined) {
      result[fileKey] = convert(child, propertyOf(schema, fileKey)!, { parent: at, key: fileKey }, conversion);
    }
  }
  return result;
}

/**
 * The file key of a struct property (`bucketName` → `bucket_name`), or undefined after reporting
 * an unknown key or a key given in the file's own snake_case shape (`bucket_name`): typed
 * sections take the camelCase property names only, so that one key has one spelling.
 */
function fileKeyOf(key: string, schema: SchemaNode, at: Location, errors: string[]): string | undefined {
  const fileKey = camelToSnake(key);
  const property = snakeToCamel(fileKey);
  const known = propertyOf(schema, fileKey) !== undefined;
  if (known && property === key) {
    return fileKey;
  }
  const here = pointerOf(at);
  if (known) {
    errors.push(`${childPointer(here, fileKey)}: '${key}' is the file's spelling; addOutput takes the camelCase property '${property}' in ${displayPointer(here)}`);
    return undefined;
  }
  const allowed = Object.keys(schema.properties).map(snakeToCamel);
  errors.push(`${childPointer(here, fileKey)}: unknown key '${key}' in ${displayPointer(here)}; allowed keys: ${allowed.join(', ')}`);
  return undefined;
}

function convertToken(value: unknown, schema: SchemaNode, at: Location, conversion: Conversion): unknown {
  if (typeof value === 'string' && (isPlainString(schema) || isFreeForm(schema) || Object.keys(schema).length === 0)) {
    return new PendingToken(value);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainString(schema)) {
    // An IResolvable in a string position is carried like a string token.
    return new PendingToken(Token.asString(value));
  }
  conversion.errors.push(`${pointerOf(at)}: the value is a deploy-time token (${display(value)}) but must be known at synth: allowed: ${describeAllowed(schema)}`);
  return value;
}

/** Free-form data (`custom`, `data.model_introspection`): keys unchanged, values checked and copied. */
function convertFree(value: unknown, at: Location, conversion: Conversion): unknown {
  if (Token.isUnresolved(value)) {
    if (typeof value === 'string') {
      return new PendingToken(value);
    }
    conversion.errors.push(`${pointerOf(at)}: the value is a deploy-time token (${display(value)}) but must be known at synth: only string values may be deploy-time tokens`);
    return value;
  }
  if (refuseNonData(value, at, conversion)) {
    return value;
  }
  if (Array.isArray(value)) {
    return within(value, at, conversion, () => {
      const result: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const itemAt: Location = { parent: at, key: i };
        if (!isEmptySlot(value, i, itemAt, conversion)) {
          result.push(convertFree(value[i], itemAt, conversion));
        }
      }
      return result;
    });
  }
  if (isPlainObject(value)) {
    return within(value, at, conversion, () => {
      const result = dataObject();
      for (const key of Object.keys(value)) {
        const child = value[key];
        if (Token.isUnresolved(key)) {
          conversion.errors.push(`${pointerOf(at)}: a key cannot be a deploy-time token (${key})`);
        } else if (child !== undefined) {
          result[key] = convertFree(child, { parent: at, key }, conversion);
        }
      }
      return result;
    });
  }
  return value;
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
