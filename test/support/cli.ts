import { spawn, SpawnOptions } from 'child_process';
import * as path from 'path';

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
 * Runs `vendor-outputs ARGS...` as a real child process from the TypeScript sources
 * (transpile-only, so no build is needed), and collects its output.
 */
export function runCli(args: string[], options: SpawnOptions & { input?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), path.join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
      cwd: ROOT,
      ...options,
      env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.json'), ...options.env },
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
