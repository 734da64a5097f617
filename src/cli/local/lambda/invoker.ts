/**
 * Runs the functions of a local app the way Lambda does: one pool of execution environments per
 * function (function-pool.ts), on the runtime family its `Runtime` names (runtime-families.ts),
 * so a function that crashes, runs out of time or memory never stops the server. A reload swaps
 * the pools of changed functions while the old ones finish what they accepted.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codeFingerprint } from './code-fingerprint';
import { AccountConcurrency } from './concurrency';
import { functionChanged } from './function-change';
import { FunctionPool, PoolOptions, reservedOf } from './function-pool';
import type { InvokeOutcome } from './invoke-outcome';
import { accountConcurrency } from './limits';
import type { ResponseSink } from './response-sink';
import { runtimeFamilyFor } from './runtime-families';
import type { InvokeContext } from './runtime-family';
import type { FunctionSpec } from '../model/function-spec';

export interface InvokerOptions extends PoolOptions {
  /**
   * The account's concurrency: how many execution environments the functions without
   * `ReservedConcurrentExecutions` may have together; past it an invocation is throttled.
   * @default - `VENDOR_OUTPUTS_MAX_CONCURRENCY`, else 1000 (Lambda's default quota)
   */
  readonly maxConcurrency?: number;
}

/** What a reload changed in the functions (keys). */
export interface FunctionChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Kept, but their code or settings changed: their environments were replaced. */
  readonly reloaded: readonly string[];
}

/** Runs the functions of a local app. */
export class Invoker {
  private readonly pools = new Map<string, FunctionPool>();
  /** Pools a reload replaced or removed, finishing what they had accepted. */
  private readonly retiring = new Set<FunctionPool>();
  private readonly account: AccountConcurrency;
  /** Code digests, taken when a reload first compares a function (see code-fingerprint.ts). */
  private readonly fingerprints = new WeakMap<FunctionSpec, string | undefined>();
  /** Functions a reload removed, for the answer to an invocation already on its way to one. */
  private readonly removed = new Map<string, FunctionSpec>();
  private scratchDir: string | undefined;

  constructor(private functions: ReadonlyMap<string, FunctionSpec>, private readonly options: InvokerOptions) {
    this.account = new AccountConcurrency(this.unreservedLimit(functions));
  }

  /** Starts one environment per function now, so the first request finds it warm. */
  warmAll(): void {
    for (const key of this.functions.keys()) {
      this.pool(key).warm();
    }
  }

  /**
   * Takes the functions of a new synth. A function whose code (by content) or settings changed
   * gets new environments on its next invocation, and so does a new one; the old ones finish
   * the invocations they had and stop, as do a removed function's. Unchanged functions keep
   * their warm environments.
   */
  reload(functions: ReadonlyMap<string, FunctionSpec>): FunctionChanges {
    const added: string[] = [];
    const reloaded: string[] = [];
    const removed: string[] = [];
    for (const [key, fn] of functions) {
      const previous = this.functions.get(key);
      if (previous === undefined) {
        added.push(key);
        // Digested as it starts, so that the next reload knows what it ran.
        this.fingerprint(fn);
      } else if (functionChanged(previous, fn, () => this.fingerprintOfRunning(previous, fn), () => this.fingerprint(fn))) {
        reloaded.push(key);
        this.fingerprint(fn);
        this.retire(key);
      } else {
        // Runs on in its warm pool: what it runs is what `previous` ran.
        this.fingerprints.set(fn, this.fingerprintOfRunning(previous, fn));
      }
      this.removed.delete(key);
    }
    for (const [key, fn] of this.functions) {
      if (!functions.has(key)) {
        removed.push(key);
        this.removed.set(key, fn);
        this.retire(key);
      }
    }
    this.functions = functions;
    this.account.resize(this.unreservedLimit(functions));
    return { added, removed, reloaded };
  }

  /** Invokes a function with a finished event (a plain JSON value: the caller builds it). */
  invoke(functionKey: string, event: unknown, context: InvokeContext): Promise<InvokeOutcome> {
    return this.invokeWith(functionKey, event, context, undefined);
  }

  /**
   * Invokes a function for a caller that takes a response stream (Lambda's
   * InvokeWithResponseStream): a streaming handler's bytes go to `sink` as written, and the
   * outcome resolves when the stream ends; a handler that does not stream answers with its
   * payload as `invoke` does.
   */
  invokeStreaming(functionKey: string, event: unknown, context: InvokeContext, sink: ResponseSink): Promise<InvokeOutcome> {
    return this.invokeWith(functionKey, event, context, sink);
  }

