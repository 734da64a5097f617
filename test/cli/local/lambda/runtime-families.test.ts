/**
 * The registry of runtime families: it picks a family by `Runtime`, and names the runtimes no family
 * runs.
 */
import { nodeFamily } from '../../../../src/cli/local/lambda/node/node-family';
import { pythonFamily } from '../../../../src/cli/local/lambda/python/python-family';
import { RUNTIME_FAMILIES, runtimeFamilyFor, unsupportedRuntimeReason } from '../../../../src/cli/local/lambda/runtime-families';
import type { RuntimeFamily } from '../../../../src/cli/local/lambda/runtime-family';

describe('runtimeFamilyFor', () => {
  test.each(['nodejs18.x', 'nodejs20.x', 'nodejs22.x', 'nodejs24.x'])('%s runs on the Node.js family', (runtime) => {
    expect(runtimeFamilyFor(runtime)).toBe(nodeFamily);
    expect(unsupportedRuntimeReason(runtime)).toBeUndefined();
  });

  test.each(['python3.11', 'python3.12', 'python3.13'])('%s runs on the Python family (this machine has python3)', (runtime) => {
    expect(runtimeFamilyFor(runtime)).toBe(pythonFamily);
    expect(unsupportedRuntimeReason(runtime)).toBeUndefined();
  });

  test.each(['ruby3.3', 'java21', 'provided.al2023', 'dotnet8'])('%s: no family, not run locally', (runtime) => {
    expect(runtimeFamilyFor(runtime)).toBeUndefined();
    expect(unsupportedRuntimeReason(runtime)).toBe(`runtime ${runtime} is not run locally (only nodejs, python runtimes are)`);
  });

  test('a family that cannot run here (no interpreter) is not picked, and its reason is the function\'s', () => {
    const absent: RuntimeFamily = { ...pythonFamily, unavailable: (r) => `runtime ${r} is not run locally: no python3 on PATH (install Python 3 to run it)` };
    expect(runtimeFamilyFor('python3.12', [nodeFamily, absent])).toBeUndefined();
    expect(unsupportedRuntimeReason('python3.12', [nodeFamily, absent])).toBe('runtime python3.12 is not run locally: no python3 on PATH (install Python 3 to run it)');
  });

  test('a function without Runtime (a container image) is not run locally', () => {
    expect(unsupportedRuntimeReason(undefined)).toBe('runtime (container image) is not run locally (only nodejs, python runtimes are)');
  });

  test('the registry holds the Node.js and Python families; the first family that supports a runtime wins and every family is named', () => {
    expect(RUNTIME_FAMILIES.map((f) => f.name)).toEqual(['Node.js', 'Python']);
    const other: RuntimeFamily = { ...nodeFamily, name: 'Other', runtimePrefix: 'python', supports: (r) => r.startsWith('python') || r === 'nodejs22.x' };
    expect(runtimeFamilyFor('nodejs22.x', [nodeFamily, other])).toBe(nodeFamily);
    expect(runtimeFamilyFor('python3.12', [nodeFamily, other])).toBe(other);
    expect(unsupportedRuntimeReason('java21', [nodeFamily, other])).toBe('runtime java21 is not run locally (only nodejs, python runtimes are)');
  });
});
