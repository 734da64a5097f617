/**
 * The context object a Node.js handler receives. It is built by one object literal per runtime
 * style, so every invocation's context has the same shape: spreading the function's fields into a
 * new object and adding `done`/`succeed`/`fail` afterwards cost about 4 µs an invocation (a fifth
 * of the runtime process's time under load).
 */
import type { FunctionContext } from '../runtime-family';

/** Ends an invocation with an error or a value (what `context.done` does). */
export type Settle = (error: unknown, value: unknown) => void;

/**
 * The context of invocation `awsRequestId`, which must end by `deadline` (ms since the epoch).
 * With `settle` (runtimes up to Node.js 22) it has the legacy `done`, `succeed` and `fail`.
 */
export function lambdaContext(fn: FunctionContext, awsRequestId: string, deadline: number, settle?: Settle): Record<string, unknown> {
  const getRemainingTimeInMillis = (): number => Math.max(0, deadline - Date.now());
  if (settle === undefined) {
    return {
      functionName: fn.functionName,
      functionVersion: fn.functionVersion,
      invokedFunctionArn: fn.invokedFunctionArn,
      memoryLimitInMB: fn.memoryLimitInMB,
      logGroupName: fn.logGroupName,
      logStreamName: fn.logStreamName,
      awsRequestId,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis,
    };
  }
  return {
    functionName: fn.functionName,
    functionVersion: fn.functionVersion,
    invokedFunctionArn: fn.invokedFunctionArn,
    memoryLimitInMB: fn.memoryLimitInMB,
    logGroupName: fn.logGroupName,
    logStreamName: fn.logStreamName,
    awsRequestId,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis,
    done: (error?: unknown, value?: unknown) => settle(error, value),
    succeed: (value: unknown) => settle(null, value),
    fail: (error: unknown) => settle(error ?? 'handled', undefined),
  };
}
