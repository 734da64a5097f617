/**
 * The Invoke API's limit on a synchronous event (6 MB of JSON). Most events are far below it, so
 * the event is serialized only when a cheap upper bound of its JSON size could reach the limit.
 */
import { finishedEvent, serializedPart, sizeFactorOf } from './deferred-event';
import type { InvokeOutcome } from './invoke-outcome';
import { MAX_REQUEST_PAYLOAD_BYTES } from './limits';

/** Bytes of JSON any event reaches at most beyond six per counted character (numbers, punctuation). */
const SLACK_BYTES = 16_384;

/** The Invoke API's answer to an event over 6 MB, or undefined when it fits (a deferred event is built to be measured only when it might not). */
export function requestTooLarge(event: unknown): InvokeOutcome | undefined {
  if (roughCharacters(serializedPart(event)) * sizeFactorOf(event) * 6 + SLACK_BYTES <= MAX_REQUEST_PAYLOAD_BYTES) {
    return undefined;
  }
  const bytes = Buffer.byteLength(JSON.stringify(finishedEvent(event)) ?? '');
  if (bytes <= MAX_REQUEST_PAYLOAD_BYTES) {
    return undefined;
  }
  return {
    kind: 'rejected',
    statusCode: 413,
    errorType: 'RequestEntityTooLargeException',
    errorMessage: `Request must be smaller than ${MAX_REQUEST_PAYLOAD_BYTES} bytes for the InvokeFunction operation (the event is ${bytes} bytes)`,
  };
}

/** Deeper than this, an event is measured exactly instead (few events nest this deep). */
const MAX_COUNTED_DEPTH = 64;

/**
 * Characters counted so that the event's JSON takes at most six bytes for each (JSON escaping
 * writes a UTF-16 unit as at most `\uXXXX`): strings and keys with their quotes and separators,
 * four for any other value. Infinity for an event nested deeper than {@link MAX_COUNTED_DEPTH}
 * (the recursion stays shallow; such an event is serialized to be measured).
 */
export function roughCharacters(value: unknown, depth = 0): number {
  if (typeof value === 'string') {
    return value.length + 3;
  }
  if (value === null || typeof value !== 'object') {
    return 4;
  }
  if (depth >= MAX_COUNTED_DEPTH) {
    return Infinity;
  }
  let count = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      count += roughCharacters(item, depth + 1);
    }
    return count;
  }
  // for...in (own and inherited enumerable keys) counts at least what JSON.stringify writes, and
  // costs less than Object.keys on this path, taken for every invocation.
  for (const key in value) {
    count += key.length + 4 + roughCharacters((value as Record<string, unknown>)[key], depth + 1);
  }
  return count;
}
