import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pendingMarker } from '../../src/outputs/cdk-free/carriage';
import { runCli } from '../support/cli';

let dir: string;
/** Writes a file into the test folder and returns its name. */
function file(name: string, content: string | Buffer): string {
  fs.writeFileSync(path.join(dir, name), content);
  return name;
}
function validate(...args: string[]) {
  return runCli(['validate', ...args], { cwd: dir });
}

const AUTH = { vendor_region: 'r', user_pool_id: 'p', user_pool_client_id: 'c' };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-validate-'));
  file('good.json', JSON.stringify({ version: '1', storage: { vendor_region: 'r', bucket_name: 'b' } }));
  file('bad.json', JSON.stringify({
    version: '1',
    auth: { ...AUTH, mfa_configuration: 'SOMETIMES', password_policy: { min_length: 100 } },
    notifications: { vendor_region: 'r', vendor_messaging_app_id: 'a', channels: [] },
    extra: true,
  }, null, 2));
  file('broken.json', '{\n  "version": "1",\n  "auth": {,\n}\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('valid files: exit 0', async () => {
  const run = await validate('good.json');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('1 file(s) valid\n');
});

test('an invalid file: exit 1, one line per problem as FILE:LINE:COLUMN: pointer: message, in the order of the file', async () => {
  const run = await validate('good.json', 'bad.json');
  expect(run.code).toBe(1);
  expect(run.stdout.trim().split('\n')).toEqual([
    'bad.json:7:5: /auth/mfa_configuration: must be one of: NONE, OPTIONAL, REQUIRED (got "SOMETIMES")',
    'bad.json:9:7: /auth/password_policy/min_length: must be an integer from 6 to 99 inclusive (got 100)',
    'bad.json:15:5: /notifications/channels: must have at least 1 item (got [])',
    'bad.json:17:3: /extra: is not allowed here; allowed keys: $schema, version, analytics, auth, data, geo, notifications, storage, custom',
  ]);
});

test('a missing key is located at the object that lacks it', async () => {
  const name = file('missing-key.json', '{\n  "version": "1",\n  "storage": {\n    "bucket_name": "b"\n  }\n}\n');
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('missing-key.json:3:3: /storage/vendor_region: is required but missing\n');
});

test('a file that is not JSON: exit 1 with file, line, column and what was expected', async () => {
  const run = await validate('broken.json');
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("broken.json:3:12: not valid JSON: expected a property name in double quotes, found ','\n");
});

test.each([
  ['empty.json', '', 'empty.json:1:1: not valid JSON: the file is empty: a vendor_outputs.json holds one JSON object'],
  ['trailing-comma.json', '{"version": "1",\n}', "trailing-comma.json:2:1: not valid JSON: a comma before '}': JSON allows no trailing comma"],
  ['single-quotes.json', "{'version': '1'}", "single-quotes.json:1:2: not valid JSON: expected a property name in double quotes, found ''': JSON strings and keys use double quotes"],
  ['cut-short.json', '{"version": "1",\n "custom": {"a": [1, 2', 'cut-short.json:2:23: not valid JSON: unexpected end of the file inside the array opened on line 2'],
  ['line-break.json', '{"version": "1\n"}', 'line-break.json:1:15: not valid JSON: a string cannot go on to the next line: end it with \'"\' or write the line break as \\n'],
  ['comment.json', '{"version": "1"} // done', "comment.json:1:18: not valid JSON: unexpected '/' after the end of the JSON value: JSON has no comments"],
  ['invisible.json', '{"version": "1",\u200b"custom": {}}', 'invisible.json:1:17: not valid JSON: expected a property name in double quotes, found a zero width space (U+200B)'],
])('syntax error in %s: named with line, column and what is allowed', async (name, content, line) => {
  file(name, content);
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe(`${line}\n`);
});

