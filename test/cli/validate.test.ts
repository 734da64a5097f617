import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../support/cli';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-validate-'));
  fs.writeFileSync(path.join(dir, 'good.json'), JSON.stringify({ version: '1', storage: { vendor_region: 'r', bucket_name: 'b' } }));
  fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({
    version: '1',
    auth: { vendor_region: 'r', user_pool_id: 'p', user_pool_client_id: 'c', mfa_configuration: 'SOMETIMES', password_policy: { min_length: 100 } },
    notifications: { vendor_region: 'r', vendor_messaging_app_id: 'a', channels: [] },
    extra: true,
  }, null, 2));
  fs.writeFileSync(path.join(dir, 'broken.json'), '{\n  "version": "1",\n  "auth": {,\n}\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('valid files: exit 0', async () => {
  const run = await runCli(['validate', 'good.json'], { cwd: dir });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('1 file(s) valid\n');
});

test('an invalid file: exit 1, one line per problem as FILE: pointer: message', async () => {
  const run = await runCli(['validate', 'good.json', 'bad.json'], { cwd: dir });
  expect(run.code).toBe(1);
  expect(run.stdout.trim().split('\n')).toEqual([
    'bad.json: /extra: is not allowed here; allowed keys: $schema, version, analytics, auth, data, geo, notifications, storage, custom',
    'bad.json: /auth/password_policy/min_length: must be an integer from 6 to 99 inclusive (got 100)',
    'bad.json: /auth/mfa_configuration: must be one of: NONE, OPTIONAL, REQUIRED (got "SOMETIMES")',
    'bad.json: /notifications/channels: must have at least 1 item (got [])',
  ]);
});

test('a file that is not JSON: exit 1 with file, line and column', async () => {
  const run = await runCli(['validate', 'broken.json'], { cwd: dir });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^broken\.json:3:12: not valid JSON: /);
});

test('an unreadable file: exit 2', async () => {
  const run = await runCli(['validate', 'good.json', 'missing.json'], { cwd: dir });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('vendor-outputs validate: missing.json: cannot read: ENOENT');
});

test('no file or an unknown option: usage error, exit 2', async () => {
  const none = await runCli(['validate'], { cwd: dir });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("vendor-outputs validate: no FILE given\nRun 'vendor-outputs validate --help' for usage.");
  const unknown = await runCli(['validate', '--strict', 'good.json'], { cwd: dir });
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("Unknown option '--strict'");
});

test('--help shows usage, exit codes and an example', async () => {
  const run = await runCli(['validate', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Usage: vendor-outputs validate FILE...');
  expect(run.stdout).toContain('Exit status: 0 when every file is valid, 1 when any is invalid, 2 on usage errors or unreadable files.');
  expect(run.stdout).toContain('Example:');
});
