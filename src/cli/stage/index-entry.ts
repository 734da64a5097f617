/**
 * The file's entry in the git index: read, and put back as it was.
 */
import { CliError } from '../command';
import { git, GitResult, gitWrite } from './git';
import { Target } from './target';

/** The file's index entries (`git ls-files -s -z` records), empty when git does not track it. */
export function indexEntries(target: Target): string {
  const result = git(['ls-files', '--stage', '-z', '--', target.relative], target.top);
  if (result.status !== 0) {
    throw new CliError(`cannot read the git index: ${result.stderr}`);
  }
  return result.stdout;
}

/** Force-adds the file (it is ignored) to the index. */
export function addToIndex(target: Target): GitResult {
  return gitWrite(['add', '--force', '--', target.relative], target.top);
}

/**
 * Puts the entry back as `before` holds it: removes the file from the index when it was
 * untracked, or writes the exact previous entry back when it was tracked.
 */
export function restoreIndex(target: Target, before: string): GitResult {
  return before === ''
    ? gitWrite(['rm', '--cached', '--quiet', '--force', '--ignore-unmatch', '--', target.relative], target.top)
    : gitWrite(['update-index', '-z', '--index-info'], target.top, before);
}
