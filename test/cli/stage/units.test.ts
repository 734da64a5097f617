import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FileMutex } from '../../../src/cli/stage/file-mutex';
import { currentProcess, isRunning, parseIdentity } from '../../../src/cli/stage/process-identity';
import { FORWARDED_SIGNALS, signalStatus } from '../../../src/cli/stage/signals';

describe('the forwarded signals', () => {
  test.each(['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGUSR1', 'SIGUSR2', 'SIGALRM', 'SIGPIPE', 'SIGABRT', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM', 'SIGSYS', 'SIGTRAP'])(
    'include %s, which ends a process by default', (signal) => {
      expect(FORWARDED_SIGNALS).toContain(signal);
    });

  test.each(['SIGKILL', 'SIGSTOP', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGPROF', 'SIGCHLD', 'SIGCONT', 'SIGTSTP', 'SIGWINCH', 'SIGURG'])(
    'leave out %s (cannot be caught, not safe to catch, or does not end a process)', (signal) => {
      expect(FORWARDED_SIGNALS).not.toContain(signal);
    });

  test('hold each signal number once (SIGIOT is SIGABRT)', () => {
    const numbers = FORWARDED_SIGNALS.map((s) => os.constants.signals[s]);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  test('a signal status is 128+N', () => {
    expect(signalStatus('SIGTERM')).toBe(143);
    expect(signalStatus('SIGQUIT')).toBe(131);
  });
});

describe('process identity', () => {
  test('this process is running; an ended one is not', () => {
    expect(isRunning(currentProcess())).toBe(true);
    expect(isRunning({ pid: spawnSync('true').pid! })).toBe(false);
  });

  test('a process that has ended but was not collected by its parent yet (a zombie) is not running', async () => {
    // sh starts a short sleep in the background, then becomes a long `sleep`, which never
    // collects it: when the short one ends (after the exec), it stays a zombie.
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 10']);
    const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
    const state = () => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
    try {
      expect(isRunning({ pid })).toBe(true);
      for (let i = 0; i < 250 && state() !== 'Z'; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(state()).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow(); // the PID still exists ...
      expect(isRunning({ pid })).toBe(false); // ... but the process has ended
    } finally {
      parent.kill();
    }
  });

  test('a PID now used by another process (another start time) is not the run that registered it', () => {
    const me = currentProcess();
    expect(me.start).toMatch(/^\d+$/); // Linux
    expect(isRunning({ pid: me.pid, start: `${me.start}1` })).toBe(false);
  });

  test.each([
    [{ pid: 12, start: '34' }, { pid: 12, start: '34' }],
    [{ pid: 12 }, { pid: 12 }],
    [{ pid: -1 }, undefined],
    [{ pid: '12' }, undefined],
    [null, undefined],
  ])('parseIdentity(%j)', (value, identity) => {
    expect(parseIdentity(value)).toEqual(identity);
  });
});

describe('FileMutex', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-mutex-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is held by one at a time; a waiter that times out learns who holds it', async () => {
    const file = path.join(dir, 'lock');
    const first = new FileMutex(file);
    const second = new FileMutex(file);
    expect(await first.acquire(1000)).toBeUndefined();
    expect(await second.acquire(100)).toEqual(currentProcess());
    first.release();
    expect(await second.acquire(1000)).toBeUndefined();
    second.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  test('a lock whose owner has ended is taken over', async () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, JSON.stringify({ pid: spawnSync('true').pid }));
    const mutex = new FileMutex(file);
    expect(await mutex.acquire(1000)).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(currentProcess());
    mutex.release();
  });

  test('a lock being written (no owner yet) is waited for, not taken over', async () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, '');
    expect(await new FileMutex(file).acquire(200)).toEqual({ pid: 0 });
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });
});
