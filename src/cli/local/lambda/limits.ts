/**
 * Lambda's documented limits that the local runtime applies, and the local defaults for
 * concurrency (what a deployed function gets from the account, here from the machine).
 */
import { usageError } from '../common/local-api-error';

/**
 * Synchronous (RequestResponse) invocation request payload: the Invoke API refuses a larger event
 * with 413 `RequestEntityTooLargeException` ("Request must be smaller than 6291456 bytes for the
 * InvokeFunction operation").
 */
export const MAX_REQUEST_PAYLOAD_BYTES = 6_291_456;

/**
 * Synchronous invocation response payload: a larger result fails the invocation with
 * `Function.ResponseSizeTooLarge` (the runtime API answers 413 for 6291556 bytes and more).
 */
export const MAX_RESPONSE_PAYLOAD_BYTES = 6_291_556;

/** Lambda's default concurrency quota of an account in a Region, shared by functions without reserved concurrency. */
export const DEFAULT_ACCOUNT_CONCURRENCY = 1000;

/** The environment variable that overrides {@link DEFAULT_ACCOUNT_CONCURRENCY} for `serve` and `test-invoke`. */
export const MAX_CONCURRENCY_ENV = 'VENDOR_OUTPUTS_MAX_CONCURRENCY';

/** An execution environment that served nothing for this long is retired (its memory returned). */
export const DEFAULT_IDLE_RETIRE_MS = 60_000;

/**
 * Environments starting at once per function. Starting one costs about 40 ms of CPU; starting
 * hundreds together delays every one of them, so a burst is served by the environments already up
 * while more come up a few at a time (2,000 requests to a 200 ms function on 2 cores: 4 at once
 * 7.3 s, 12 at once 5.6 s, 32 at once 11 s with client time-outs).
 */
export const DEFAULT_STARTING_AT_ONCE = 8;

/**
 * The account concurrency from `VENDOR_OUTPUTS_MAX_CONCURRENCY`, else the default; a value that
 * is not a positive integer is refused with a message naming the variable.
 */
export function accountConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[MAX_CONCURRENCY_ENV];
  if (raw === undefined || raw.trim() === '') {
    return DEFAULT_ACCOUNT_CONCURRENCY;
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw usageError(`${MAX_CONCURRENCY_ENV} must be a positive whole number of concurrent executions (got '${raw}')`);
  }
  return value;
}
