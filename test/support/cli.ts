import { spawn, SpawnOptions } from 'child_process';
import * as path from 'path';
import { compiledCli } from './compiled';

/** Repository root. */
export const ROOT = path.join(__dirname, '..', '..');

/** Result of one CLI run. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `vendor-outputs ARGS...` as a real child process, the compiled CLI the package ships
 * (lib/cli/main.js; see ./compiled.ts), and collects its output. `node`: the Node.js executable
 * that runs it (default: this process's; see ./node-majors.ts for other majors).
 */
export function runCli(args: string[], options: SpawnOptions & { input?: string; node?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [compiledCli(), ...args], {
      cwd: ROOT,
      ...options,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => { stdout += d; });
    child.stderr!.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin!.end(options.input ?? '');
  });
}
