/**
 * The git commands stage runs, with the index lock told apart from other failures.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { CliError } from '../command';

export interface GitResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git in `cwd`. Paths are file names, never patterns, unless `literalPathspecs` is false. */
export function git(args: string[], cwd: string, input?: string, literalPathspecs = true): GitResult {
  const result = spawnSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    // check-ignore takes plain paths and refuses the setting.
    env: literalPathspecs ? { ...process.env, GIT_LITERAL_PATHSPECS: '1' } : process.env,
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? 'git is not installed or not on PATH' : `cannot run git: ${result.error.message}`);
  }
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr.trim() };
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** How long a write waits for another git process to release the index. */
export const INDEX_LOCK_WAIT_MS = 5000;

/** Whether git failed because the index is locked. */
export function isIndexLocked(result: GitResult): boolean {
  return result.status !== 0 && /index\.lock/.test(result.stderr);
}

/** Runs a git command that writes the index, retrying while another git process holds its lock. */
export function gitWrite(args: string[], cwd: string, input?: string): GitResult {
  let result = git(args, cwd, input);
  for (let waited = 0; waited < INDEX_LOCK_WAIT_MS && isIndexLocked(result); waited += 250) {
    sleep(250);
    result = git(args, cwd, input);
  }
  return result;
}

/** A path inside the repository's git folder (`git rev-parse --git-path`), absolute. */
export function gitPath(top: string, name: string): string {
  const result = git(['rev-parse', '--git-path', name], top);
  if (result.status !== 0) {
    throw new CliError(`cannot find the git folder of ${top}: ${result.stderr}`);
  }
  return path.resolve(top, result.stdout.trim());
}

/** Why a git write failed, the cause first: a lock file that stays is named with what to do. */
export function explainWriteFailure(result: GitResult, top: string): string {
  if (isIndexLocked(result)) {
    const lock = gitPath(top, 'index.lock');
    return `${lock} exists: another git process is using this repository, or one crashed and left the lock behind `
      + `(waited ${INDEX_LOCK_WAIT_MS / 1000} s). If no git process is running, delete it (rm '${lock}') and run stage again`;
  }
  return result.stderr;
}
