/**
 * A `.gitignore` read without git, only when git cannot be run: the last line that names the file
 * (`vendor_outputs.json`, `/vendor_outputs.json` or `**\/vendor_outputs.json`) counts, and only when
 * no `!` line follows it, since any negation (`!*.json`, `!vendor_*`) might un-ignore the file and
 * telling which ones do takes git's matcher. An extra line is harmless; a missing one leaks the file.
 */
import { OUTPUTS_FILE_NAME } from '../../outputs/cdk-free/file-names';

/** Lines that ignore the file in every folder, as init's own line does. */
const EQUIVALENT = new Set([OUTPUTS_FILE_NAME, `/${OUTPUTS_FILE_NAME}`, `**/${OUTPUTS_FILE_NAME}`]);

/** What the `.gitignore` says about the file. */
export interface IgnoreState {
  /** 1-based line of the last line that names the file, or undefined when none does. */
  readonly line?: number;
  /** That line's text. */
  readonly text?: string;
  /** Whether the file counts as ignored: that line ignores it and no `!` line follows. */
  readonly ignored: boolean;
}

export function ignoreState(content: string): IgnoreState {
  let state: IgnoreState = { ignored: false };
  content.split('\n').forEach((raw, index) => {
    // Git drops the line ending and unescaped trailing spaces; '#' starts a comment.
    const line = raw.replace(/\r$/, '').replace(/(?<!\\)[ \t]+$/, '');
    if (line.startsWith('#')) {
      return;
    }
    const negated = line.startsWith('!');
    if (EQUIVALENT.has(negated ? line.slice(1) : line)) {
      state = { line: index + 1, text: line, ignored: !negated };
    } else if (negated && state.ignored) {
      state = { line: index + 1, text: line, ignored: false };
    }
  });
  return state;
}
