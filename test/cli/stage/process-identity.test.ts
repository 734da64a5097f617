/**
 * Whether the process that registered a run is still running: by PID and start time, zombies
 * counted as ended.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import { currentProcess, isRunning, parseIdentity } from '../../../src/cli/stage/process-identity';

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