test('16,000 unknown keys (a 1 MB file): the first 50 problems, then how many more; in linear time', async () => {
  const auth: Record<string, string> = { ...AUTH };
  for (let i = 0; i < 16000; i++) {
    auth[`unknown_key_number_${i}_padded_to_make_the_file_one_megabyte`] = 'value';
  }
  const name = file('many-keys.json', JSON.stringify({ version: '1', auth }, null, 2));
  expect(fs.statSync(path.join(dir, name)).size).toBeGreaterThan(1_000_000);
  const run = await validate(name);
  expect(run.code).toBe(1);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(51);
  expect(lines[0]).toBe('many-keys.json:7:5: /auth/unknown_key_number_0_padded_to_make_the_file_one_megabyte: is not allowed here; allowed keys: '
    + 'vendor_region, user_pool_id, user_pool_client_id, identity_pool_id, password_policy, oauth, standard_required_attributes, username_attributes, '
    + 'user_verification_types, unauthenticated_identities_enabled, mfa_configuration, mfa_methods');
  expect(lines[49]).toMatch(/^many-keys\.json:56:5: \/auth\/unknown_key_number_49_/);
  expect(lines[50]).toBe('many-keys.json: and 15950 more problem(s)');
}, 30000);

test.each([
  ['an array', (n: number) => `{"version": "1", "auth": ${'['.repeat(n)}${']'.repeat(n)}}`, 'deep-array.json:1:18: /auth: must be an object (got [[[[[[[[[[[[[[['],
  ['an enum item', (n: number) => `{"version": "1", "auth": {"vendor_region": "r", "user_pool_id": "p", "user_pool_client_id": "c", "mfa_methods": [${'{"a":'.repeat(n)}1${'}'.repeat(n)}]}}`,
    'deep-enum.json:1:114: /auth/mfa_methods/0: must be one of: SMS, TOTP (got {"a":{"a":{"a":'],
  ['the version', (n: number) => `{"version": ${'['.repeat(n)}${']'.repeat(n)}}`, 'deep-version.json:1:2: /version: must be "1" (got [[[[[['],
])('nesting 100,000 levels deep in %s: one line, exit 1', async (_, content, start) => {
  const name = start.split(':')[0];
  file(name, content(100_000));
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('');
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0].startsWith(start)).toBe(true);
  expect(lines[0]).toMatch(/\.\.\.\)$/);
  expect(lines[0].length).toBeLessThan(300);
});

test('nesting 100,000 levels deep inside custom is valid; cut short, it is one syntax error', async () => {
  const n = 100_000;
  file('deep-custom.json', `{"version": "1", "custom": {"tree": ${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`);
  const valid = await validate('deep-custom.json');
  expect(valid.code).toBe(0);
  expect(valid.stderr).toBe('1 file(s) valid\n');

  file('deep-cut.json', `{"version": "1", "custom": ${'['.repeat(n)}${']'.repeat(n - 1)}}`);
  const cut = await validate('deep-cut.json');
  expect(cut.code).toBe(1);
  expect(cut.stdout).toBe(`deep-cut.json:1:${27 + 2 * n}: not valid JSON: expected ',' or ']' after an array item, found '}'\n`);
});

test('duplicate keys: each repeat named with its pointer, line and the line of the other', async () => {
  const name = file('duplicates.json', [
    '{',
    '  "version": "1",',
    '  "custom": {',
    '    "api_name": "items",',
    '    "list": [{"id": 1, "id": 2}],',
    '    "api_name": "other",',
    '    "a\\u002fb": 1, "a/b": 2',
    '  }',
    '}',
  ].join('\n'));
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout.trim().split('\n')).toEqual([
    'duplicates.json:5:24: /custom/list/0/id: duplicate key "id" (also on line 5): JSON.parse keeps only the last value; keep one',
    'duplicates.json:6:5: /custom/api_name: duplicate key "api_name" (also on line 4): JSON.parse keeps only the last value; keep one',
    'duplicates.json:7:20: /custom/a~1b: duplicate key "a/b" (also on line 7): JSON.parse keeps only the last value; keep one',
  ]);
});

test('numbers a double cannot hold: named, not shown as null or 0', async () => {
  const name = file('numbers.json', '{"version": "1",\n "custom": {"big": 1e400, "small": -1E-400, "list": [1, -2e999], "zero": 0e999, "ok": 1.5e300}}');
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout.trim().split('\n')).toEqual([
    'numbers.json:2:20: /custom/big: number 1e400 is out of range for JSON.parse (at most about ±1.8e308): it becomes Infinity, which JSON writes as null',
    'numbers.json:2:36: /custom/small: number -1E-400 is too close to 0 for JSON.parse (at least about 5e-324 apart from 0): it becomes 0',
    'numbers.json:2:57: /custom/list/1: number -2e999 is out of range for JSON.parse (at most about ±1.8e308): it becomes -Infinity, which JSON writes as null',
  ]);
});

