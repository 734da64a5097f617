import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { commits, CONTENT, git, removeTemps, repository, stage, staged, tempDir, tracked, waitForFile } from './stage-repository';
import { runCli } from '../support/cli';

afterAll(removeTemps);

test('the file is staged while the command runs, then unstaged and still on disk; nothing is committed', async () => {
  const dir = repository();
  const run = await stage(dir, ['--', 'git', 'diff', '--cached', '--name-only']);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe('vendor_outputs.json');
  expect(run.stderr).toContain('vendor-outputs stage: vendor_outputs.json staged for the build; it is unstaged when the command ends');
  expect(run.stderr).toContain('vendor-outputs stage: vendor_outputs.json unstaged (still on disk)');
  expect(staged(dir)).toEqual([]);
  expect(tracked(dir)).not.toContain('vendor_outputs.json');
  expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toBe(CONTENT);
  expect(git(dir, 'status', '--porcelain', '--ignored')).toContain('!! vendor_outputs.json');
  expect(commits(dir)).toBe(1);
});

test("the command's failure status is stage's, and the file is unstaged", async () => {
  const dir = repository();
  const run = await stage(dir, ['--', 'sh', '-c', 'git diff --cached --name-only; exit 3']);
  expect(run.code).toBe(3);
  expect(run.stdout.trim()).toBe('vendor_outputs.json');
  expect(staged(dir)).toEqual([]);
  expect(fs.existsSync(path.join(dir, 'vendor_outputs.json'))).toBe(true);
  expect(commits(dir)).toBe(1);
});

test.each(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGALRM', 'SIGPIPE', 'SIGXCPU', 'SIGVTALRM'] as const)('%s to stage is forwarded to the command, which is waited for; then the file is unstaged', async (signal) => {
  const dir = repository();
  const pidFile = path.join(tempDir(), 'stage.pid');
  // $PPID of the shell is the stage process; the trap shows the file is still staged while the command ends.
  const script = [
    `trap 'echo "command got ${signal}"; git diff --cached --name-only; exit 7' ${signal.slice(3)}`,
    `echo $PPID > '${pidFile}'`,
    'while :; do sleep 0.1; done',
  ].join('\n');
  const running = stage(dir, ['--', 'sh', '-c', script]);
  const stagePid = Number(await waitForFile(pidFile));
  expect(staged(dir)).toEqual(['vendor_outputs.json']);
  process.kill(stagePid, signal);
  const run = await running;

  expect(run.stdout).toBe(`command got ${signal}\nvendor_outputs.json\n`);
  // Ends by the same signal; with 128+N for those that would dump core or that Node reserves.
  if (['SIGQUIT', 'SIGUSR1', 'SIGPIPE', 'SIGXCPU'].includes(signal)) {
    expect(run.code).toBe(128 + os.constants.signals[signal]);
  } else {
    expect(run.signal).toBe(signal);
  }
  expect(run.stderr).toContain('vendor_outputs.json unstaged (still on disk)');
  expect(staged(dir)).toEqual([]);
  expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toBe(CONTENT);
  expect(commits(dir)).toBe(1);
});

test('a command killed by a signal gives 128+N', async () => {
  const dir = repository();
  const run = await stage(dir, ['--', 'sh', '-c', 'kill -TERM $$']);
  expect(run.code).toBe(143);
  expect(staged(dir)).toEqual([]);
});

test('a command that cannot be found exits 127, and the file is unstaged', async () => {
  const dir = repository();
  const run = await stage(dir, ['--', 'no-such-build-command-xyz', '--flag']);
  expect(run.code).toBe(127);
  expect(run.stderr).toContain("vendor-outputs stage: cannot start 'no-such-build-command-xyz': command not found");
  expect(run.stderr).toContain('unstaged (still on disk)');
  expect(staged(dir)).toEqual([]);
  expect(fs.existsSync(path.join(dir, 'vendor_outputs.json'))).toBe(true);
});

test('a command that rewrites the file is still followed by unstaging', async () => {
  const dir = repository();
  const run = await stage(dir, ['--', 'sh', '-c', 'echo "{}" > vendor_outputs.json']);
  expect(run.code).toBe(0);
  expect(staged(dir)).toEqual([]);
  expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toBe('{}\n');
});

