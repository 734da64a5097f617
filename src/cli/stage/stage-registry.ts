/**
 * What the stage runs of one repository share, so that overlapping runs never leave the file in
 * the index: a state file per staged path under the git folder, holding the index entry from
 * before the first run and the live runs. Every change to it, and every index write stage makes,
 * happens under one lock, so runs take turns whatever the interleaving:
 *
 * - The first run records the entry as it was, then adds the file; later runs only register
 *   (and add the current content again).
 * - A run that ends removes itself; the last one out puts the entry back and deletes the state.
 * - A registered run whose process is gone (killed by SIGKILL) is dropped by the next run that
 *   takes the lock; when none is left, that run repairs the index first, and says so.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { isPlainObject } from '../../outputs/cdk-free/json-data';
import { JsonFileFailures, readJsonFile } from '../../outputs/cdk-free/json-file';
import { CliError } from '../command';
import { FileMutex } from './file-mutex';
import { explainWriteFailure, gitPath } from './git';
import { addToIndex, indexEntries, restoreIndex } from './index-entry';
import { isRunning, parseIdentity, ProcessIdentity } from './process-identity';
import { Target } from './target';

/** Longest wait for another stage run's turn (each holds the lock for a few git commands). */
export const LOCK_TIMEOUT_MS = 30_000;

interface StageState {
  /** The staged path, relative to the top of the working tree. */
  readonly path: string;
  /** Index entry before the first run (`git ls-files -s -z`), empty when untracked. */
  readonly before: string;
  /** Index entry after the latest add; null while an add is under way (a run killed then may have added). */
  added: string | null;
  runs: ProcessIdentity[];
}

/** The state file cannot be read: no run left one (or none that stage can use), so there is no state. */
class NoStateFile extends Error {}

const STATE_FILE_FAILURES: JsonFileFailures = {
  unreadable: (reason) => new NoStateFile(reason),
  invalid: (reason) => new Error(reason),
};

/** The state a run wrote for the path `relative`, or undefined when `value` is not one. */
function parseState(value: unknown, relative: string): StageState | undefined {
  if (!isPlainObject(value)) {
    return undefined;
  }
  const runs = Array.isArray(value.runs) ? value.runs.map(parseIdentity) : [];
  if (value.path !== relative || typeof value.before !== 'string'
    || (typeof value.added !== 'string' && value.added !== null) || runs.some((run) => run === undefined)) {
    return undefined;
  }
  return { path: relative, before: value.before, added: value.added as string | null, runs: runs as ProcessIdentity[] };
}

/** How a run ended for the index. */
export type LeaveResult =
  | { readonly kind: 'restored'; readonly tracked: boolean }
  | { readonly kind: 'kept'; readonly others: readonly ProcessIdentity[] }
  | { readonly kind: 'failed'; readonly message: string };

function sameProcess(a: ProcessIdentity, b: ProcessIdentity): boolean {
  return a.pid === b.pid && a.start === b.start;
}

export class StageRegistry {
  private readonly stateFile: string;
  private readonly mutex: FileMutex;