test('a byte order mark is reported (the rest is still checked)', async () => {
  const name = file('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"version": "2"}')]));
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout.trim().split('\n')).toEqual([
    'bom.json:1:1: the file starts with a byte order mark (bytes EF BB BF): JSON text must not have one (RFC 8259, section 8.1) and JSON.parse refuses it; save the file as UTF-8 without BOM',
    'bom.json:1:2: /version: must be "1" (got "2")',
  ]);
});

test('bytes that are not UTF-8: byte offset, line and column', async () => {
  const name = file('latin1.json', Buffer.concat([Buffer.from('{"version": "1",\n "custom": {"name": "caf'), Buffer.from([0xe9]), Buffer.from('"}}')]));
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('latin1.json:2:25: not valid UTF-8: byte 0xE9 at byte offset 41 does not fit a UTF-8 sequence; save the file as UTF-8\n');
});

test('a UTF-16 file is named as such', async () => {
  const name = file('utf16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"version": "1"}', 'utf16le')]));
  const run = await validate(name);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('utf16.json:1:1: the file is UTF-16 (byte order mark FF FE): JSON files are UTF-8; save it as UTF-8\n');
});

describe('a synth-time file with values pending until deploy', () => {
  const marker = (index: number) => pendingMarker({ pointer: '', output: 'VendorOutputsValues0', index });
  beforeAll(() => {
    file('synth.json', JSON.stringify({
      version: '1',
      storage: { vendor_region: marker(0), bucket_name: marker(1) },
      custom: { api_endpoint: marker(2), api_name: 'items' },
    }, null, 2));
  });

  test('is not a final file: exit 1, with how many values and the first', async () => {
    const run = await validate('synth.json');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("synth.json:4:22: /storage/vendor_region: holds 3 values pending until deploy (this is the first): it is a synth-time file, not a final vendor_outputs.json; after 'cdk deploy' run 'vendor-outputs generate' (or pass --allow-pending to accept pending values)\n");
  });

  test('--allow-pending accepts it and says so', async () => {
    const run = await validate('--allow-pending', 'synth.json', 'good.json');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('2 file(s) valid (3 value(s) pending until deploy, accepted by --allow-pending)\n');
  });

  test('a string that only looks like a marker is an ordinary value', async () => {
    file('lookalike.json', JSON.stringify({ version: '1', custom: { note: '<pending: my own text>' } }));
    const run = await validate('lookalike.json');
    expect(run.code).toBe(0);
  });
});

test('a FIFO is refused at once (exit 2), without waiting for a writer', async () => {
  const fifo = path.join(dir, 'pipe.json');
  execFileSync('mkfifo', [fifo]);
  const run = await validate('pipe.json', 'good.json');
  expect(run.code).toBe(2);
  expect(run.stderr).toBe('vendor-outputs validate: pipe.json: is a named pipe (FIFO), not a regular file: validate reads files only\n');
});

test.each([
  ['/dev/null', 'a character device'],
  ['.', 'a folder'],
])('%s is refused (exit 2)', async (name, kind) => {
  const run = await validate(name);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(`vendor-outputs validate: ${name}: is ${kind}, not a regular file: validate reads files only\n`);
});

test('an unreadable file: exit 2', async () => {
  const run = await validate('good.json', 'missing.json');
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('vendor-outputs validate: missing.json: cannot read: ENOENT');
});

test('no file or an unknown option: usage error, exit 2', async () => {
  const none = await validate();
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("vendor-outputs validate: no FILE given\nRun 'vendor-outputs validate --help' for usage.");
  const unknown = await validate('--strict', 'good.json');
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("Unknown option '--strict'");
});

test('--help shows usage, exit codes and an example', async () => {
  const run = await runCli(['validate', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Usage: vendor-outputs validate [--allow-pending] FILE...');
  expect(run.stdout).toContain('Exit status: 0 when every file is valid, 1 when any is invalid, 2 on usage errors or files that\ncannot be read');
  expect(run.stdout).toContain('Example:');
});
