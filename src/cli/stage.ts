/**
 * `vendor-outputs stage -- COMMAND`: for build services that build only the files git tracks.
 * The client configuration file is force-added to the index for the duration of the command and
 * taken out again afterwards, whatever happens, so that it is never committed.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliError, Command, parseOptions, UsageError } from './command';
import { OUTPUTS_FILE_NAME } from '../outputs/file-names';

const DEFAULT_FILE = OUTPUTS_FILE_NAME;
/** Signals that stop the command: forwarded to it, then stage cleans up and ends the same way. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const EXAMPLE = 'npx vendor-outputs stage -- npx cap sync ios';

/** Where the file lives for git. */
interface Target {
  /** Top folder of the working tree (git commands run there). */
  readonly top: string;
  /** Path relative to `top`, with forward slashes. */
  readonly relative: string;
  /** The path as the user gave it, for messages. */
  readonly display: string;
}

interface GitResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

function git(args: string[], cwd: string, input?: string, literalPathspecs = true): GitResult {
  const result = spawnSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    // Paths are file names, never patterns (check-ignore takes plain paths and refuses the setting).
    env: literalPathspecs ? { ...process.env, GIT_LITERAL_PATHSPECS: '1' } : process.env,
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? 'git is not installed or not on PATH' : `cannot run git: ${result.error.message}`);
  }
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr.trim() };
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs a git command that writes the index, retrying while another git process holds its lock. */
function gitWrite(args: string[], cwd: string, input?: string): GitResult {
  let result = git(args, cwd, input);
  for (let attempt = 0; attempt < 20 && result.status !== 0 && /index\.lock/.test(result.stderr); attempt++) {
    sleep(250);
    result = git(args, cwd, input);
  }
  return result;
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
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new CliError(`${file} is outside the git working tree ${realTop}`);
  }
  return { top: realTop, relative: relative.split(path.sep).join('/'), display: file };
}

/** The file's index entries (`git ls-files -s -z` records), empty when git does not track it. */
function indexEntries(target: Target): string {
  const result = git(['ls-files', '--stage', '-z', '--', target.relative], target.top);
  if (result.status !== 0) {
    throw new CliError(`cannot read the git index: ${result.stderr}`);
  }
  return result.stdout;
}

function trackedWarning(target: Target): string {
  return [
    `vendor-outputs stage: warning: ${target.display} is tracked by git: it was committed by mistake.`,
    'It holds the values of one deployment and must stay out of the repository. Stop tracking it with:',
    `  git rm --cached ${target.relative}`,
    '  npx vendor-outputs init        # adds vendor_outputs.json to .gitignore',
    `  git commit -m "Stop tracking ${path.posix.basename(target.relative)}"`,
    'stage now runs the command and leaves the index entry exactly as it found it.',
    '',
  ].join('\n');
}

/** Forwards stop signals to the running command and remembers the first one. */
class SignalRelay {
  public received: NodeJS.Signals | undefined;
  private child: ChildProcess | undefined;
  private readonly handlers = new Map<NodeJS.Signals, () => void>();

  public install(): void {
    for (const signal of FORWARDED_SIGNALS) {
      const handler = () => {
        this.received ??= signal;
        if (this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
          this.child.kill(signal);
        }
      };
      this.handlers.set(signal, handler);
      process.on(signal, handler);
    }
  }

  public attach(child: ChildProcess | undefined): void {
    this.child = child;
  }

  public uninstall(): void {
    for (const [signal, handler] of this.handlers) {
      process.removeListener(signal, handler);
    }
    this.handlers.clear();
  }
}

function signalStatus(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

/** Runs the command with the terminal's stdio; resolves to its exit status as a shell reports it. */
function runCommand(commandLine: string[], relay: SignalRelay): Promise<number> {
  const [program, ...args] = commandLine;
  return new Promise((resolve, reject) => {
    let settled = false;
    const child = spawn(program, args, { stdio: 'inherit' });
    relay.attach(child);
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) {
        return;
      }
      settled = true;
      relay.attach(undefined);
      const notFound = error.code === 'ENOENT';
      reject(new CliError(
        `cannot start '${program}': ${notFound ? 'command not found' : error.code ?? error.message}`,
        notFound ? 127 : 126,
      ));
    });
    child.on('exit', (code, signal) => {
      if (settled) {
        return;
      }
      settled = true;
      relay.attach(undefined);
      resolve(code ?? (signal ? signalStatus(signal) : 1));
    });
  });
}

/**
 * Puts the index back as it was: removes the file from it when it was untracked, or restores the
 * exact previous entry when it was tracked. Returns an error message, or undefined on success.
 */
