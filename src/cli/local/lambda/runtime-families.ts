/**
 * The runtime families the local Lambda runs, one line each: a function runs on the first family
 * that supports its `Runtime`; a function no family supports is not run locally (the template
 * reader marks its code unsupported with {@link unsupportedRuntimeReason}).
 */
import { nodeFamily } from './node/node-family';
import { pythonFamily } from './python/python-family';
import type { RuntimeFamily } from './runtime-family';

export const RUNTIME_FAMILIES: readonly RuntimeFamily[] = [
  nodeFamily,
  pythonFamily,
];

/** The family that runs `runtime` on this machine, undefined when none does. */
export function runtimeFamilyFor(runtime: string, families: readonly RuntimeFamily[] = RUNTIME_FAMILIES): RuntimeFamily | undefined {
  const family = families.find((f) => f.supports(runtime));
  return family?.unavailable?.(runtime) === undefined ? family : undefined;
}

/**
 * Why a function with this template `Runtime` (absent: a container image) does not run locally,
 * or undefined when a family runs it.
 */
export function unsupportedRuntimeReason(runtime: unknown, families: readonly RuntimeFamily[] = RUNTIME_FAMILIES): string | undefined {
  if (typeof runtime === 'string' && runtimeFamilyFor(runtime, families) !== undefined) {
    return undefined;
  }
  const unavailable = typeof runtime === 'string' ? families.find((f) => f.supports(runtime))?.unavailable?.(runtime) : undefined;
  if (unavailable !== undefined) {
    return unavailable;
  }
  return `runtime ${runtime ?? '(container image)'} is not run locally (only ${families.map((f) => f.runtimePrefix).join(', ')} runtimes are)`;
}
