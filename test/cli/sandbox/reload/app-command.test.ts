import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readAppCommand } from '../../../../src/cli/sandbox/reload/app-command';

describe('readAppCommand', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-app-command-'));
    fs.mkdirSync(path.join(root, 'bin'));
    fs.writeFileSync(path.join(root, 'bin', 'app.ts'), '');
    fs.writeFileSync(path.join(root, 'app.js'), '');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test.each([
    ['npx tsx bin/app.ts', 'tsx', 'bin/app.ts'],
    ['tsx bin/app.ts', 'tsx', 'bin/app.ts'],
    ['npx ts-node --prefer-ts-exts bin/app.ts', 'ts-node', 'bin/app.ts'],
    ['npx ts-node bin/app.ts', 'ts-node', 'bin/app.ts'],
    ['node app.js', 'node', 'app.js'],
  ])('%s: warm, %s', (command, runner, entry) => {
    expect(readAppCommand(command, root)).toEqual({ warm: true, app: { runner, entry: path.join(root, entry) } });
  });

  test.each([
    'npx tsx --watch bin/app.ts',
    'node --inspect app.js',
    'npx node app.js',
    'python app.py',
    'sh -c "node app.js"',
    'node app.js && echo done',
    'npx ts-node',
  ])('%s: cold, said why', (command) => {
    expect(readAppCommand(command, root)).toEqual({
      warm: false,
      reason: `the app command '${command}' is not one the warm synth runs (npx tsx FILE, npx ts-node --prefer-ts-exts FILE, node FILE)`,
    });
  });

  test('an entry that is not a file: cold, said why', () => {
    expect(readAppCommand('node missing.js', root)).toEqual({ warm: false, reason: `the app's entry ${path.join(root, 'missing.js')} (from 'node missing.js') is not a file` });
  });
});
