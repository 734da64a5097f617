import * as fs from 'fs';
import * as path from 'path';

/**
 * Writes a file so that readers see either the old content or the new, never a part:
 * the data goes to a temporary file in the same folder, which is then renamed over the target.
 *
 * A file that already holds exactly `data` is left alone: its modification time stays, so
 * watchers (a frontend dev server) do not reload, and the rename (a flush on ext4) is saved.
 */
export function writeFileAtomic(filePath: string, data: string): void {
  if (holds(filePath, data)) {
    return;
  }
  const dir = path.dirname(filePath);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(filePath)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    fs.writeFileSync(temp, data);
    fs.renameSync(temp, filePath);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
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
