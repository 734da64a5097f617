/**
 * Real git repositories in temp folders and real `vendor-outputs stage` processes, for the stage tests.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../support/cli';

export const CONTENT = '{"version":"1","custom":{"api_name":"items"}}\n';
const temps: string[] = [];

/** Removes every folder made by {@link tempDir}; call from afterAll. */
export function removeTemps(): void {
  for (const dir of temps.splice(0)) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh temp folder that no git repository encloses. */
export function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-stage-')));
  temps.push(dir);
  return dir;
}

export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  // The temp folders are children of the system temp folder: never look above it for a repository.
  GIT_CEILING_DIRECTORIES: fs.realpathSync(os.tmpdir()),
};

/** Git in `cwd`, isolated from the user's configuration and from enclosing repositories. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });
}

/** A repository with one commit, vendor_outputs.json ignored, and the file on disk (untracked). */
export function repository(options: { file?: boolean } = {}): string {
  const dir = tempDir();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Stage Test');
  git(dir, 'config', 'user.email', 'stage@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\nvendor_outputs.json\n');
  fs.writeFileSync(path.join(dir, 'README.md'), '# app\n');
  git(dir, 'add', '.gitignore', 'README.md');
  git(dir, 'commit', '-q', '-m', 'initial');
  if (options.file ?? true) {
    fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), CONTENT);
  }
  return dir;
}

export function stage(cwd: string, args: string[]) {
  return runCli(['stage', ...args], { cwd, env: GIT_ENV });
}

export function staged(dir: string): string[] {
  return git(dir, 'diff', '--cached', '--name-only').split('\n').filter((l) => l !== '');
}

export function tracked(dir: string): string[] {
  return git(dir, 'ls-files').split('\n').filter((l) => l !== '');
}

export function commits(dir: string): number {
  return Number(git(dir, 'rev-list', '--count', 'HEAD').trim());
}

/** Waits until `file` exists and is not empty, then returns its content. */
export async function waitForFile(file: string, timeoutMs = 30000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() !== '') {
      return fs.readFileSync(file, 'utf8').trim();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${file}`);
}

/**
 * A stage run whose command writes the stage process's PID (its parent, $PPID) to a file, waits
 * until the test lets it go on, then prints what is staged.
 */
export class HeldStage {
  public readonly done: ReturnType<typeof stage>;
  private readonly pidFile: string;
  private readonly goFile: string;

  constructor(dir: string, name: string) {
    const control = tempDir();
    this.pidFile = path.join(control, `${name}.pid`);
    this.goFile = path.join(control, `${name}.go`);
    const script = [
      `echo $PPID > '${this.pidFile}'`,
      `while [ ! -f '${this.goFile}' ]; do sleep 0.05; done`,
      'git diff --cached --name-only',
    ].join('\n');
    this.done = stage(dir, ['--', 'sh', '-c', script]);
  }

  /** The stage process's PID, once its command runs. */
  public pid(): Promise<number> {
    return waitForFile(this.pidFile).then(Number);
  }

  /** Lets the command end. */
  public release(): void {
    fs.writeFileSync(this.goFile, '');
  }
}
