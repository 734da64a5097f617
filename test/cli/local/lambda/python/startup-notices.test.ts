/**
 * What serve announces about Python functions: boto3 that neither the app's virtualenv nor the
 * interpreter has. The interpreter here is a virtualenv without boto3, first on PATH.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startupNotices } from '../../../../../src/cli/local/lambda/python/startup-notices';
import { fn } from '../function-spec';

const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bare-python-'));
const version = execFileSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();

beforeAll(() => {
  execFileSync('python3', ['-m', 'venv', '--without-pip', bare]);
  // Before anything asks for an interpreter (answers are kept per process).
  process.env.PATH = `${path.join(bare, 'bin')}${path.delimiter}${process.env.PATH}`;
});

function notices(appFolder: string) {
  const importing = fn(`python${version}`, { code: { kind: 'inline', source: 'import json\nimport boto3\n\ndef handler(e, c):\n    return 1\n' } });
  const plain = fn(`python${version}`, { key: 'Stack/Plain', code: { kind: 'inline', source: 'def handler(e, c):\n    return 1\n' } });
  return startupNotices([importing, plain], { appFolder, shell: process.env, hostRuntimes: false, progress: () => undefined });
}

test('a function importing boto3 that the interpreter lacks and no .venv: a warning naming the install command, and a note', () => {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-app-'));
  const { warnings, notes } = notices(app);
  expect(warnings).toEqual([
    `Stack/Fn: imports boto3, which the Lambda runtime provides but python${version} does not have (and ${app} has no .venv); its requests fail at init (502, Runtime.ImportModuleError) until you run: python${version} -m pip install boto3`,
  ]);
  expect([...notes]).toEqual([[fn(`python${version}`).key, 'missing boto3']]);
});

test('the app\'s .venv holding boto3 provides it: nothing to announce', () => {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-app-'));
  const boto3 = path.join(app, '.venv', 'lib', `python${version}`, 'site-packages', 'boto3');
  fs.mkdirSync(boto3, { recursive: true });
  fs.writeFileSync(path.join(boto3, '__init__.py'), '');
  expect(notices(app)).toEqual({ warnings: [], notes: new Map() });
});

test('a .venv without boto3: the warning names the virtualenv and its pip', () => {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-app-'));
  const sitePackages = path.join(app, '.venv', 'lib', `python${version}`, 'site-packages');
  fs.mkdirSync(sitePackages, { recursive: true });
  expect(notices(app).warnings).toEqual([
    `Stack/Fn: imports boto3, which the Lambda runtime provides but neither ${sitePackages} nor python${version} has; its requests fail at init (502, Runtime.ImportModuleError) until you run in ${app}: .venv/bin/pip install boto3`,
  ]);
});
