/**
 * What a reload compares: whether a function must get a new runtime host.
 */
import * as os from 'os';
import * as path from 'path';
import { codeFingerprint } from '../../../../src/cli/local/lambda/code-fingerprint';
import { functionChanged } from '../../../../src/cli/local/lambda/function-change';
import type { FunctionSpec } from '../../../../src/cli/local/model/function-spec';

function spec(overrides: Partial<FunctionSpec> = {}): FunctionSpec {
  return {
    key: 'Stack/Fn',
    logicalId: 'Fn',
    stackName: 'Stack',
    constructPath: 'Stack/Fn',
    functionName: 'Stack-Fn',
    runtime: 'nodejs20.x',
    handler: 'index.handler',
    code: { kind: 'inline', source: 'exports.handler = async () => 1;' },
    environment: { A: '1', B: '2' },
    timeoutSeconds: 3,
    memoryMb: 128,
    region: 'us-east-1',
    ...overrides,
  };
}

describe('functionChanged', () => {
  const changed = (previous: FunctionSpec, next: FunctionSpec) =>
    functionChanged(previous, next, () => codeFingerprint(previous.code), () => codeFingerprint(next.code));

  test('the same settings and code, in any order of environment variables and under another construct path, is no change', () => {
    expect(changed(spec(), spec({ environment: { B: '2', A: '1' }, constructPath: 'Stack/Renamed' }))).toBe(false);
  });

  test.each<[string, Partial<FunctionSpec>]>([
    ['inline source', { code: { kind: 'inline', source: 'exports.handler = async () => 2;' } }],
    ['handler', { handler: 'index.other' }],
    ['runtime', { runtime: 'nodejs22.x' }],
    ['an environment value', { environment: { A: '1', B: '3' } }],
    ['an environment variable added', { environment: { A: '1', B: '2', C: '' } }],
    ['memory', { memoryMb: 256 }],
    ['timeout', { timeoutSeconds: 4 }],
    ['function name', { functionName: 'Other' }],
    ['region', { region: 'eu-west-1' }],
    ['reserved concurrency', { reservedConcurrency: 2 }],
  ])('%s is a change', (_what, overrides) => {
    expect(changed(spec(), spec(overrides))).toBe(true);
  });

  test('code that cannot be read counts as changed', () => {
    const gone = spec({ code: { kind: 'directory', directory: path.join(os.tmpdir(), 'vo-no-such-folder-for-reload') } });
    expect(changed(gone, gone)).toBe(true);
  });
});
