/**
 * A lock between stage runs of one repository: a file created exclusively, holding the owner's
 * process identity. A lock whose owner died (killed inside the few milliseconds it holds it) is
 * taken over.
 */
import * as fs from 'fs';
import { currentProcess, isRunning, parseIdentity, ProcessIdentity } from './process-identity';

/** How long a lock without a readable owner (being written) may exist before it counts as stale. */
const UNREADABLE_STALE_MS = 10_000;
const POLL_MS = 25;

export class FileMutex {
  private held = false;

  constructor(public readonly file: string) {}

  /**
   * Takes the lock, waiting for another stage run to release it.
   *
   * @returns undefined once held, or the identity of the process holding it when `timeoutMs` ran out
   */
  public async acquire(timeoutMs: number): Promise<ProcessIdentity | undefined> {
    const deadline = Date.now() + timeoutMs;
    const me = JSON.stringify(currentProcess());
    for (;;) {
      try {
        const fd = fs.openSync(this.file, 'wx');
        try {
          fs.writeSync(fd, me);
        } finally {
          fs.closeSync(fd);
        }
        this.held = true;
        return undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw error;
        }
      }
      const owner = this.staleOwner();
      if (owner.stale) {
        this.takeOver(owner.content);
        continue;
      }
      if (Date.now() > deadline) {
        return owner.identity ?? { pid: 0 };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  public release(): void {
    if (this.held) {
      this.held = false;
      fs.rmSync(this.file, { force: true });
    }
  }

  /** Reads the lock's owner and says whether it is gone. */
  private staleOwner(): { stale: boolean; content: string; identity?: ProcessIdentity } {
    let content: string;
    let age: number;
    try {
      content = fs.readFileSync(this.file, 'utf8');
      age = Date.now() - fs.statSync(this.file).mtimeMs;
    } catch {
      return { stale: false, content: '' }; // released meanwhile: try again
    }
    let identity: ProcessIdentity | undefined;
    try {
      identity = parseIdentity(JSON.parse(content));
    } catch {
      identity = undefined;
    }
    if (identity === undefined) {
      return { stale: age > UNREADABLE_STALE_MS, content };
    }
    return { stale: !isRunning(identity), content, identity };
  }

  /**
   * Removes a stale lock. Two runs may find the same stale lock: a second, short-lived lock makes
   * sure only one removes it, and only if it still holds the dead owner's content (the other run
   * may already have taken the lock anew).
   */
  private takeOver(staleContent: string): void {
    const steal = `${this.file}.takeover`;
    try {
      fs.writeFileSync(steal, '', { flag: 'wx' });
    } catch {
      try {
        if (Date.now() - fs.statSync(steal).mtimeMs > UNREADABLE_STALE_MS) {
          fs.rmSync(steal, { force: true }); // its writer died between two calls
        }
      } catch {
        // gone meanwhile
      }
      return;
    }
    try {
      let current: string | undefined;
      try {
        current = fs.readFileSync(this.file, 'utf8');
      } catch {
        current = undefined;
      }
      if (current === staleContent) {
        fs.rmSync(this.file, { force: true });
      }
    } finally {
      fs.rmSync(steal, { force: true });
    }
  }
}