function restoreIndex(target: Target, before: string): string | undefined {
  const result = before === ''
    ? gitWrite(['rm', '--cached', '--quiet', '--force', '--ignore-unmatch', '--', target.relative], target.top)
    : gitWrite(['update-index', '-z', '--index-info'], target.top, before);
  if (result.status === 0) {
    return undefined;
  }
  return [
    `could not take ${target.display} out of the git index again: ${result.stderr}`,
    `Do not commit now. Run in ${target.top}:`,
    before === '' ? `  git rm --cached ${target.relative}` : `  git reset -q -- ${target.relative}`,
  ].join('\n');
}

export const command: Command = {
  name: 'stage',
  summary: 'Force-add vendor_outputs.json, run a build command, then unstage it',
  help: [
    'Usage: vendor-outputs stage [--file FILE] -- COMMAND [ARGS...]',
    '',
    'For build services that build only the files tracked by git (for example a mobile build service).',
    'vendor_outputs.json is ignored by git, so such a build would not see it. stage force-adds the file',
    'to the git index (git add -f), runs COMMAND, then removes the file from the index again',
    '(git rm --cached), leaving it on disk. The index is restored whatever happens: the command',
    'succeeds or fails, cannot be started, or stage is interrupted (SIGINT, SIGTERM and SIGHUP are',
    'forwarded to the command, which is waited for). stage never commits.',
    '',
    'If the file is already tracked (committed by mistake), stage says how to stop tracking it, runs the',
    'command, and leaves the index entry exactly as it found it.',
    '',
    'COMMAND runs without a shell; use `-- sh -c "..."` for pipes or &&.',
    '',
    'Options:',
    '  -f, --file FILE  The file to stage (default: vendor_outputs.json in the current directory)',
    '',
    'Exit status: the command\'s; 128+N when it ended by signal N; 127 when it cannot be found, 126 when',
    'it cannot be started; 1 when stage itself fails (not a git repository, file missing, index not',
    'restored); 2 on usage errors.',
    '',
    'Example:',
    `  ${EXAMPLE}`,
  ].join('\n'),
  async run(args) {
    const dashDash = args.indexOf('--');
    const { values, positionals } = parseOptions(dashDash < 0 ? args : args.slice(0, dashDash), {
      file: { type: 'string', short: 'f' },
    }, true);
    if (positionals.length > 0 || dashDash < 0) {
      throw new UsageError(`put the build command after '--', for example: ${EXAMPLE}`);
    }
    const commandLine = args.slice(dashDash + 1);
    if (commandLine.length === 0 || commandLine[0] === '') {
      throw new UsageError(`no command after '--'; for example: ${EXAMPLE}`);
    }
    const file = (values.file as string | undefined) ?? DEFAULT_FILE;
    if (file === '') {
      throw new UsageError('--file must not be empty');
    }

    const target = locate(file, process.cwd());
    const before = indexEntries(target);
    if (before !== '') {
      process.stderr.write(trackedWarning(target));
    } else if (git(['check-ignore', '--quiet', '--', target.relative], target.top, undefined, false).status === 1) {
      process.stderr.write(
        `vendor-outputs stage: note: ${target.display} is not ignored by git; run 'npx vendor-outputs init' so that it cannot be committed by mistake\n`,
      );
    }

    const relay = new SignalRelay();
    relay.install();
    let status: number | undefined;
    let failure: unknown;
    try {
      const added = gitWrite(['add', '--force', '--', target.relative], target.top);
      if (added.status !== 0) {
        throw new CliError(`could not force-add ${target.display} to the git index: ${added.stderr}`);
      }
      process.stderr.write(`vendor-outputs stage: ${target.display} staged for the build; it is unstaged when the command ends\n`);
      status = relay.received ? signalStatus(relay.received) : await runCommand(commandLine, relay);
    } catch (error) {
      failure = error;
    }

    const restoreError = restoreIndex(target, before);
    relay.uninstall();
    if (restoreError !== undefined) {
      process.stderr.write(`vendor-outputs stage: ${restoreError}\n`);
    } else {
      process.stderr.write(`vendor-outputs stage: ${target.display} ${before === '' ? 'unstaged (still on disk)' : 'index entry restored'}\n`);
    }

    if (failure !== undefined) {
      throw failure;
    }
    if (relay.received !== undefined) {
      // End the way the command was asked to end, so a parent shell sees the interruption.
      process.kill(process.pid, relay.received);
      return signalStatus(relay.received);
    }
    return restoreError !== undefined && status === 0 ? 1 : status ?? 1;
  },
};
