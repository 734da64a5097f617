/**
 * Makes git ignore a file everywhere under a folder, through `.gitignore` files only (they travel
 * with the repository; `info/exclude` and `core.excludesFile` stay on one machine). A line is
 * appended where it wins: after the negation that un-ignores the file when that negation is in a
 * `.gitignore` at or below the folder, else at the end of the folder's own `.gitignore` (a deeper
 * file, and a later line, take precedence in git). git is asked again after each change, so the
 * result is what git says, not what the patterns seem to say.
 */
import * as path from 'path';
import { CliError } from '../command';
import type { IgnoreMatch, IgnoreVerdict } from './git-ignore';

/** One line added: the file, whether it was created, and the verdict that made it necessary. */
export interface AddedLine {
  readonly file: string;
  readonly created: boolean;
  readonly verdict: IgnoreVerdict;
}

export interface MakeIgnoredResult {
  /** The lines added, in order (empty when git already ignored every path). */
  readonly added: readonly AddedLine[];
  /** What decides for the first path (the file in the folder) at the end. */
  readonly decidedBy?: IgnoreMatch;
}

export interface MakeIgnoredInput {
  /** The folder whose `.gitignore` gets the line. */
  readonly dir: string;
  /** The work tree's top folder: `.gitignore` files outside it are not the repository's. */
  readonly top: string;
  /** The paths to make ignored, relative to `dir`; the first is the file in `dir`. */
  readonly paths: readonly string[];
  /** git's verdicts for `paths`. */
  ask(paths: readonly string[]): IgnoreVerdict[];
  /** Appends the ignore line to `file`; whether it created the file. */
  append(file: string): boolean;
}

export function makeIgnored(input: MakeIgnoredInput): MakeIgnoredResult {
  const added: AddedLine[] = [];
  const changed = new Set<string>();
  for (;;) {
    const verdicts = input.ask(input.paths);
    const open = verdicts.find((verdict) => !ignoredBySharedFile(verdict, input.top));
    if (open === undefined) {
      return { added, decidedBy: verdicts[0]?.match };
    }
    const file = fileToChange(open, input.dir, input.top);
    if (changed.has(file)) {
      // A line already added there did not win: say what still decides instead of looping.
      throw new CliError(`git still does not ignore ${open.path} after adding a line to ${file}`
        + `${open.match ? ` (${open.match.source}:${open.match.line}: ${open.match.pattern} decides)` : ''}; add an ignore rule for it by hand`);
    }
    changed.add(file);
    added.push({ file, created: input.append(file), verdict: open });
  }
}

/** Ignored through a `.gitignore` of the work tree, so for everyone who clones it. */
function ignoredBySharedFile(verdict: IgnoreVerdict, top: string): boolean {
  return verdict.ignored && verdict.match !== undefined && isWorkTreeGitignore(verdict.match.source, top);
}

/** The `.gitignore` whose added line wins for the path. */
function fileToChange(verdict: IgnoreVerdict, dir: string, top: string): string {
  const source = verdict.match?.source;
  if (source !== undefined && isWorkTreeGitignore(source, top) && isWithin(path.dirname(source), dir)) {
    return source;
  }
  return path.join(dir, '.gitignore');
}

function isWorkTreeGitignore(source: string, top: string): boolean {
  return path.basename(source) === '.gitignore' && isWithin(source, top);
}

function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
