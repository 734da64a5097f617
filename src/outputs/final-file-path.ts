/**
 * Checks the path given to `writeFinalFileTo` when it is given, so that a path the writer could
 * never use fails at the call, naming the caller, instead of at the end of a synth.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * Returns `filePath` made absolute (against the working directory), or throws when it is empty,
 * holds a NUL byte, names a folder, or lies under something that is not a folder.
 *
 * @param where who asks, for the message (a construct path)
 */
export function checkFinalFilePath(filePath: unknown, where: string): string {
  const prefix = `${where}: writeFinalFileTo needs the path of a file, e.g. '../frontend/vendor_outputs.json'`;
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    throw new Error(`${prefix} (got ${typeof filePath === 'string' ? JSON.stringify(filePath) : String(filePath)})`);
  }
  if (filePath.includes('\0')) {
    throw new Error(`${prefix}; a path cannot contain a NUL byte (got ${JSON.stringify(filePath)})`);
  }
  const absolute = path.resolve(filePath);
  if (/[/\\]$/.test(filePath) || kindOf(absolute) === 'folder') {
    throw new Error(`${prefix}; ${absolute} is a folder`);
  }
  for (let parent = path.dirname(absolute); ; parent = path.dirname(parent)) {
    const kind = kindOf(parent);
    if (kind === 'folder') {
      break;
    }
    if (kind === 'other') {
      throw new Error(`${prefix}; ${parent} is a file, not a folder, so ${absolute} cannot be created`);
    }
    if (path.dirname(parent) === parent) {
      break;
    }
  }
  return absolute;
}

function kindOf(p: string): 'missing' | 'folder' | 'other' {
  try {
    return fs.statSync(p).isDirectory() ? 'folder' : 'other';
  } catch {
    return 'missing';
  }
}
