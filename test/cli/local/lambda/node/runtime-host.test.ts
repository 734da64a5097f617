/**
 * A function's runtime host runs in a process group of its own: when the server closes (or the
 * host is replaced), what a handler started ends with it, even a process that ignores SIGTERM.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Invoker } from '../../../../../src/cli/local/lambda/invoker';
import { isRunning, waitUntilEnded } from '../../../../support/processes';
import { fn } from '../function-spec';

/** A handler that starts a child ignoring SIGTERM (no pipe kept) and answers its pid. */
const SPAWNING_HANDLER = [
  "const { spawn } = require('child_process');",
  'exports.handler = async () => {',
  '  const child = spawn(process.execPath, [\'-e\', "process.on(\'SIGTERM\', () => {}); setInterval(() => {}, 1000);"], { stdio: \'ignore\' });',
  '  child.unref();',
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
