/**
 * The digest of a function's code folder, which tells a reload whether the code changed.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codeFingerprint } from '../../../../src/cli/local/lambda/code-fingerprint';

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
