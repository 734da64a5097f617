/**
 * What a reload compares: which API of a new synth is which served API (api-match.ts), and
 * whether a function must get a new runtime host (function-change.ts, code-fingerprint.ts).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codeFingerprint } from '../../../src/cli/local/lambda/code-fingerprint';
import { functionChanged } from '../../../src/cli/local/lambda/function-change';
import type { FunctionSpec } from '../../../src/cli/local/model/function-spec';
import { ApiSpec } from '../../../src/cli/local/model/rest-api';
import { matchApis } from '../../../src/cli/local/server/api-match';

function api(stackName: string, logicalId: string, constructPath?: string): ApiSpec {
  return { stackName, logicalId, constructPath, apiId: logicalId, name: logicalId, region: 'us-east-1', stages: ['dev'], stageVariables: {}, root: undefined as any, binaryMediaTypes: [], gatewayResponses: [] };
}

describe('matchApis', () => {
  const served = [api('Backend', 'ApiA1', 'Backend/Api'), api('Backend', 'OtherB2', 'Backend/Other'), api('Backend', 'GoneC3', 'Backend/Gone')];
  const same = (a: ApiSpec) => a;

  test('by stack name and logical id, else by construct path; the rest are added or removed', () => {
    const next = [api('Backend', 'ApiA1', 'Backend/Moved'), api('Backend', 'OtherD4', 'Backend/Other'), api('Backend', 'NewE5', 'Backend/New')];
    const match = matchApis(served, next, same);
    expect(match.kept.map((k) => [k.served.logicalId, k.next.logicalId])).toEqual([['ApiA1', 'ApiA1'], ['OtherB2', 'OtherD4']]);
    expect(match.added.map((a) => a.logicalId)).toEqual(['NewE5']);
    expect(match.removed.map((a) => a.logicalId)).toEqual(['GoneC3']);
  });

  test('the same logical id in another stack is another API', () => {
    const match = matchApis([api('One', 'Api')], [api('Two', 'Api')], same);
    expect(match.kept).toEqual([]);
    expect(match.added.map((a) => a.stackName)).toEqual(['Two']);
    expect(match.removed.map((a) => a.stackName)).toEqual(['One']);
  });

  test('an id match wins over a construct path match, and a served API is paired once', () => {
    const match = matchApis([api('S', 'X', 'S/Api')], [api('S', 'Y', 'S/Api'), api('S', 'X', 'S/Elsewhere')], same);
    expect(match.kept.map((k) => k.next.logicalId)).toEqual(['X']);
    expect(match.added.map((a) => a.logicalId)).toEqual(['Y']);
  });

  test('APIs without a construct path match by id only', () => {
    const match = matchApis([api('S', 'X')], [api('S', 'Y')], same);
    expect(match.kept).toEqual([]);
  });
});

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

describe('codeFingerprint of a folder', () => {
  const folders: string[] = [];
  function folder(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-fingerprint-'));
    folders.push(dir);
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    return dir;
  }
  const of = (directory: string) => codeFingerprint({ kind: 'directory', directory });
  afterAll(() => folders.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  test('the same files in two places digest alike', () => {
    const files = { 'index.js': 'exports.handler = 1;', 'lib/util.js': 'module.exports = 2;' };
    expect(of(folder(files))).toBe(of(folder(files)));
  });

  test.each<[string, Record<string, string>]>([
    ['a file content', { 'index.js': 'exports.handler = 2;', 'lib/util.js': 'module.exports = 2;' }],
    ['a file name', { 'index.js': 'exports.handler = 1;', 'lib/utils.js': 'module.exports = 2;' }],
    ['a file added', { 'index.js': 'exports.handler = 1;', 'lib/util.js': 'module.exports = 2;', 'extra.json': '{}' }],
    ['content moved between files', { 'index.js': 'exports.handler = 1;module', 'lib/util.js': '.exports = 2;' }],
  ])('%s changes the digest', (_what, files) => {
    expect(of(folder(files))).not.toBe(of(folder({ 'index.js': 'exports.handler = 1;', 'lib/util.js': 'module.exports = 2;' })));
  });

  test('a folder that does not exist has no digest', () => {
    expect(of(path.join(os.tmpdir(), 'vo-no-such-folder-for-reload'))).toBeUndefined();
  });
});
