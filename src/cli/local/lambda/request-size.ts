/**
 * The Invoke API's limit on a synchronous event (6 MB of JSON). Most events are far below it, so
 * the event is serialized only when a cheap upper bound of its JSON size could reach the limit.
 */
import type { InvokeOutcome } from './invoke-outcome';
import { MAX_REQUEST_PAYLOAD_BYTES } from './limits';

/** Bytes of JSON any event reaches at most beyond six per counted character (numbers, punctuation). */
const SLACK_BYTES = 16_384;

/** The Invoke API's answer to an event over 6 MB, or undefined when it fits. */
export function requestTooLarge(event: unknown): InvokeOutcome | undefined {
  if (roughCharacters(event, MAX_REQUEST_PAYLOAD_BYTES) * 6 + SLACK_BYTES <= MAX_REQUEST_PAYLOAD_BYTES) {
    return undefined;
  }
  const bytes = Buffer.byteLength(JSON.stringify(event) ?? '');
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

/**
 * Characters counted so that the event's JSON takes at most six bytes for each (JSON escaping
 * writes a UTF-16 unit as at most `\uXXXX`): strings and keys with their quotes and separators,
 * four for any other value. Stops counting past `stopAt`. Walks without recursion (a deep event
 * does not overflow the stack).
 */
export function roughCharacters(event: unknown, stopAt: number): number {
  let count = 0;
  const stack: unknown[] = [event];
  while (stack.length > 0 && count <= stopAt) {
    const value = stack.pop();
    if (typeof value === 'string') {
      count += value.length + 3;
    } else if (Array.isArray(value)) {
      count += 2;
      for (const item of value) {
        stack.push(item);
      }
    } else if (value !== null && typeof value === 'object') {
      count += 2;
      for (const key of Object.keys(value)) {
        count += key.length + 4;
        stack.push((value as Record<string, unknown>)[key]);
      }
    } else {
      count += 4;
    }
  }
  return count;
}
