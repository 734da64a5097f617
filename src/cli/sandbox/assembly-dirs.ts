/**
 * Where each synthesis goes while the sandbox serves: a fresh folder per synth inside the output
 * directory (`cdk.out/sandbox-<pid>-<n>`), so the assembly being served (its function code
 * included) stays intact while the next one is written, and a failed synth leaves it alone.
 * Inside the output directory, not in a temporary folder: the app folder (cdk.json, node_modules)
 * is found from it as from cdk.out, and projects already keep cdk.out out of git and out of watch.
 */
import * as fs from 'fs';
import * as path from 'path';

export class AssemblyDirs {
  private readonly created: string[] = [];
  private count = 0;

  constructor(private readonly output: string) {}

  /** A new, not yet existing folder for the next synth. */
  next(): string {
    this.count += 1;
    const dir = path.join(this.output, `sandbox-${process.pid}-${this.count}`);
    this.created.push(dir);
    return dir;
  }

  /** Removes a folder whose synth failed. */
  discard(dir: string): void {
    this.remove(dir);
  }

  /**
   * Removes every folder but `current` and the one served before it (requests that started on the
   * old code may still be reading it), and those holding code the server still runs (`inUse`: an
   * unchanged function keeps running from the folder it started in).
   */
  retire(current: string, previous: string | undefined, inUse: readonly string[] = []): void {
    for (const dir of [...this.created]) {
      if (dir !== current && dir !== previous && !inUse.some((code) => code === dir || code.startsWith(dir + path.sep))) {
        this.remove(dir);
      }
    }
  }

  removeAll(): void {
    for (const dir of [...this.created]) {
      this.remove(dir);
    }
  }

  private remove(dir: string): void {
    fs.rmSync(dir, { recursive: true, force: true });
    this.created.splice(this.created.indexOf(dir), 1);
  }
}
