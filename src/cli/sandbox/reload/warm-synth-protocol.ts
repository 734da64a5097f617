/** The messages between the sandbox and its warm synth process (warm-synth-worker.ts), over IPC. */
import type { AssetCopy, BuildRecord } from './build-record';

/** Environment variable that gives the worker its WarmAppEntry (JSON). */
export const WARM_APP_VARIABLE = 'VENDOR_OUTPUTS_WARM_APP';

/** How the worker loads the app: its entry file and the app's own TypeScript runner, if any. */
export interface WarmAppEntry {
  readonly runner: 'node' | 'tsx' | 'ts-node';
  /** Absolute path of the app's entry file. */
  readonly entry: string;
}

/** Sandbox → worker: run the app once with this environment (CDK_OUTDIR, CDK_CONTEXT_JSON...). */
export interface SynthRequestMessage {
  readonly type: 'synth';
  readonly id: number;
  readonly env: Readonly<Record<string, string>>;
}

/** Worker → sandbox. */
export type WorkerMessage =
  /** The runner and aws-cdk-lib are loaded. */
  | { readonly type: 'ready' }
  /** The runner could not be loaded: the sandbox synthesizes cold. */
  | { readonly type: 'unusable'; readonly reason: string }
  | {
    readonly type: 'done';
    readonly id: number;
    /** Undefined when the app ran and its apps synthesized; else the error (its stack). */
    readonly error?: string;
    readonly builds: readonly BuildRecord[];
    readonly copies: readonly AssetCopy[];
    /** The app's own modules this run loaded (absolute paths outside node_modules). */
    readonly appModules: readonly string[];
    /** The worker's resident set size after the run, in bytes. */
    readonly rss: number;
  };
