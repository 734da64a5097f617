/**
 * What may stand in vendor_outputs.json: JSON data, nothing that JSON.stringify would turn into
 * something else (`{}` for a Date, `null` for NaN) or drop (a Symbol, an undefined list item).
 * No aws-cdk-lib here: tokens are recognised by the caller before a value gets this far.
 */

/** Says what `addOutput` takes, for messages. */
export const ALLOWED_DATA = 'allowed: strings, finite numbers, booleans, null, arrays and plain objects';

/** An object made by `{...}`, `JSON.parse` or `Object.create(null)`, from any realm. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype
    || (Object.getPrototypeOf(proto) === null && typeof proto.constructor === 'function' && proto.constructor.name === 'Object');
}

/**
 * Why `value` is not JSON data, or undefined when it is a string, finite number, boolean or
 * null, or a (plain) array or object, whose contents the caller checks one by one.
 */
export function notJsonData(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value}`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return `a function (${value.name === '' ? 'anonymous' : value.name})`;
    case 'bigint':
      return `a BigInt (${value}n)`;
    case 'symbol':
      return `a Symbol (${String(value)})`;
  }
  if (value === null || Array.isArray(value) || isPlainObject(value)) {
    return undefined;
  }
  return describeInstance(value as object);
}

function describeInstance(value: object): string {
  if (value instanceof Date) {
    return `a Date (${Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()})`;
  }
  if (value instanceof RegExp) {
    return `a RegExp (${String(value)})`;
  }
  if (value instanceof Map) {
    return `a Map (${value.size} entries)`;
  }
  if (value instanceof Set) {
    return `a Set (${value.size} items)`;
  }
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? `an instance of ${name}` : 'an object with a custom prototype';
}

/** The first enumerable Symbol key of an object, which JSON.stringify would drop. */
export function symbolKeyOf(value: object): symbol | undefined {
  return Object.getOwnPropertySymbols(value).find((s) => Object.prototype.propertyIsEnumerable.call(value, s));
}

/** `Object.hasOwn`: true only for a key the object has itself, never one from Object.prototype. */
export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** An object without a prototype, so that any key (`__proto__`, `constructor`) is plain data. */
export function dataObject(): Record<string, unknown> {
  return Object.create(null);
}
