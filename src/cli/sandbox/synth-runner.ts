/**
 * Runs the CDK app the way the CDK CLI does, without the CLI: the `app` command through the shell,
 * in the project folder, with the environment the CLI gives an app (CDK_OUTDIR, CDK_CONTEXT_JSON,
 * CDK_DEFAULT_REGION and, when known, CDK_DEFAULT_ACCOUNT). Offline there are no credentials to
 * ask for an account, so the account is passed only when the shell already sets one.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The context keys the CDK CLI sets by default (its `pathMetadata`, `assetMetadata` and `--exclusively` bundling). */
const CLI_CONTEXT: Readonly<Record<string, unknown>> = {
  'aws:cdk:enable-path-metadata': true,
  'aws:cdk:enable-asset-metadata': true,
  'aws:cdk:bundling-stacks': ['**'],
};

/**
 * How long a stopped app has after SIGTERM before its whole process group gets SIGKILL: an app (or
 * a tool it started) that ignores SIGTERM cannot keep the sandbox from stopping.
 */
export const STOP_GRACE_MS = 2000;

/** Most bytes of the app's output kept for the error report (the end is what explains a failure). */
const MAX_OUTPUT_CHARS = 64 * 1024;

export interface SynthRequest {
  readonly command: string;
  readonly cwd: string;
  readonly outdir: string;
  readonly context: Readonly<Record<string, unknown>>;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Stops the app when aborted (the sandbox is stopping): SIGTERM to its process group, SIGKILL
   * to the group STOP_GRACE_MS later if anything in it is still running.
   */
  readonly signal?: AbortSignal;
  /** @default STOP_GRACE_MS */
  readonly stopGraceMs?: number;
}

export interface SynthResult {
  readonly ok: boolean;
  /** Exit code, or the signal that ended the app. */
  readonly exit: string;
  /** The app's stdout and stderr, interleaved as they came (the end when long). */
  readonly output: string;
  readonly ms: number;
}

/** The environment of the app process. */
export function synthEnvironment(request: Omit<SynthRequest, 'command' | 'cwd'>): NodeJS.ProcessEnv {
  const { env } = request;
  const region = env.CDK_DEFAULT_REGION || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
  return {
    ...env,
    CDK_OUTDIR: request.outdir,
    CDK_CONTEXT_JSON: JSON.stringify({ ...CLI_CONTEXT, ...request.context }),
    CDK_DEFAULT_REGION: region,
  };
}

/** Runs one synthesis into `outdir` (created when missing; like the CDK CLI, nothing in it is removed first). */
export function runSynth(request: SynthRequest): Promise<SynthResult> {
  fs.mkdirSync(request.outdir, { recursive: true });
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 2 * MAX_OUTPUT_CHARS) {
        output = output.slice(-MAX_OUTPUT_CHARS);
      }
    };
    // Its own process group, so that stopping it stops what the shell started too.
    const child = spawn(request.command, { shell: true, cwd: request.cwd, env: synthEnvironment(request), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        signalGroup(child.pid, 'SIGKILL');
        // A process that left the group could still hold the pipes open: stop waiting for them.
        child.stdout.destroy();
        child.stderr.destroy();
      }, request.stopGraceMs ?? STOP_GRACE_MS);
    };
    if (request.signal?.aborted) {
      stop();
    }
    request.signal?.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const done = (ok: boolean, exit: string) => resolve({
      ok,
      exit,
      output: output.slice(-MAX_OUTPUT_CHARS),
      ms: Number(process.hrtime.bigint() - started) / 1e6,
    });
    let settled = false;
    const settle = (ok: boolean, exit: string) => {
      if (!settled) {
        settled = true;
        done(ok, exit);
      }
    };
    child.on('error', (error) => settle(false, error.message));
    child.on('close', (code, signal) => {
      request.signal?.removeEventListener('abort', stop);
      if (killTimer !== undefined) {
        // Stopped: whatever the app started and left behind in its group goes with it.
        clearTimeout(killTimer);
        signalGroup(child.pid, 'SIGKILL');
      }
      if (code !== 0) {
        settle(false, signal !== null ? `signal ${signal}` : `exit code ${code}`);
      } else if (!fs.existsSync(path.join(request.outdir, 'manifest.json'))) {
        settle(false, `exit code 0 but no manifest.json in ${request.outdir} (does the app call app.synth(), and does it use CDK_OUTDIR?)`);
      } else {
        settle(true, 'exit code 0');
      }
    });
  });
}

/** Sends `signal` to the process group led by `pid` (the app's shell); nothing when it is gone. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) {
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is empty: everything in it has ended.
  }
}