test('an already tracked file: stage says so with the fix, and leaves the index entry as it was', async () => {
  const dir = repository();
  git(dir, 'add', '-f', 'vendor_outputs.json');
  git(dir, 'commit', '-q', '-m', 'oops: commit the outputs');
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{"version":"1"}\n');

  const run = await stage(dir, ['--', 'git', 'diff', '--cached', '--name-only']);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('warning: vendor_outputs.json is tracked by git: it was committed by mistake.');
  expect(run.stderr).toContain('  git rm --cached vendor_outputs.json\n');
  expect(run.stderr).toContain('  npx vendor-outputs init');
  expect(run.stderr).toContain('index entry restored');
  // During the build the index held the current content ...
  expect(run.stdout.trim()).toBe('vendor_outputs.json');
  // ... afterwards it is as before: tracked, nothing staged, the working copy untouched.
  expect(tracked(dir)).toContain('vendor_outputs.json');
  expect(staged(dir)).toEqual([]);
  expect(git(dir, 'status', '--porcelain')).toBe(' M vendor_outputs.json\n');
  expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toBe('{"version":"1"}\n');
  expect(commits(dir)).toBe(2);
});

test('a tracked file with a staged change keeps that staged change', async () => {
  const dir = repository();
  git(dir, 'add', '-f', 'vendor_outputs.json');
  git(dir, 'commit', '-q', '-m', 'oops');
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{"staged":true}\n');
  git(dir, 'add', 'vendor_outputs.json');
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{"working":true}\n');
  const before = git(dir, 'ls-files', '--stage', 'vendor_outputs.json');

  const run = await stage(dir, ['--', 'true']);
  expect(run.code).toBe(0);
  expect(git(dir, 'ls-files', '--stage', 'vendor_outputs.json')).toBe(before);
  expect(git(dir, 'status', '--porcelain')).toBe('MM vendor_outputs.json\n');
});

test('a file that git does not ignore: stage suggests init, and still unstages it', async () => {
  const dir = repository();
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  const run = await stage(dir, ['--', 'true']);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    "vendor-outputs stage: note: vendor_outputs.json is not ignored by git; run 'npx vendor-outputs init' so that it cannot be committed by mistake",
  );
  expect(staged(dir)).toEqual([]);
  expect(git(dir, 'status', '--porcelain')).toBe(' M .gitignore\n?? vendor_outputs.json\n');
});

test('an ignored file gets no such note', async () => {
  const run = await stage(repository(), ['--', 'true']);
  expect(run.stderr).not.toContain('not ignored');
});

test('outside a git repository: a clear message, exit 1, the command does not run', async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), CONTENT);
  const run = await stage(dir, ['--', 'sh', '-c', 'echo ran']);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(
    `vendor-outputs stage: not inside a git repository (${dir}): stage force-adds vendor_outputs.json to the git index for a build, so run it from the project's working tree\n`,
  );
});

test('a missing file: a clear message, exit 1, the index untouched', async () => {
  const dir = repository({ file: false });
  const run = await stage(dir, ['--', 'sh', '-c', 'echo ran']);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(
    `vendor-outputs stage: vendor_outputs.json not found in ${dir}: generate it first (vendor-outputs generate ...), or name another file with --file\n`,
  );
  expect(staged(dir)).toEqual([]);
});

test('a permanent .git/index.lock: the lock is named first, nothing was staged, the command does not run', async () => {
  const dir = repository();
  fs.writeFileSync(path.join(dir, '.git', 'index.lock'), '');
  const run = await stage(dir, ['--', 'sh', '-c', 'echo ran']);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  const lock = path.join(dir, '.git', 'index.lock');
  expect(run.stderr).toBe(`vendor-outputs stage: cannot stage vendor_outputs.json: ${lock} exists: another git process is using this repository, `
    + `or one crashed and left the lock behind (waited 5 s). If no git process is running, delete it (rm '${lock}') and run stage again\n`);
  expect(run.stderr).not.toContain('git rm --cached');

  fs.rmSync(lock);
  const next = await stage(dir, ['--', 'true']);
  expect(next.code).toBe(0);
  expect(next.stderr).not.toContain('earlier stage run');
  expect(staged(dir)).toEqual([]);
});

