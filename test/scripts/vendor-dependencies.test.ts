/**
 * scripts/vendor-dependencies.js, the compile step that leaves lib/ requiring no package but
 * Node.js built-ins and the peers: run on small lib/ folders.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'vendor-dependencies.js');
let lib: string;

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(lib, name)), { recursive: true });
    fs.writeFileSync(path.join(lib, name), text);
  }
}

function vendor() {
  return spawnSync(process.execPath, [SCRIPT, lib], { encoding: 'utf8' });
}

beforeEach(() => {
  lib = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-lib-'));
  // The generated validator is part of every lib/; its inlined packages go into the notices.
  write({ 'outputs/cdk-free/schema-validator.generated.js': fs.readFileSync(path.join(ROOT, 'src', 'outputs', 'cdk-free', 'schema-validator.generated.js'), 'utf8') });
});

afterEach(() => fs.rmSync(lib, { recursive: true, force: true }));

test('a vendored package is bundled into lib/vendor and the require points there; built-ins, peers and strings stay', () => {
  write({
    'cli/local/sign.js': [
      'const fs = require("fs");',
      'const core = require("aws-cdk-lib/core");',
      "const { Hash } = require('@smithy/hash-node');",
      "const text = 'require(\"left-pad\")';",
      'module.exports = { fs, core, Hash, text };',
    ].join('\n'),
  });
  const run = vendor();
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const rewritten = fs.readFileSync(path.join(lib, 'cli', 'local', 'sign.js'), 'utf8');
  expect(rewritten).toContain('require("../../vendor/@smithy/hash-node.js")');
  expect(rewritten).toContain('require("fs")');
  expect(rewritten).toContain('require("aws-cdk-lib/core")');
  expect(rewritten).toContain('\'require("left-pad")\'');
  // The bundle is self-contained: it loads with no node_modules around it and signs.
  const check = spawnSync(process.execPath, ['-e', `const { Hash } = require(${JSON.stringify(path.join(lib, 'vendor', '@smithy', 'hash-node.js'))}); const h = new Hash('sha256'); h.update('x'); h.digest().then((d) => console.log(Buffer.from(d).toString('hex')))`], { cwd: os.tmpdir(), encoding: 'utf8' });
  expect(check.stdout.trim()).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  const notices = fs.readFileSync(path.join(lib, 'vendor', 'THIRD-PARTY-NOTICES.md'), 'utf8');
  expect(notices).toMatch(/@smithy\/hash-node@[\d.]+ \(Apache-2\.0\)/);
  expect(notices).toMatch(/fast-deep-equal@[\d.]+ \(MIT\)/);
});

test('a package that is neither a built-in, a peer nor vendored fails the build, naming the file', () => {
  write({ 'cli/pad.js': "module.exports = require('left-pad');\n" });
  const run = vendor();
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("cli/pad.js requires 'left-pad', which is neither a Node.js built-in, a peer dependency nor vendored (scripts/vendor-dependencies.js)");
});
