import { spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { git, HeldStage, removeTemps, repository, stage, staged } from './stage-repository';

afterAll(removeTemps);

const UNSTAGED = 'vendor-outputs stage: vendor_outputs.json unstaged (still on disk)';

test.each([
  ['the first', 'a', 'b'],
  ['the second', 'b', 'a'],
])('two overlapping runs, %s ending first: staged until the last one ends, then unstaged', async (_, firstOut, lastOut) => {
  const dir = repository();
  const runs: Record<string, HeldStage> = { a: new HeldStage(dir, 'a') };
  await runs.a.pid();
  runs.b = new HeldStage(dir, 'b');
  const lastPid = await runs[lastOut].pid();
  expect(staged(dir)).toEqual(['vendor_outputs.json']);

  runs[firstOut].release();
  const first = await runs[firstOut].done;
  expect(first.code).toBe(0);
  expect(first.stdout).toBe('vendor_outputs.json\n');
  expect(first.stderr).toContain(
    `vendor-outputs stage: vendor_outputs.json stays staged for the other stage run(s) still running (pid ${lastPid}); the last one to end unstages it`);
  expect(first.stderr).not.toContain('committed by mistake');
  // The other build still sees the file.
  expect(staged(dir)).toEqual(['vendor_outputs.json']);

  runs[lastOut].release();
  const last = await runs[lastOut].done;
  expect(last.code).toBe(0);
  expect(last.stdout).toBe('vendor_outputs.json\n');
  expect(last.stderr).not.toContain('committed by mistake');
  expect(last.stderr).toContain(UNSTAGED);
  expect(staged(dir)).toEqual([]);
  expect(git(dir, 'status', '--porcelain', '--ignored')).toBe('!! vendor_outputs.json\n');
});

test('four runs started at once: each command sees the file staged from start to end; none is left staged', async () => {
  const dir = repository();
  const script = 'git diff --cached --name-only; sleep "$1"; git diff --cached --name-only';
  const runs = await Promise.all(['0.5', '2', '1', '0'].map((pause) => stage(dir, ['--', 'sh', '-c', script, 'sh', pause])));
  for (const run of runs) {
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('vendor_outputs.json\nvendor_outputs.json\n');
    // How the runs overlap depends on how fast each process starts: each one either hands the
    // file over to runs still going or, being the last, unstages it.
    expect(run.stderr).toMatch(/vendor_outputs\.json unstaged \(still on disk\)|stays staged for the other stage run\(s\) still running/);
    expect(run.stderr).not.toContain('committed by mistake');
  }
  expect(runs.filter((run) => run.stderr.includes(UNSTAGED)).length).toBeGreaterThanOrEqual(1);
  expect(staged(dir)).toEqual([]);
  expect(fs.readdirSync(path.join(dir, '.git', 'vendor-outputs-stage'))).toEqual([]);
});

test('overlapping runs on a tracked file put back the entry from before the first run', async () => {
  const dir = repository();
  git(dir, 'add', '-f', 'vendor_outputs.json');
  git(dir, 'commit', '-q', '-m', 'oops: commit the outputs');
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{"version":"1","changed":true}\n');
  const before = git(dir, 'ls-files', '--stage', 'vendor_outputs.json');

  const a = new HeldStage(dir, 'a');
  await a.pid();
  const b = new HeldStage(dir, 'b');
  await b.pid();
  a.release();
  expect((await a.done).stderr).toContain('warning: vendor_outputs.json is tracked by git: it was committed by mistake.');
  b.release();
  const last = await b.done;
  expect(last.stderr).toContain('warning: vendor_outputs.json is tracked by git: it was committed by mistake.');
  expect(last.stderr).toContain('vendor_outputs.json index entry restored');
  expect(git(dir, 'ls-files', '--stage', 'vendor_outputs.json')).toBe(before);
  expect(git(dir, 'status', '--porcelain')).toBe(' M vendor_outputs.json\n');
});

describe('a stage run killed by SIGKILL', () => {
  /** Starts a run, kills it with SIGKILL while its command runs, and ends the orphaned command. */
  async function killedRun(dir: string): Promise<number> {
    const run = new HeldStage(dir, `killed-${Math.random().toString(36).slice(2)}`);
    const pid = await run.pid();
    process.kill(pid, 'SIGKILL');
    run.release(); // the orphaned command ends (and closes the output it shares with stage)
    const result = await run.done;
    expect(result.signal).toBe('SIGKILL');
    return pid;
  }

  test('leaves the file staged; the next run notices, says so, and unstages it', async () => {
    const dir = repository();
    await killedRun(dir);
    expect(staged(dir)).toEqual(['vendor_outputs.json']);

    const next = await stage(dir, ['--', 'git', 'diff', '--cached', '--name-only']);
    expect(next.code).toBe(0);
    expect(next.stdout).toBe('vendor_outputs.json\n');
    expect(next.stderr.split('\n')[0]).toBe('vendor-outputs stage: an earlier stage run ended without cleaning up '
      + '(it was killed, for example by SIGKILL) while vendor_outputs.json was staged; unstaged it now');
    expect(next.stderr).not.toContain('committed by mistake');
    expect(staged(dir)).toEqual([]);
  });

  test('while another run is still going: that run, the last one out, unstages the file', async () => {
    const dir = repository();
    const survivor = new HeldStage(dir, 'survivor');
    await survivor.pid();
    await killedRun(dir);
    survivor.release();
    const run = await survivor.done;
    expect(run.stderr).toContain(UNSTAGED);
    expect(staged(dir)).toEqual([]);
  });

  test('when the index was fixed by hand since, the next run has nothing to repair', async () => {
    const dir = repository();
    await killedRun(dir);
    git(dir, 'rm', '-q', '--cached', 'vendor_outputs.json');
    const next = await stage(dir, ['--', 'true']);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toContain('earlier stage run');
    expect(staged(dir)).toEqual([]);
  });

  test('when someone staged other content since, the next run says so and leaves that entry', async () => {
    const dir = repository();
    await killedRun(dir);
    fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{"version":"1","by":"hand"}\n');
    git(dir, 'add', '-f', 'vendor_outputs.json');
    const entry = git(dir, 'ls-files', '--stage', 'vendor_outputs.json');
    const next = await stage(dir, ['--', 'true']);
    expect(next.code).toBe(0);
    expect(next.stderr).toContain('while vendor_outputs.json was staged; its index entry has changed since, so it is left as it is');
    expect(next.stderr).toContain('warning: vendor_outputs.json is tracked by git');
    expect(git(dir, 'ls-files', '--stage', 'vendor_outputs.json')).toBe(entry);
  });

  test('killed while its add was under way: the next run puts the entry back', async () => {
    const dir = repository();
    git(dir, 'add', '-f', 'vendor_outputs.json');
    const folder = path.join(dir, '.git', 'vendor-outputs-stage');
    fs.mkdirSync(folder, { recursive: true });
    const id = createHash('sha256').update('vendor_outputs.json').digest('hex').slice(0, 16);
    fs.writeFileSync(path.join(folder, `${id}.json`), JSON.stringify({
      path: 'vendor_outputs.json', before: '', added: null, runs: [{ pid: spawnSync('true').pid }],
    }));
    const next = await stage(dir, ['--', 'true']);
    expect(next.code).toBe(0);
    expect(next.stderr).toContain('while vendor_outputs.json was staged; unstaged it now');
    expect(staged(dir)).toEqual([]);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  test('a lock left by a dead stage run is taken over', async () => {
    const dir = repository();
    const dead = spawnSync('true').pid; // a process that has ended
    const folder = path.join(dir, '.git', 'vendor-outputs-stage');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'lock'), JSON.stringify({ pid: dead }));
    const run = await stage(dir, ['--', 'true']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(UNSTAGED);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});

test('when stage cannot keep track of runs under .git: one line, exit 1, nothing staged', async () => {
  const dir = repository();
  const folder = path.join(dir, '.git', 'vendor-outputs-stage');
  fs.writeFileSync(folder, 'not a folder');
  const run = await stage(dir, ['--', 'sh', '-c', 'echo ran']);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(`vendor-outputs stage: cannot create ${folder}, where stage runs keep track of each other: EEXIST\n`);
  expect(staged(dir)).toEqual([]);
});
