/**
 * An HTTP API integration's `TimeoutInMillis`: 50 to 30,000 ms, 30,000 by default ("Amazon API
 * Gateway quotas for configuring and running an HTTP API": integration timeout 30 seconds).
 */

export const HTTP_INTEGRATION_TIMEOUT_MS = 30_000;

export function httpIntegrationTimeoutMs(value: unknown): number {
  const timeout = Number(value ?? HTTP_INTEGRATION_TIMEOUT_MS);
  return Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, HTTP_INTEGRATION_TIMEOUT_MS) : HTTP_INTEGRATION_TIMEOUT_MS;
}
