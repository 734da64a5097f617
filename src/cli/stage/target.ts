/**
 * The file stage adds: found in the working tree, refused with a clear message anywhere else.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CliError, UsageError } from '../command';
import { git } from './git';

/** Where the file lives for git. */
export interface Target {
  /** Top folder of the working tree (git commands run there). */
  readonly top: string;
  /** Path relative to `top`, with forward slashes. */
  readonly relative: string;
  /** The path as the user gave it, for messages. */
  readonly display: string;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realGitFolders(cwd: string): string[] {
  const result = git(['rev-parse', '--absolute-git-dir', '--git-common-dir'], cwd);
  if (result.status !== 0) {
    return [];
  }
  return result.stdout.trim().split('\n').map((dir) => {
    const absolute = path.resolve(cwd, dir);
    try {
      return fs.realpathSync(absolute);
    } catch {
      return absolute;
    }
  });
}

/** Finds the working tree and the file's path inside it; refuses anything else with a clear message. */
export function locate(file: string, cwd: string): Target {
  const top = git(['rev-parse', '--show-toplevel'], cwd);
  if (top.status !== 0 || top.stdout.trim() === '') {
    throw new CliError(
      `not inside a git repository (${cwd}): stage force-adds ${file} to the git index for a build, so run it from the project's working tree`,
    );
  }
  const absolute = path.resolve(cwd, file);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(absolute);
  } catch {
    stat = undefined;
  }
  if (stat === undefined) {
    throw new CliError(
      `${file} not found in ${path.dirname(absolute)}: generate it first (vendor-outputs generate ...), or name another file with --file`,
    );
  }
  if (!stat.isFile()) {
    throw new CliError(`${file} is not a file`);
  }
  const realTop = fs.realpathSync(top.stdout.trim());
  const realFile = path.join(fs.realpathSync(path.dirname(absolute)), path.basename(absolute));
  const relative = path.relative(realTop, realFile);
  const gitFolder = realGitFolders(cwd).find((dir) => isInside(realFile, dir));
  if (gitFolder !== undefined || relative.split(path.sep).some((part) => part.toLowerCase() === '.git')) {
    throw new UsageError(`${file} is inside the git folder ${gitFolder ?? path.join(realTop, '.git')}: stage adds a file of the working tree, such as vendor_outputs.json`);
  }
  if (!isInside(realFile, realTop) || relative === '') {
    throw new UsageError(`${file} is outside the git working tree ${realTop}: stage adds a file of that working tree only`);
  }
  return { top: realTop, relative: relative.split(path.sep).join('/'), display: file };
}
