/**
 * Whether a reload must replace a function's environments (its pool): everything they were started with
 * (code, handler, runtime, environment, memory, timeout, and the name, region and reserved
 * concurrency that its environment variables, context and scaling come from). The construct path
 * only names the function in messages, so it does not count.
 */
import type { FunctionSpec } from '../model/function-spec';

/** What a function's environments are started with, apart from the code. */
function settingsOf(fn: FunctionSpec): string {
  const environment = Object.keys(fn.environment).sort().map((name) => [name, fn.environment[name]]);
  return JSON.stringify([
    fn.functionName, fn.runtime, fn.handler, fn.timeoutSeconds, fn.memoryMb, fn.reservedConcurrency ?? null, fn.region, environment,
  ]);
}

/**
 * True when `next` runs differently from `previous`. The code is compared by digest (see
 * code-fingerprint.ts), taken only when the settings are alike: `codeBefore` digests what
 * `previous` ran, `codeAfter` what `next` holds; a digest that cannot be had counts as changed.
 */
export function functionChanged(
  previous: FunctionSpec,
  next: FunctionSpec,
  codeBefore: () => string | undefined,
  codeAfter: () => string | undefined,
): boolean {
  if (settingsOf(previous) !== settingsOf(next)) {
    return true;
  }
  const before = codeBefore();
  return before === undefined || before !== codeAfter();
}
