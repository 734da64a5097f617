/**
 * Whether git ignores a path, as git itself answers (`git check-ignore -v --no-index`): every
 * `.gitignore` from the repository's top down to the path's folder, `$GIT_DIR/info/exclude` and
 * `core.excludesFile`, with git's own precedence, wildcards and negations. Reading the files here
 * instead gets `!*.json` after `vendor_outputs.json` wrong, so nothing here parses a pattern.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliError } from '../command';

/** The pattern that decides for a path: its file (absolute), 1-based line and text as git prints it. */
export interface IgnoreMatch {
  readonly source: string;
  readonly line: number;
  readonly pattern: string;
}

/** What git says of one path. */
export interface IgnoreVerdict {
  /** The path asked about, relative to the folder asked from. */
  readonly path: string;
  /** Whether git ignores it (a `!` pattern that decides un-ignores it). */
  readonly ignored: boolean;
  /** The pattern that decides; undefined when none matches. */
  readonly match?: IgnoreMatch;
}

/** The repository git answers for. */
export interface IgnoreRepository {
  /**
   * `repository`: the one holding the folder. `scratch`: none holds it, so git answers for an empty
   * bare repository whose work tree is the folder (what `git init` there would give).
   */
  readonly kind: 'repository' | 'scratch';
  /** The work tree's top folder. */
  readonly top: string;
  /** Arguments before a git command that select the repository. */
  readonly selection: readonly string[];
  /** Removes the scratch repository (nothing for a real one). */
  close(): void;
}

/** The repository that answers for paths under `dir`; undefined when git cannot be run. */
export function openIgnoreRepository(dir: string): IgnoreRepository | undefined {
  const top = run(['rev-parse', '--show-toplevel'], dir);
  if (top === undefined) {
    return undefined;
  }
  if (top.status === 0) {
    return { kind: 'repository', top: top.stdout.trim(), selection: [], close: () => undefined };
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-outputs-init-'));
  const created = run(['init', '-q', '--bare', scratch], dir);
  if (created === undefined || created.status !== 0) {
    fs.rmSync(scratch, { recursive: true, force: true });
    return undefined;
  }
  return {
    kind: 'scratch',
    top: dir,
    selection: ['--git-dir', scratch, '--work-tree', dir],
    close: () => fs.rmSync(scratch, { recursive: true, force: true }),
  };
}

/**
 * The paths under `dir` worth asking about for `fileName`: the file in `dir`, in every folder whose
 * own `.gitignore` could decide for it, and every copy git does not already ignore (relative to
 * `dir`, `/`-separated). Folders git ignores are left out, as git leaves them out.
 */
export function pathsToAsk(repository: IgnoreRepository, dir: string, fileName: string): string[] {
  const listed = run([...repository.selection, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--',
    ':(glob)**/.gitignore', `:(glob)**/${fileName}`], dir);
  const paths = new Set([fileName]);
  for (const file of listed?.status === 0 ? listed.stdout.split('\0') : []) {
    if (file !== '') {
      const folder = path.posix.dirname(file);
      paths.add(folder === '.' ? fileName : `${folder}/${fileName}`);
    }
  }
  return [...paths];
}

/** `git check-ignore -v -n -z --no-index --stdin` from `dir`: one verdict per path, in order. */
export function checkIgnore(repository: IgnoreRepository, dir: string, paths: readonly string[]): IgnoreVerdict[] {
  const result = run([...repository.selection, 'check-ignore', '-v', '-n', '-z', '--no-index', '--stdin'], dir, paths.map((p) => `${p}\0`).join(''));
  // Exit status 1 only says that no pattern matched; anything else is a failure.
  if (result === undefined || (result.status !== 0 && result.status !== 1)) {
    throw new CliError(`git check-ignore failed in ${dir}: ${result?.stderr.trim() || 'git cannot be run'}`);
  }
  const fields = result.stdout.split('\0');
  const verdicts: IgnoreVerdict[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, line, pattern, asked] = fields.slice(i, i + 4);
    verdicts.push(source === ''
      ? { path: asked, ignored: false }
      : { path: asked, ignored: !pattern.startsWith('!'), match: { source: sourcePath(source, repository.top), line: Number(line), pattern } });
  }
  return verdicts;
}

/** git names a repository's own files relative to its top, `core.excludesFile` as configured. */
function sourcePath(source: string, top: string): string {
  if (source.startsWith('~/')) {
    return path.join(os.homedir(), source.slice(2));
  }
  return path.resolve(top, source);
}

interface RunResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git; undefined when git cannot be started. Paths are patterns here (no GIT_LITERAL_PATHSPECS). */
function run(args: readonly string[], cwd: string, input?: string): RunResult | undefined {
  const env = { ...process.env };
  delete env.GIT_LITERAL_PATHSPECS;
  const result = spawnSync('git', args, { cwd, input, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) {
    return undefined;
  }
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}
