/**
 * What a function's code is, independent of where it lies: a new synth may stage an unchanged
 * asset in another cloud assembly directory, so a reload compares code by content, not by path.
 */
import { createHash, Hash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { FunctionCode } from '../model/function-spec';

/**
 * A digest of the code: of the inline source, or of every file under the directory (relative
 * paths, symbolic link targets and contents, in a fixed order). Undefined when the directory
 * cannot be read (gone, unreadable): such code counts as changed.
 */
export function codeFingerprint(code: FunctionCode): string | undefined {
  const hash = createHash('sha256');
  switch (code.kind) {
    case 'inline':
      hash.update(`inline\0${code.source}`);
      break;
    case 'unsupported':
      hash.update(`unsupported\0${code.reason}`);
      break;
    case 'directory':
      try {
        hashTree(hash, code.directory, '');
      } catch {
        return undefined;
      }
      break;
  }
  return hash.digest('hex');
}

function hashTree(hash: Hash, root: string, relative: string): void {
  const entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
    const full = path.join(root, name);
    if (entry.isDirectory()) {
      hash.update(`dir\0${name}\0`);
      hashTree(hash, root, name);
    } else if (entry.isSymbolicLink()) {
      hash.update(`link\0${name}\0${fs.readlinkSync(full)}\0`);
    } else if (entry.isFile()) {
      const content = fs.readFileSync(full);
      hash.update(`file\0${name}\0${content.length}\0`);
      hash.update(content);
    }
  }
}
