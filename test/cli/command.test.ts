/**
 * The command boundary: the local API's own errors become the command layer's errors (and so exit
 * codes and messages) in one place, `asCommandError`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { asCommandError, CliError, UsageError } from '../../src/cli/command';
import { LocalApiError, usageError } from '../../src/cli/local/common/local-api-error';
import { runCli } from '../support/cli';

describe('asCommandError', () => {
  test('a usage LocalApiError becomes a UsageError (exit 2 with the --help hint) with the same message', () => {
    const converted = asCommandError(usageError('--env-vars x.json: not valid JSON'));
    expect(converted).toBeInstanceOf(UsageError);
    expect((converted as Error).message).toBe('--env-vars x.json: not valid JSON');
  });

  test.each([['input', 1], ['server', 1]] as const)('a %s LocalApiError becomes a CliError with exit code %i', (kind, exitCode) => {
    const converted = asCommandError(new LocalApiError('port 3000 on 127.0.0.1 is in use', kind));
    expect(converted).toBeInstanceOf(CliError);
    expect(converted).toMatchObject({ message: 'port 3000 on 127.0.0.1 is in use', exitCode });
  });

  test('other errors pass through unchanged', () => {
    const usage = new UsageError('u');
    const failure = new CliError('c', 3);
    const bug = new TypeError('t');
    expect(asCommandError(usage)).toBe(usage);
    expect(asCommandError(failure)).toBe(failure);
    expect(asCommandError(bug)).toBe(bug);
  });
});

test('a LocalApiError thrown by a command exits 2 with the message and the --help hint, no stack trace', async () => {
  const run = await runCli(['serve', '--env-vars', 'no-such-env-vars.json']);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe("vendor-outputs serve: --env-vars no-such-env-vars.json: cannot read the file (ENOENT)\nRun 'vendor-outputs serve --help' for usage.\n");
});

test('an input LocalApiError exits 1 with the message only', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'command-boundary-'));
  try {
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ version: '36.0.0', artifacts: {} }));
    const run = await runCli(['serve', '--app', dir, '--stack', 'Nope']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`vendor-outputs serve: no stack 'Nope' in ${dir}; stacks: (none)\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
