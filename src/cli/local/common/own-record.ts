/**
 * Records keyed by names a client chose (header and query names). A name such as `__proto__`,
 * `constructor` or `toString` must be an ordinary own key: never read through to
 * `Object.prototype`, never set the prototype. The records stay plain objects, so a function
 * receives what `JSON.parse` of the event gives it in the cloud (where `hasOwnProperty` works and a
 * `__proto__` header is an own property).
 */
import { isPlainObject } from '../../../outputs/cdk-free/json-data';

/** The own value of `key`, never an inherited member. */
export function ownGet<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Sets `key` as an own, enumerable property (`__proto__` included, as JSON.parse does). */
export function ownSet<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    record[key] = value;
  }
}

/**
 * Records one occurrence of a repeatable name (a header, a query parameter) in the single-value
 * record (the last value wins, as API Gateway does) and the multi-value record (every value, in order).
 */
export function appendValue(single: Record<string, string>, multi: Record<string, string[]>, name: string, value: string): void {
  ownSet(single, name, value);
  const list = ownGet(multi, name);
  if (list === undefined) {
    ownSet(multi, name, [value]);
  } else {
    list.push(value);
  }
}

/** A template value as a JSON object: itself when it is one, else an empty object. */
export function asRecord(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

/** The strings of a template's list (`BinaryMediaTypes`, `AuthorizationScopes`); not a list: none. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
