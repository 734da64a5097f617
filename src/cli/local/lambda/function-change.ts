/**
 * Whether a reload must replace a function's runtime host: everything the host was started with
 * (code, handler, runtime, environment, memory, timeout, and the name, region and reserved
 * concurrency that its environment variables, context and scaling come from). The construct path
 * only names the function in messages, so it does not count.
 */
import type { FunctionSpec } from '../model';

/** What a host is started with, apart from the code. */
function settingsOf(fn: FunctionSpec): string {
  const environment = Object.keys(fn.environment).sort().map((name) => [name, fn.environment[name]]);
  return JSON.stringify([
    fn.functionName, fn.runtime, fn.handler, fn.timeoutSeconds, fn.memoryMb, fn.reservedConcurrency ?? null, fn.region, environment,
  ]);
}

/**
 * True when `next` runs differently from `previous`. `fingerprint` digests code by content
 * (see code-fingerprint.ts); code it cannot digest counts as changed.
 */
export function functionChanged(previous: FunctionSpec, next: FunctionSpec, fingerprint: (fn: FunctionSpec) => string | undefined): boolean {
  if (settingsOf(previous) !== settingsOf(next)) {
    return true;
  }
  const before = fingerprint(previous);
  return before === undefined || before !== fingerprint(next);
}