  constructor(private readonly target: Target) {
    const dir = gitPath(target.top, 'vendor-outputs-stage');
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new CliError(`cannot create ${dir}, where stage runs keep track of each other: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const id = createHash('sha256').update(target.relative).digest('hex').slice(0, 16);
    this.stateFile = path.join(dir, `${id}.json`);
    this.mutex = new FileMutex(path.join(dir, 'lock'));
  }

  /**
   * Registers `me` and stages the file. Returns the entry from before the first run.
   *
   * @param note prints a line for the user (a repaired leftover)
   */
  public async join(me: ProcessIdentity, note: (line: string) => void): Promise<string> {
    await this.lock();
    try {
      let state = this.read(note);
      if (state !== undefined) {
        state.runs = state.runs.filter(isRunning);
        if (state.runs.length === 0) {
          this.repair(state, note);
          state = undefined;
        }
      }
      if (state === undefined) {
        const before = indexEntries(this.target);
        state = { path: this.target.relative, before, added: before, runs: [] };
      }
      // Registered before the add: if this run is killed from here on, the next run repairs.
      const previous = state.added;
      state.runs.push(me);
      state.added = null;
      this.write(state);
      const added = addToIndex(this.target);
      if (added.status !== 0) {
        state.runs.pop();
        state.added = previous;
        this.finish(state);
        throw new CliError(`cannot stage ${this.target.display}: ${explainWriteFailure(added, this.target.top)}`);
      }
      state.added = indexEntries(this.target);
      this.write(state);
      return state.before;
    } finally {
      this.mutex.release();
    }
  }

  /**
   * Unregisters `me`; the last run out puts the entry back as it was before the first run.
   *
   * @param fallbackBefore the entry `me` saw, used if the state file has gone
   */
  public async leave(me: ProcessIdentity, fallbackBefore: string): Promise<LeaveResult> {
    try {
      await this.lock();
    } catch (error) {
      return { kind: 'failed', message: `${(error as Error).message}; the next stage run unstages ${this.target.display}` };
    }
    try {
      const state = this.read(() => undefined)
        ?? { path: this.target.relative, before: fallbackBefore, added: null, runs: [me] };
      state.runs = state.runs.filter((run) => !sameProcess(run, me) && isRunning(run));
      if (state.runs.length > 0) {
        this.write(state);
        return { kind: 'kept', others: state.runs };
      }
      const restored = restoreIndex(this.target, state.before);
      if (restored.status !== 0) {
        // Kept with no live run: the next stage run repairs the index.
        this.write(state);
        return { kind: 'failed', message: this.restoreFailure(state.before, explainWriteFailure(restored, this.target.top)) };
      }
      fs.rmSync(this.stateFile, { force: true });
      return { kind: 'restored', tracked: state.before !== '' };
    } finally {
      this.mutex.release();
    }
  }

  private async lock(): Promise<void> {
    let holder: ProcessIdentity | undefined;
    try {
      holder = await this.mutex.acquire(LOCK_TIMEOUT_MS);
    } catch (error) {
      throw new CliError(`cannot create ${this.mutex.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (holder !== undefined) {
      throw new CliError(`another stage run${holder.pid > 0 ? ` (pid ${holder.pid})` : ''} has held ${this.mutex.file} for ${LOCK_TIMEOUT_MS / 1000} s; `
        + 'if no stage run is active, delete that file');
    }
  }

  /** Writes the state, or deletes it when no run is left (the index is then as before). */
  private finish(state: StageState): void {
    if (state.runs.length > 0) {
      this.write(state);
    } else {
      fs.rmSync(this.stateFile, { force: true });
    }
  }

  /**
   * Puts the index back for runs that were killed before they could. The entry is left alone
   * when it is already as before, or when it has changed since the last add (fixed by hand).
   */
  private repair(state: StageState, note: (line: string) => void): void {
    const current = indexEntries(this.target);
    const what = `an earlier stage run ended without cleaning up (it was killed, for example by SIGKILL) while ${this.target.display} was staged`;
    if (current === state.before) {
      // Nothing to repair (it was killed before its add, or after putting the entry back).
    } else if (state.added !== null && current !== state.added) {
      note(`${what}; its index entry has changed since, so it is left as it is`);
    } else {
      const restored = restoreIndex(this.target, state.before);
      if (restored.status !== 0) {
        throw new CliError(this.restoreFailure(state.before, explainWriteFailure(restored, this.target.top)));
      }
      note(`${what}; ${state.before === '' ? 'unstaged it now' : 'put its index entry back now'}`);
    }
    fs.rmSync(this.stateFile, { force: true });
  }

  private restoreFailure(before: string, cause: string): string {
    return [
      `could not take ${this.target.display} out of the git index again: ${cause}`,
      `Do not commit now. Run in ${this.target.top}:`,
      before === '' ? `  git rm --cached ${this.target.relative}` : `  git reset -q -- ${this.target.relative}`,
      '(or run stage again: it repairs what an earlier run left behind)',
    ].join('\n');
  }

  private read(note: (line: string) => void): StageState | undefined {
    let state: StageState | undefined;
    try {
      state = parseState(readJsonFile(this.stateFile, STATE_FILE_FAILURES), this.target.relative);
    } catch (error) {
      if (error instanceof NoStateFile) {
        return undefined;
      }
      // Not JSON: not a state file either.
    }
    if (state === undefined) {
      note(`ignored ${this.stateFile}: it is not a state file this version of stage wrote`);
      fs.rmSync(this.stateFile, { force: true });
    }
    return state;
  }

  private write(state: StageState): void {
    const temp = `${this.stateFile}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(state)}\n`);
    fs.renameSync(temp, this.stateFile);
  }
}
