/**
 * A function of a runtime, inline code, for the tests of the function runtime.
 */
import type { FunctionSpec } from '../../../../src/cli/local/model/function-spec';

/** A function `Stack/Fn` of `runtime` whose inline code answers 1, with `overrides`. */
export function fn(runtime: string, overrides: Partial<FunctionSpec> = {}): FunctionSpec {
  return {
    key: `Stack/Fn${runtime.replace(/\W/g, '')}`,
    logicalId: 'Fn',
    stackName: 'Stack',
    functionName: 'Stack-Fn',
    runtime,
    handler: 'index.handler',
    code: { kind: 'inline', source: 'exports.handler = async () => 1;' },
    environment: {},
    timeoutSeconds: 3,
    memoryMb: 128,
    region: 'us-east-1',
    ...overrides,
  };
}
