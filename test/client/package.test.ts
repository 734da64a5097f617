/**
 * The frontend package cdk-vendor-outputs-client, as scripts/package-client.js stages it: no
 * dependencies, and both builds run without require, process or any Node built-in.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vm from 'vm';

const ROOT = path.join(__dirname, '..', '..');
const SAMPLE = { version: '1', custom: { api_name: 'items', api_endpoint: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/' } };
const EXPECTED = { items: { endpoint: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/', region: 'eu-west-1' } };

let staging: string;

beforeAll(() => {
  staging = fs.mkdtempSync(path.join(os.tmpdir(), 'client-package-test-'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(path.join(ROOT, 'scripts', 'package-client.js')).stage(staging);
});

afterAll(() => fs.rmSync(staging, { recursive: true, force: true }));

test('package.json: the library\'s version, no dependencies, entry points for import and require', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(staging, 'package.json'), 'utf8'));
  const library = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  expect(manifest.name).toBe('cdk-vendor-outputs-client');
  expect(manifest.version).toBe(library.version);
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.peerDependencies).toBeUndefined();
  expect(manifest.exports['.']).toEqual({
    import: { types: './index.d.mts', default: './index.mjs' },
    require: { types: './index.d.ts', default: './index.js' },
  });
  for (const file of manifest.files) {
    expect(fs.existsSync(path.join(staging, file))).toBe(true);
  }
});

test('the CommonJS build runs in a bare VM context (no require, no process, no Buffer)', () => {
  const sandbox: any = { module: { exports: {} } };
  sandbox.exports = sandbox.module.exports;
  vm.runInNewContext(fs.readFileSync(path.join(staging, 'index.js'), 'utf8'), sandbox);
  expect(JSON.parse(JSON.stringify(sandbox.module.exports.toRestConfig(SAMPLE)))).toEqual(EXPECTED);
});

test('the ES module build imports nothing and runs as an ES module', () => {
  const text = fs.readFileSync(path.join(staging, 'index.mjs'), 'utf8');
  expect(text).not.toMatch(/^\s*import\s/m);
  expect(text).not.toMatch(/\brequire\(/);
  const script = `import(${JSON.stringify(pathToFileURL(path.join(staging, 'index.mjs')).href)}).then((m) => console.log(JSON.stringify(m.toRestConfig(${JSON.stringify(SAMPLE)}))))`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual(EXPECTED);
});

test('the declarations describe the helper for both builds', () => {
  const declarations = fs.readFileSync(path.join(staging, 'index.d.ts'), 'utf8');
  expect(declarations).toMatch(/export declare function toRestConfig\(outputs: unknown, options\?: RestConfigOptions\): RestConfig;/);
  expect(declarations).toMatch(/export declare class RestConfigError extends Error/);
  expect(fs.readFileSync(path.join(staging, 'index.d.mts'), 'utf8')).toBe(declarations);
});
