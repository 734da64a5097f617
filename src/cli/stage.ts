/**
 * `vendor-outputs stage -- COMMAND`: for build services that build only the files git tracks.
 * The client configuration file is force-added to the index for the duration of the command and
 * taken out again afterwards, whatever happens, so that it is never committed.
 */
import * as path from 'path';
import { Command, parseOptions, UsageError } from './command';
import { git } from './stage/git';
import { currentProcess } from './stage/process-identity';
import { runCommand } from './stage/run-command';
import { endBySignal, signalStatus, SignalRelay } from './stage/signals';
import { LeaveResult, StageRegistry } from './stage/stage-registry';
import { locate, Target } from './stage/target';

const DEFAULT_FILE = 'vendor_outputs.json';
const EXAMPLE = 'npx vendor-outputs stage -- npx cap sync ios';

function say(line: string): void {
  process.stderr.write(`vendor-outputs stage: ${line}\n`);
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

function describeLeave(target: Target, result: LeaveResult): string {
  switch (result.kind) {
    case 'restored':
      return `${target.display} ${result.tracked ? 'index entry restored' : 'unstaged (still on disk)'}`;
    case 'kept':
      return `${target.display} stays staged for the other stage run(s) still running (pid ${result.others.map((r) => r.pid).join(', ')}); the last one to end unstages it`;
    case 'failed':
      return result.message;
  }
}

/** Parses `[--file FILE] -- COMMAND...`. */
function parseStageArgs(args: string[]): { file: string; commandLine: string[] } {
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
  const file = values.file ?? DEFAULT_FILE;
  if (file === '') {
    throw new UsageError('--file must not be empty');
  }
  return { file, commandLine };
}

export const command: Command = {
  name: 'stage',
  help: [
    'Usage: vendor-outputs stage [--file FILE] -- COMMAND [ARGS...]',
    '',
    'For build services that build only the files tracked by git (for example a mobile build service).',
    'vendor_outputs.json is ignored by git, so such a build would not see it. stage force-adds the file',
    'to the git index (git add -f), runs COMMAND, then removes the file from the index again',
    '(git rm --cached), leaving it on disk. The index is restored whatever happens: the command',
    'succeeds or fails, cannot be started, or stage is stopped by a signal (SIGINT, SIGTERM, SIGHUP,',
    'SIGQUIT, SIGUSR1/2, SIGALRM, SIGPIPE and the other catchable signals that end a process are',
    'forwarded to the command, which is waited for). stage never commits.',
    '',
    'Overlapping stage runs in one repository share the staged file: it stays staged until the last',
    'one ends. A stage run killed outright (SIGKILL) cannot clean up; the next stage run in the',
    'repository notices it and unstages the file first.',
    '',
    'If the file is already tracked (committed by mistake), stage says how to stop tracking it, runs the',
    'command, and leaves the index entry exactly as it found it.',
    '',
    'COMMAND runs without a shell; use `-- sh -c "..."` for pipes or &&.',
    '',
    'Options:',
    '  -f, --file FILE  The file to stage (default: vendor_outputs.json in the current directory); it must',
    '                   be in the working tree, outside the .git folder',
    '',
    'Exit status: the command\'s; 128+N when it ended by signal N (or stage did); 127 when it cannot be',
    'found, 126 when it cannot be started; 1 when stage itself fails (not a git repository, file missing,',
    'index locked or not restored); 2 on usage errors (a --file outside the working tree or in .git).',
    '',
    'Example:',
    `  ${EXAMPLE}`,
  ].join('\n'),
  async run(args) {
    const { file, commandLine } = parseStageArgs(args);
    const target = locate(file, process.cwd());
    const registry = new StageRegistry(target);
    const me = currentProcess();

    // Installed before the file is staged: a signal from here on is handled once it is.
    const relay = new SignalRelay();
    relay.install();
    let before: string | undefined;
    let status: number | undefined;
    let failure: unknown;
    try {
      before = await registry.join(me, say);
      if (before !== '') {
        process.stderr.write(trackedWarning(target));
      } else if (git(['check-ignore', '--no-index', '--quiet', '--', target.relative], target.top, undefined, false).status === 1) {
        say(`note: ${target.display} is not ignored by git; run 'npx vendor-outputs init' so that it cannot be committed by mistake`);
      }
      say(`${target.display} staged for the build; it is unstaged when the command ends`);
      status = relay.received ? signalStatus(relay.received) : await runCommand(commandLine, relay);
    } catch (error) {
      failure = error;
    }

    let restoreFailed = false;
    if (before !== undefined) {
      const left = await registry.leave(me, before);
      restoreFailed = left.kind === 'failed';
      say(describeLeave(target, left));
    }
    relay.uninstall();

    if (failure !== undefined) {
      throw failure;
    }
    if (relay.received !== undefined) {
      return endBySignal(relay.received);
    }
    return restoreFailed && status === 0 ? 1 : status ?? 1;
  },
};
