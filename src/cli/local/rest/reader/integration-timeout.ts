/**
 * An integration's `TimeoutInMillis`: API Gateway's ceiling for REST APIs is also the default.
 */

/** API Gateway's integration timeout ceiling for REST APIs. */
export const MAX_INTEGRATION_TIMEOUT_MS = 29_000;

/** `TimeoutInMillis` from a template, at most the ceiling; absent or not a positive number: the ceiling. */
export function integrationTimeoutMs(value: unknown): number {
  const timeout = Number(value ?? MAX_INTEGRATION_TIMEOUT_MS);
  return Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, MAX_INTEGRATION_TIMEOUT_MS) : MAX_INTEGRATION_TIMEOUT_MS;
}
