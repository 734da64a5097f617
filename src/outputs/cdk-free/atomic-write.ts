import * as fs from 'fs';
import * as path from 'path';

/** A temporary file older than this is stale even when a process with its PID is alive (PIDs are reused). */
export const STALE_TEMP_AGE_MS = 10 * 60 * 1000;

/** Most symbolic links followed from the target before giving up (a loop). */
const MAX_LINKS = 40;

/**
 * Writes a file so that readers see either the old content or the new, never a part:
 * the data goes to a temporary file `.<name>.<pid>.<random>.tmp` in the same folder, which is
 * then renamed over the target.
 *
 * - A file that already holds exactly `data` is left alone: its modification time stays, so
 *   watchers (a frontend dev server) do not reload, and the rename (a flush on ext4) is saved.
 * - A replaced file keeps its mode (permissions).
 * - When the target is a symbolic link, the file it points to is replaced (the link stays).
 * - Temporary files of the same target left by a writer that died (its PID is gone, or the file
 *   is older than ten minutes) are removed.
 */
export function writeFileAtomic(filePath: string, data: string): void {
  const target = followLinks(filePath);
  if (holds(target, data)) {
    return;
  }
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  removeStaleTemps(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    fs.writeFileSync(temp, data);
    const mode = modeOf(target);
    if (mode !== undefined) {
      fs.chmodSync(temp, mode);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** The file a path finally names: itself, or the target of its chain of symbolic links. */
function followLinks(filePath: string): string {
  let current = path.resolve(filePath);
  for (let i = 0; i < MAX_LINKS; i++) {
    let link: string;
    try {
      if (!fs.lstatSync(current).isSymbolicLink()) {
        return current;
      }
      link = fs.readlinkSync(current);
    } catch {
      return current;
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw new Error(`${filePath}: too many levels of symbolic links`);
}

function modeOf(file: string): number | undefined {
  try {
    // The permission bits (and setuid/setgid/sticky) without the file-type bits.
    return fs.statSync(file).mode % 0o10000;
  } catch {
    return undefined;
  }
}

function holds(filePath: string, data: string): boolean {
  try {
    const stat = fs.statSync(filePath);
    return stat.isFile() && stat.size === Buffer.byteLength(data) && fs.readFileSync(filePath, 'utf8') === data;
  } catch {
    return false;
  }
}

/** Removes `.<name>.<pid>.<random>.tmp` files of `target` whose writer is gone. */
function removeStaleTemps(target: string): void {
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /^(\d+)\.[0-9a-z]+\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (match === null) {
      continue;
    }
    const file = path.join(dir, name);
    try {
      const stat = fs.lstatSync(file);
      if (stat.isFile() && (!isAlive(Number(match[1])) || Date.now() - stat.mtimeMs > STALE_TEMP_AGE_MS)) {
        fs.rmSync(file, { force: true });
      }
    } catch {
      // Gone meanwhile, or not ours to remove: leave it.
    }
  }
}

/** Whether a process with this PID exists (this process and its threads count as alive). */
function isAlive(pid: number): boolean {
  if (pid === process.pid) {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
