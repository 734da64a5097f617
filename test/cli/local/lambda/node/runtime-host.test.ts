/**
 * A function's runtime host runs in a process group of its own: when the server closes (or the
 * host is replaced), what a handler started ends with it, even a process that ignores SIGTERM. An
 * environment that retires alone ends the processes it started (and theirs) while the host and
 * the function's other environments go on.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Invoker } from '../../../../../src/cli/local/lambda/invoker';
import { isRunning, waitUntilEnded } from '../../../../support/processes';
import { fn } from '../function-spec';

/**
 * A handler that starts a child ignoring SIGTERM (no pipe kept) and answers its pid; with `ms`, it
 * waits that long first (so that concurrent calls take an environment each).
 */
const SPAWNING_HANDLER = [
  "const { spawn } = require('child_process');",
  'exports.handler = async (event) => {',
  '  const child = spawn(process.execPath, [\'-e\', "process.on(\'SIGTERM\', () => {}); setInterval(() => {}, 1000);"], { stdio: \'ignore\' });',
  '  child.unref();',
  '  await new Promise((resolve) => setTimeout(resolve, event.ms || 0));',
  '  return child.pid;',
  '};',
].join('\n');

/** A handler whose child (a shell) starts a grandchild (`sleep 97`) and answers the shell's pid. */
const GRANDCHILD_HANDLER = [
  "const { spawn } = require('child_process');",
  'exports.handler = async (event) => {',
  "  const child = spawn('sh', ['-c', 'sleep 97; true'], { stdio: 'ignore' });",
  '  await new Promise((resolve) => setTimeout(resolve, event.ms || 0));',
  '  return child.pid;',
  '};',
].join('\n');

let dir: string;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-runtime-host-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('closing the invoker ends the processes a handler started', async () => {
  const spawning = fn('nodejs20.x', { code: { kind: 'inline', source: SPAWNING_HANDLER } });
  const invoker = new Invoker(new Map([[spawning.key, spawning]]), { log: () => undefined, maxWorkersPerFunction: 1 });
  let pid: number;
  try {
    const outcome = await invoker.invoke(spawning.key, {}, { awsRequestId: 'r1' });
    expect(outcome.kind).toBe('ok');
    pid = Number((outcome as { payload: string }).payload);
    expect(isRunning(pid)).toBe(true);
  } finally {
    await invoker.close();
  }
  await waitUntilEnded([pid], 2_000);
});

test('an environment retired for idleness ends the process trees it started; the other environments keep theirs', async () => {
  const spawning = fn('nodejs20.x', { code: { kind: 'inline', source: GRANDCHILD_HANDLER } });
  const invoker = new Invoker(new Map([[spawning.key, spawning]]), { log: () => undefined, idleRetireMs: 300 });
  try {
    // Two at once: two environments, one shell (and its sleep) each.
    const outcomes = await Promise.all(['r1', 'r2'].map((id) => invoker.invoke(spawning.key, { ms: 300 }, { awsRequestId: id })));
    const shells = outcomes.map((o) => Number((o as { payload: string }).payload));
    expect(invoker.environmentCount(spawning.key)).toBe(2);
    const sleeps = shells.map((pid) => childrenOf(pid));
    expect(sleeps.map((s) => s.length)).toEqual([1, 1]);
    // One environment retires (one stays warm): its shell and sleep end, the other's run on.
    await waitFor(() => invoker.environmentCount(spawning.key) === 1, 3_000);
    await waitFor(() => shells.filter(isRunning).length === 1, 2_000);
    const kept = shells.findIndex(isRunning);
    const retired = 1 - kept;
    await waitUntilEnded([shells[retired], ...sleeps[retired]], 2_000);
    expect(sleeps[kept].every(isRunning)).toBe(true);
  } finally {
    await invoker.close();
  }
});

/** Direct children of a process (Linux). */
function childrenOf(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) {
      throw new Error(`not within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
