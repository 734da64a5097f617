/** How one invocation ended, as the callers of the invoker (the integrations, the authorizers) see it. */

/** How one invocation ended. */
export type InvokeOutcome =
  /** The handler returned; `payload` is its JSON text (undefined when it returned nothing). */
  | { readonly kind: 'ok'; readonly payload: string | undefined }
  /** The handler threw, rejected, failed to load, or returned more than Lambda accepts. */
  | { readonly kind: 'error'; readonly errorType: string; readonly errorMessage: string; readonly trace: readonly string[] }
  /** The execution environment died (process.exit, uncaught exception in a callback, out of memory). */
  | { readonly kind: 'crash'; readonly errorMessage: string; readonly outOfMemory?: boolean }
  /** The function ran past its own timeout. */
  | { readonly kind: 'timeout'; readonly seconds: number }
  /** The function cannot run locally (runtime, code). */
  | { readonly kind: 'unsupported'; readonly reason: string }
  /**
   * The Lambda API refused the invocation and the function did not run: 429
   * `TooManyRequestsException` (throttled), 413 `RequestEntityTooLargeException` (event too large)
   * or 404 `ResourceNotFoundException` (a reload removed the function).
   */
  | { readonly kind: 'rejected'; readonly statusCode: number; readonly errorType: string; readonly errorMessage: string };

/** The terminal's words for an invocation that did not return (what the integrations note). */
export function describeFailure(outcome: Exclude<InvokeOutcome, { kind: 'ok' }>): string {
  switch (outcome.kind) {
    case 'error':
      return `${outcome.errorType}: ${outcome.errorMessage}`;
    case 'crash':
      return `${outcome.outOfMemory ? 'Runtime.OutOfMemory' : 'Runtime.ExitError'}: ${outcome.errorMessage}`;
    case 'timeout':
      return `Task timed out after ${outcome.seconds.toFixed(2)} seconds`;
    case 'unsupported':
      return `cannot run locally: ${outcome.reason}`;
    case 'rejected':
      return `Lambda refused the invocation with ${outcome.statusCode} ${outcome.errorType}: ${outcome.errorMessage}`;
  }
}