  private invokeWith(functionKey: string, event: unknown, context: InvokeContext, sink: ResponseSink | undefined): Promise<InvokeOutcome> {
    if (!this.functions.has(functionKey)) {
      // A request routed before a reload removed its function (or before one took effect): Lambda's
      // answer for a function that does not exist.
      const gone = this.removed.get(functionKey);
      const arn = gone === undefined ? functionKey : `arn:aws:lambda:${gone.region}:123456789012:function:${gone.functionName}`;
      return Promise.resolve({ kind: 'rejected', statusCode: 404, errorType: 'ResourceNotFoundException', errorMessage: `Function not found: ${arn}` });
    }
    return this.pool(functionKey).invoke(event, context, sink);
  }

  /**
   * The code folders the functions run from now, draining ones included. An unchanged function
   * keeps the folder it started from (a later synth's copy of the same code is not used), so a
   * caller that deletes old cloud assemblies must keep the ones holding these folders.
   */
  codeDirectories(): string[] {
    const folders = new Set<string>();
    for (const pool of [...this.pools.values(), ...this.retiring]) {
      if (pool.fn.code.kind === 'directory') {
        folders.add(pool.directory);
      }
    }
    return [...folders];
  }

  /** Execution environments a function has now (starting, idle or busy). */
  environmentCount(functionKey: string): number {
    return this.pools.get(functionKey)?.size ?? 0;
  }

  /** Stops every environment (and what runs them), and removes the scratch directory. */
  async close(): Promise<void> {
    await Promise.all([...this.pools.values(), ...this.retiring].map((p) => p.close()));
    this.pools.clear();
    this.retiring.clear();
    if (this.scratchDir !== undefined) {
      fs.rmSync(this.scratchDir, { recursive: true, force: true });
      this.scratchDir = undefined;
    }
  }

  /** The account's concurrency left to the functions without reserved concurrency. */
  private unreservedLimit(functions: ReadonlyMap<string, FunctionSpec>): number {
    let reserved = 0;
    for (const fn of functions.values()) {
      reserved += reservedOf(fn) ?? 0;
    }
    return Math.max(1, (this.options.maxConcurrency ?? accountConcurrency()) - reserved);
  }

  /**
   * The digest of the code `fn` runs: taken at the last reload; else (the first) from its folder
   * now, unless that folder is also the new synth's and may have been edited in place (asset
   * staging off: a source folder). A staged asset (`asset.<hash>`) is named by its content, so its
   * folder tells what ran. Undefined: unknown, the function is reloaded once.
   */
  private fingerprintOfRunning(fn: FunctionSpec, next: FunctionSpec): string | undefined {
    if (this.fingerprints.has(fn)) {
      return this.fingerprints.get(fn);
    }
    const sameFolder = fn.code.kind === 'directory' && next.code.kind === 'directory' && fn.code.directory === next.code.directory;
    if (sameFolder && !path.basename(fn.code.directory).startsWith('asset.')) {
      return undefined;
    }
    return this.fingerprint(fn);
  }

  private fingerprint(fn: FunctionSpec): string | undefined {
    if (!this.fingerprints.has(fn)) {
      this.fingerprints.set(fn, codeFingerprint(fn.code));
    }
    return this.fingerprints.get(fn);
  }

  /** Takes a function's pool out of service: it drains in the background, then stops. */
  private retire(key: string): void {
    const pool = this.pools.get(key);
    if (pool === undefined) {
      return;
    }
    this.pools.delete(key);
    this.retiring.add(pool);
    void pool.drain().then(() => this.retiring.delete(pool));
  }

  private pool(key: string): FunctionPool {
    let pool = this.pools.get(key);
    if (pool === undefined) {
      const fn = this.functions.get(key);
      if (fn === undefined) {
        throw new Error(`no function ${key}`);
      }
      pool = new FunctionPool(fn, this.options, () => this.scratch(), this.account, runtimeFamilyFor(fn.runtime));
      this.pools.set(key, pool);
    }
    return pool;
  }

  private scratch(): string {
    this.scratchDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-outputs-serve-'));
    return this.scratchDir;
  }
}
