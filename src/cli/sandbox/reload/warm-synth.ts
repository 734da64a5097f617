/**
 * The sandbox's side of the warm synth: starts warm-synth-worker.ts in the project folder (its own
 * process group, as a cold synth's app), sends it one synth request at a time and turns its answer
 * into the SynthResult a cold synth gives. When the worker cannot be used (its runner does not
 * load, it exits during a run) `run` answers undefined, and the caller synthesizes cold from then on.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { AssetCopy, BuildRecord } from './build-record';
import { SynthRequestMessage, WARM_APP_VARIABLE, WarmAppEntry, WorkerMessage } from './warm-synth-protocol';
import { entryFileIn } from '../../local/common/entry-file';
import { signalGroup, STOP_GRACE_MS, SynthRequest, SynthResult, synthEnvironment } from '../synth-runner';

/** Most characters of the worker's output kept per run for a failure report. */
const MAX_OUTPUT_CHARS = 64 * 1024;

export interface WarmSynthResult extends SynthResult {
  readonly builds: readonly BuildRecord[];
  readonly copies: readonly AssetCopy[];
  /** The app's own modules (absolute paths): a change to one needs a synth. */
  readonly appModules: readonly string[];
  /** The worker's resident set size after the run, bytes. */
  readonly rss: number;
}

type Pending = (message: WorkerMessage | undefined) => void;

export class WarmSynth {
  /** Starts the worker for `app` (it loads the runner and aws-cdk-lib while the caller goes on). */
  static start(app: WarmAppEntry, root: string, env: NodeJS.ProcessEnv): WarmSynth {
    const child = spawn(process.execPath, ['--expose-gc', entryFileIn(__dirname, 'warm-synth-worker')], {
      cwd: root,
      env: { ...env, [WARM_APP_VARIABLE]: JSON.stringify(app) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
    });
    return new WarmSynth(child);
  }

  /** Why the worker cannot be used, once known. */
  public unusable: string | undefined;
  private readonly ready: Promise<boolean>;
  private pending: Pending | undefined;
  private output = '';
  private runs = 0;

  private constructor(private readonly child: ChildProcess) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-2 * MAX_OUTPUT_CHARS);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('message', (message: WorkerMessage) => this.pending?.(message));
    child.on('exit', (code, signal) => {
      this.unusable ??= `the warm synth process ended (${signal !== null ? `signal ${signal}` : `exit code ${code}`})${this.output.trim() === '' ? '' : `:\n${this.output.trim().slice(-MAX_OUTPUT_CHARS)}`}`;
      this.pending?.(undefined);
    });
    child.on('error', (error) => {
      this.unusable ??= `the warm synth process did not start (${error.message})`;
      this.pending?.(undefined);
    });
    this.ready = this.next().then((message) => {
      if (message?.type === 'ready') {
        return true;
      }
      this.unusable ??= message?.type === 'unusable' ? message.reason : 'the warm synth process did not start';
      this.close();
      return false;
    });
  }

  /** The process id of the worker (for the bench's memory report). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** One synth into `request.outdir`; undefined when the warm process is (or became) unusable. */
  async run(request: SynthRequest): Promise<WarmSynthResult | undefined> {
    if (!(await this.ready) || this.unusable !== undefined) {
      return undefined;
    }
    fs.mkdirSync(request.outdir, { recursive: true });
    const started = process.hrtime.bigint();
    const id = ++this.runs;
    this.output = '';
    const answer = this.next();
    const stop = () => this.stop(request.stopGraceMs ?? STOP_GRACE_MS);
    request.signal?.addEventListener('abort', stop, { once: true });
    this.child.send({ type: 'synth', id, env: runEnvironment(request) } satisfies SynthRequestMessage);
    const message = await answer.finally(() => request.signal?.removeEventListener('abort', stop));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const output = this.output.slice(-MAX_OUTPUT_CHARS);
    if (request.signal?.aborted) {
      return { ok: false, exit: 'signal SIGTERM', output, ms, builds: [], copies: [], appModules: [], rss: 0 };
    }
    if (message?.type !== 'done' || message.id !== id) {
      return undefined;
    }
    const base = { output, ms, builds: message.builds, copies: message.copies, appModules: message.appModules, rss: message.rss };
    if (message.error !== undefined) {
      // What `node app.js` ends with when the app throws.
      return { ...base, ok: false, exit: 'exit code 1' };
    }
    if (!fs.existsSync(path.join(request.outdir, 'manifest.json'))) {
      return { ...base, ok: false, exit: `exit code 0 but no manifest.json in ${request.outdir} (does the app call app.synth(), and does it use CDK_OUTDIR?)` };
    }
    return { ...base, ok: true, exit: 'exit code 0' };
  }

  /** Ends the worker and whatever it started (its process group). */
  close(): void {
    this.unusable ??= 'closed';
    signalGroup(this.child.pid, 'SIGKILL');
  }

  private next(): Promise<WorkerMessage | undefined> {
    return new Promise((resolve) => {
      this.pending = (message) => {
        this.pending = undefined;
        resolve(message);
      };
    });
  }

  /** SIGTERM to the worker's group, SIGKILL after the grace period (an app may ignore SIGTERM). */
  private stop(graceMs: number): void {
    this.unusable ??= 'stopped';
    signalGroup(this.child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(this.child.pid, 'SIGKILL'), graceMs);
    this.child.once('exit', () => {
      clearTimeout(timer);
      signalGroup(this.child.pid, 'SIGKILL');
    });
  }
}

/** The variables a cold synth's app gets that differ from the sandbox's own environment. */
function runEnvironment(request: SynthRequest): Record<string, string> {
  const full = synthEnvironment(request);
  const changed: Record<string, string> = {};
  for (const [name, value] of Object.entries(full)) {
    if (value !== undefined && request.env[name] !== value) {
      changed[name] = value;
    }
  }
  return changed;
}

