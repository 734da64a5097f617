/**
 * Whether processes still run, for tests that stop a process tree: a zombie (ended, not yet reaped
 * by a parent that may never reap it, as a container's pid 1 may not) counts as ended.
 */
import * as fs from 'fs';

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/PID/stat: "pid (comm) state ...": the state after the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Resolves once none of `pids` runs, or rejects after `timeoutMs` naming those that still do. */
export async function waitUntilEnded(pids: readonly number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = pids.filter(isRunning);
    if (running.length === 0) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`still running after ${timeoutMs} ms: ${running.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The pids written one per line to `file`, once it holds `count` of them. */
export async function pidsIn(file: string, count: number, timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map(Number) : [];
    if (pids.length >= count) {
      return pids;
    }
    if (Date.now() > deadline) {
      throw new Error(`${file} holds ${pids.length} pid(s), not ${count}, after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A Node.js script that ignores SIGTERM, starts a child that ignores it too, writes both pids to
 * `pidFile` (its own first), and never ends by itself: a CDK app that will not stop when asked.
 */
export function stubbornScript(pidFile: string): string {
  const child = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);";
  return [
    "const { spawn } = require('child_process');",
    "const fs = require('fs');",
    "process.on('SIGTERM', () => {});",
    `const child = spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'ignore' });`,
    `fs.writeFileSync(${JSON.stringify(pidFile)}, process.pid + '\\n' + child.pid + '\\n');`,
    'setInterval(() => {}, 1000);',
    '',
  ].join('\n');
}
