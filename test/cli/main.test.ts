import * as fs from 'fs';
import * as path from 'path';
import { COMMANDS } from '../../src/cli/main';
import { ROOT, runCli } from '../support/cli';

test('--help lists every command with an example, exit 0', async () => {
  const run = await runCli(['--help']);
  expect(run.code).toBe(0);
  for (const name of ['validate', 'generate', 'init', 'stage', 'serve', 'test-invoke']) {
    expect(run.stdout).toContain(`  ${name}`);
  }
  expect(run.stdout).toMatch(/Example:\n {2}vendor-outputs validate/);
});

test('no command prints the overview and exits 2', async () => {
  const run = await runCli([]);
  expect(run.code).toBe(2);
  expect(run.stdout).toContain('Usage: vendor-outputs <command>');
});

test('--version prints the package version', async () => {
  const run = await runCli(['--version']);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
});

test('an unknown command is a usage error naming the commands', async () => {
  const run = await runCli(['frobnicate']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("unknown command 'frobnicate'; commands: validate, generate");
});

test('validate does not load aws-cdk-lib', async () => {
  const run = await runCli(['validate', 'schema/vendor-outputs.schema.json'], {
    env: { NODE_DEBUG: 'module' },
  });
  expect(run.stderr).not.toMatch(/aws-cdk-lib/);
  // The validator is self-contained: its ajv runtime helpers are bundled into the generated file.
  expect(run.stderr).toMatch(/schema-validator\.generated/);
  expect(run.stderr).not.toMatch(/node_modules\/ajv/);
});

test('the overview shows each command\'s summary from the one list in main, without loading the commands', async () => {
  const run = await runCli(['--help'], { env: { NODE_DEBUG: 'module' } });
  expect(run.code).toBe(0);
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  for (const entry of COMMANDS) {
    expect(run.stdout).toContain(`  ${entry.name.padEnd(width)}  ${entry.summary}\n`);
  }
  expect(run.stderr).not.toMatch(/cli[/\\](generate|serve|stage|init|validate|test-invoke)\.js/);
});