test('an index locked when the command ends: the lock is named, exit 1; the next run repairs the index', async () => {
  const dir = repository();
  const lock = path.join(dir, '.git', 'index.lock');
  const run = await stage(dir, ['--', 'sh', '-c', `touch '${lock}'`]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`vendor-outputs stage: could not take vendor_outputs.json out of the git index again: ${lock} exists: `);
  expect(run.stderr).toContain('Do not commit now. Run in');
  expect(staged(dir)).toEqual(['vendor_outputs.json']);

  fs.rmSync(lock);
  const next = await stage(dir, ['--', 'true']);
  expect(next.code).toBe(0);
  expect(next.stderr).toContain('while vendor_outputs.json was staged; unstaged it now');
  expect(staged(dir)).toEqual([]);
});

test.each([
  ['.git/config', 'is inside the git folder'],
  ['.git/info/../HEAD', 'is inside the git folder'],
])('--file %s is refused (exit 2): %s', async (file, message) => {
  const dir = repository();
  const run = await stage(dir, ['--file', file, '--', 'sh', '-c', 'echo ran']);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(`vendor-outputs stage: ${file} ${message} ${path.join(dir, '.git')}: stage adds a file of the working tree, such as vendor_outputs.json`);
  expect(staged(dir)).toEqual([]);
});

test('a --file outside the working tree is refused (exit 2)', async () => {
  const dir = repository();
  const outside = tempDir();
  fs.writeFileSync(path.join(outside, 'vendor_outputs.json'), CONTENT);
  const file = path.join(outside, 'vendor_outputs.json');
  const run = await stage(dir, ['--file', file, '--', 'sh', '-c', 'echo ran']);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(`vendor-outputs stage: ${file} is outside the git working tree ${dir}: stage adds a file of that working tree only`);
});

test('a folder given as --file is refused', async () => {
  const dir = repository();
  fs.mkdirSync(path.join(dir, 'config'));
  const run = await stage(dir, ['--file', 'config', '--', 'true']);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('vendor-outputs stage: config is not a file\n');
});

test.each([
  [[], "put the build command after '--', for example: npx vendor-outputs stage -- npx cap sync ios"],
  [['npm', 'run', 'build'], "put the build command after '--'"],
  [['--'], "no command after '--'; for example: npx vendor-outputs stage -- npx cap sync ios"],
  [['--file', '', '--', 'true'], '--file must not be empty'],
  [['--bogus', '--', 'true'], "Unknown option '--bogus'"],
])('usage error for %j', async (args, message) => {
  const dir = repository();
  const run = await stage(dir, args);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`vendor-outputs stage: ${message}`);
  expect(run.stderr).toContain("Run 'vendor-outputs stage --help' for usage.");
  expect(staged(dir)).toEqual([]);
});

test('--file names another file; paths are taken from the current folder, even a subfolder', async () => {
  const dir = repository({ file: false });
  fs.mkdirSync(path.join(dir, 'app', 'config [x]'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'app', 'config [x]', 'outputs*.json'), CONTENT);
  const run = await stage(path.join(dir, 'app'), ['--file', 'config [x]/outputs*.json', '--', 'git', 'diff', '--cached', '--name-only']);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe('app/config [x]/outputs*.json');
  expect(staged(dir)).toEqual([]);
  expect(tracked(dir)).toEqual(['.gitignore', 'README.md']);
});

test('the default file is looked up in the current folder', async () => {
  const dir = repository({ file: false });
  fs.mkdirSync(path.join(dir, 'mobile'));
  fs.writeFileSync(path.join(dir, 'mobile', 'vendor_outputs.json'), CONTENT);
  const run = await stage(path.join(dir, 'mobile'), ['--', 'git', 'diff', '--cached', '--name-only']);
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe('mobile/vendor_outputs.json');
  expect(staged(dir)).toEqual([]);
});

test('options after -- belong to the command, --help included', async () => {
  const dir = repository();
  const run = await stage(dir, ['--', 'sh', '-c', 'echo "$1"', 'sh', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('--help\n');
});

test('--help explains the command with an example', async () => {
  const run = await runCli(['stage', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Usage: vendor-outputs stage [--file FILE] -- COMMAND [ARGS...]');
  expect(run.stdout).toContain('stage never commits.');
  expect(run.stdout).toMatch(/Example:\n {2}npx vendor-outputs stage -- /);
});
