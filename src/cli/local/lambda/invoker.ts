/**
 * Runs Lambda handlers locally the way Lambda scales them: each function gets execution
 * environments on demand (one invocation at a time in each), reuses warm ones, retires idle ones,
 * and throttles past its reserved concurrency or the account's. The environments are worker
 * threads inside one runtime host process per function (lambda/host.ts), so a function that
 * crashes, runs out of time or memory, or aborts its whole process never stops the server.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codeFingerprint } from './code-fingerprint';
import { AccountConcurrency, FunctionConcurrency, reservedConcurrency } from './concurrency';
import { EnvVarsFile } from './env-vars';
import { functionChanged } from './function-change';
import { functionEnvironment } from './function-environment';
import { accountConcurrency, DEFAULT_IDLE_RETIRE_MS, DEFAULT_STARTING_AT_ONCE, MAX_CONCURRENCY_ENV, MAX_REQUEST_PAYLOAD_BYTES } from './limits';
import { logStreamDay } from '../common/dates';
import { buildEvent, EventInput } from '../rest/event';
import { ErrorReport } from './node/handler';
import { RuntimeHost } from './node/runtime-host';
import { FunctionSpec } from '../model/local-app';

/** How one invocation ended. */
export type InvokeOutcome =
  /** The handler returned; `payload` is its JSON text (undefined when it returned nothing). */
  | { readonly kind: 'ok'; readonly payload: string | undefined }
  /** The handler threw, rejected, failed to load, or returned more than Lambda accepts. */
  | { readonly kind: 'error'; readonly errorType: string; readonly errorMessage: string; readonly trace: readonly string[] }
  /** The execution environment died (process.exit, uncaught exception in a callback, out of memory). */
  | { readonly kind: 'crash'; readonly errorMessage: string; readonly outOfMemory?: boolean }
  /** The function ran past its own timeout. */
  | { readonly kind: 'timeout'; readonly seconds: number }
  /** The function cannot run locally (runtime, code). */
  | { readonly kind: 'unsupported'; readonly reason: string }
  /**
   * The Lambda API refused the invocation and the function did not run: 429
   * `TooManyRequestsException` (throttled) or 413 `RequestEntityTooLargeException` (event too large).
   */
  | { readonly kind: 'rejected'; readonly statusCode: number; readonly errorType: string; readonly errorMessage: string };

/** The Lambda context fields sent with each invocation. */
export interface InvokeContext {
  readonly awsRequestId: string;
}

/** Where function console output goes: one call per line, already tagged. */
export type FunctionLogSink = (requestId: string, level: string, text: string, fn: FunctionSpec) => void;

export interface InvokerOptions {
  /** Receives function console output. */
  readonly log: FunctionLogSink;
  /**
   * The account's concurrency: how many execution environments the functions without
   * `ReservedConcurrentExecutions` may have together; past it an invocation is throttled.
   * @default - `VENDOR_OUTPUTS_MAX_CONCURRENCY`, else 1000 (Lambda's default quota)
   */
  readonly maxConcurrency?: number;
  /**
   * Most environments per function on this machine; invocations past it wait for a free one
   * (they are not throttled). `test-invoke` uses 1.
   * @default - no limit beyond the concurrency
   */
  readonly maxWorkersPerFunction?: number;
  /** An environment idle this long is retired (one per function stays warm). @default 60000 */
  readonly idleRetireMs?: number;
  /** Extra environment for every function (after the host's, before the function's own). */
  readonly environment?: Record<string, string>;
  /** `--env-vars`: variables over the template's. */
  readonly envVars?: EnvVarsFile;
  /** The app's `node_modules` (for the AWS SDK the Lambda Node.js runtime provides). */
  readonly nodeModules?: string;
}

interface Pending {
  readonly id: string;
  readonly input: EventInput;
  readonly resolve: (outcome: InvokeOutcome) => void;
}

/** One execution environment as the server tracks it. */
interface Environment {
  readonly id: number;
  readonly host: RuntimeHost;
  state: 'starting' | 'ready';
  /** Runs in the host's own thread: stopping it ends the host, so it is never retired. */
  inline: boolean;
  /** When the running invocation was sent (for telling a slow function before any result). */
  headStarted: number;
  /** Invocations sent, in order: the first is running, the others wait inside the environment. */
  readonly inflight: Pending[];
  timer?: NodeJS.Timeout;
  lastUsed: number;
}

/**
 * A function whose invocations take less than this (on average, locally) is "fast": its requests
 * may wait inside a warm environment for the one before them instead of each starting an
 * environment, since starting one costs more than waiting. Each environment still runs one
 * invocation at a time.
 */
const FAST_FUNCTION_MS = 20;

/**
 * Environments a fast function grows to before requests wait inside them: one per core the
 * server leaves free (the server itself keeps one busy); more only make them take turns.
 */
const FAST_ENVIRONMENTS = Math.max(1, (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length) - 1);

/**
 * How long, by the function's average, an invocation of a fast function may wait inside an
 * environment for those before it: the deeper the pipeline, the fewer round trips to the runtime
 * host per request (a function of 0.05 ms takes 64 at a time, one of 10 ms 2).
 */
const PIPELINE_WAIT_MS = 20;

/** Most invocations waiting inside one environment of a fast function. */
const MAX_PIPELINE_DEPTH = 64;

class FunctionPool {
  public readonly directory: string;
  private readonly environment: Record<string, string>;
  /** The static part of the Lambda context object. */
  private readonly context: Record<string, string>;
  private readonly concurrency: FunctionConcurrency;
  private host: RuntimeHost | undefined;
  private readonly environments = new Map<number, Environment>();
  /** Idle environments, the most recently used last (taken first, so the others can retire). */
  private readonly idle: Environment[] = [];
  private starting = 0;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** Moving average of invocation durations, in ms (undefined until one finished). */
  private averageMs: number | undefined;
  /** A second look at a function whose speed is not known yet. */
  private recheck: NodeJS.Timeout | undefined;
  private readonly retireTimer: NodeJS.Timeout;
  private closed = false;
  /** Set by {@link drain}: called once no invocation is queued or running. */
  private drained: (() => void) | undefined;

  constructor(
    public readonly fn: FunctionSpec,
    private readonly options: InvokerOptions,
    scratch: () => string,
    account: AccountConcurrency,
  ) {
    if (fn.code.kind === 'inline') {
      // A folder of its own per pool: a reloaded function's new source never overwrites the file
      // its draining predecessor may still load.
      this.directory = fs.mkdtempSync(path.join(scratch(), `${fn.key.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
      fs.writeFileSync(path.join(this.directory, 'index.js'), fn.code.source);
    } else {
      this.directory = fn.code.kind === 'directory' ? fn.code.directory : os.tmpdir();
    }
    this.concurrency = new FunctionConcurrency(account, reservedOf(fn));
    const streamName = logStreamName();
    this.environment = functionEnvironment({
      fn,
      taskRoot: this.directory,
      logStreamName: streamName,
      shell: process.env,
      extra: options.environment,
      envVars: options.envVars,
      nodeModules: options.nodeModules,
    });
    this.context = {
      functionName: fn.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}`,
      memoryLimitInMB: String(fn.memoryMb),
      logGroupName: `/aws/lambda/${fn.functionName}`,
      logStreamName: streamName,
    };
    const retireMs = options.idleRetireMs ?? DEFAULT_IDLE_RETIRE_MS;
    this.retireTimer = setInterval(() => this.retireIdle(retireMs), Math.max(50, Math.min(retireMs / 2, 10_000)));
    this.retireTimer.unref();
  }

  get size(): number {
    return this.environments.size;
  }

  /** Starts one environment ahead of the first request (Lambda's init), unless the code cannot run. */
  warm(): void {
    if (this.fn.code.kind !== 'unsupported' && this.environments.size === 0 && this.concurrency.tryAcquire()) {
      this.startEnvironment();
    }
  }

  invoke(input: EventInput, context: InvokeContext): Promise<InvokeOutcome> {
    if (this.fn.code.kind === 'unsupported') {
      return Promise.resolve({ kind: 'unsupported', reason: this.fn.code.reason });
    }
    const tooLarge = requestTooLarge(input);
    if (tooLarge !== undefined) {
      return Promise.resolve(tooLarge);
    }
    if (this.idle.length === 0 && this.queue.length >= this.starting && !this.concurrency.canGrow()) {
      return Promise.resolve(this.throttled());
    }
    return new Promise((resolve) => {
      this.queue.push({ id: context.awsRequestId, input, resolve });
      this.dispatch();
    });
  }

  /**
   * Stops once the invocations already accepted have finished (a reload replaced or removed the
   * function; nothing new is sent here): they run on the code they started with.
   */
  async drain(): Promise<void> {
    if (!this.closed && this.busy()) {
      await new Promise<void>((resolve) => { this.drained = resolve; });
    }
    await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.drained?.();
    clearInterval(this.retireTimer);
    clearTimeout(this.recheck);
    const pending = [...this.queue.splice(0)];
    for (const env of this.environments.values()) {
      clearTimeout(env.timer);
      pending.push(...env.inflight.splice(0));
    }
    for (const p of pending) {
      p.resolve({ kind: 'crash', errorMessage: 'server is shutting down' });
    }
    this.environments.clear();
    await this.host?.close();
  }

  /**
   * Hands queued invocations to idle environments and starts more while some wait. A fast
   * function without reserved concurrency instead lets requests wait inside its few warm
   * environments (see {@link FAST_FUNCTION_MS}).
   */
  private dispatch(): void {
    if (this.closed) {
      return;
    }
    if (this.drained !== undefined && !this.busy()) {
      this.drained();
      return;
    }
    const speed = this.speed();
    if (speed === 'fast') {
      this.pipeline();
    }
    while (this.queue.length > 0 && this.idle.length > 0) {
      this.run(this.idle.pop()!, this.queue.shift()!);
    }
    const most = Math.min(this.options.maxWorkersPerFunction ?? Infinity, speed === 'slow' ? Infinity : FAST_ENVIRONMENTS);
    while (this.queue.length > this.starting && this.starting < DEFAULT_STARTING_AT_ONCE
      && this.environments.size < most && this.concurrency.tryAcquire()) {
      this.startEnvironment();
    }
    if (speed === 'unknown' && this.queue.length > 0 && this.recheck === undefined) {
      this.recheck = setTimeout(() => {
        this.recheck = undefined;
        this.dispatch();
      }, FAST_FUNCTION_MS);
    }
  }

  /** Whether an invocation is queued or running. */
  private busy(): boolean {
    if (this.queue.length > 0) {
      return true;
    }
    for (const env of this.environments.values()) {
      if (env.inflight.length > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fast or slow (see {@link FAST_FUNCTION_MS}); a function with reserved concurrency is always
   * treated as slow (one request per environment, throttled past its limit). Before any
   * invocation finished, one running for longer than the threshold makes the function slow;
   * until then it is unknown: requests wait in the queue, none inside an environment.
   */
  private speed(): 'fast' | 'slow' | 'unknown' {
    if (this.concurrency.reserved !== undefined) {
      return 'slow';
    }
    if (this.averageMs !== undefined) {
      return this.averageMs < FAST_FUNCTION_MS ? 'fast' : 'slow';
    }
    const now = Date.now();
    for (const env of this.environments.values()) {
      if (env.inflight.length > 0 && now - env.headStarted >= FAST_FUNCTION_MS) {
        return 'slow';
      }
    }
    return 'unknown';
  }

  /**
   * Queues invocations inside ready environments, filling the oldest first up to a depth of
   * {@link PIPELINE_WAIT_MS} of work: fewer, larger batches cost less than spreading a fast
   * function thin.
   */
  private pipeline(): void {
    const depth = Math.max(2, Math.min(MAX_PIPELINE_DEPTH, Math.floor(PIPELINE_WAIT_MS / Math.max(this.averageMs ?? FAST_FUNCTION_MS, 0.01))));
    for (const env of this.environments.values()) {
      if (this.queue.length === 0) {
        return;
      }
      if (env.state !== 'ready') {
        continue;
      }
      const wasIdle = env.inflight.length === 0;
      while (this.queue.length > 0 && env.inflight.length < depth) {
        this.run(env, this.queue.shift()!);
      }
      if (wasIdle && env.inflight.length > 0) {
        this.idle.splice(this.idle.indexOf(env), 1);
      }
    }
  }

  private startEnvironment(): void {
    this.host ??= new RuntimeHost({
      environment: this.environment,
      config: {
        directory: this.directory,
        handler: this.fn.handler,
        timeoutMs: this.fn.timeoutSeconds * 1000,
        memoryMb: this.fn.memoryMb,
        context: this.context,
      },
      onReady: (id) => this.onReady(id),
      onInitError: (id, error) => this.onInitError(id, error),
      onLog: (id, requestId, level, text) => this.options.log(requestId ?? this.environments.get(id)?.inflight[0]?.id ?? '-', level, text, this.fn),
      onResult: (id, requestId, payload, error, ms) => this.onResult(id, requestId, payload, error, ms),
      onExit: (id, reason, outOfMemory) => this.onEnvironmentExit(id, reason, outOfMemory),
      onHostExit: (host, reason, outOfMemory) => this.onHostExit(host, reason, outOfMemory),
    });
    const env: Environment = { id: this.nextId++, host: this.host, state: 'starting', inflight: [], inline: false, headStarted: 0, lastUsed: Date.now() };
    this.environments.set(env.id, env);
    this.starting++;
    env.inline = env.host.start(env.id);
  }

  private run(env: Environment, pending: Pending): void {
    env.inflight.push(pending);
    if (env.inflight.length === 1) {
      this.startClock(env);
    }
    env.host.invoke(env.id, pending.id, pending.input);
  }

  /** The function timeout of the running invocation (the head of the environment's list). */
  private startClock(env: Environment): void {
    clearTimeout(env.timer);
    env.headStarted = Date.now();
    env.timer = setTimeout(() => this.onTimeout(env), this.fn.timeoutSeconds * 1000);
  }

  private becomeIdle(env: Environment): void {
    env.lastUsed = Date.now();
    const next = this.queue.shift();
    if (next !== undefined) {
      this.run(env, next);
    } else {
      this.idle.push(env);
    }
  }

  private onReady(id: number): void {
    const env = this.environments.get(id);
    if (env?.state === 'starting') {
      env.state = 'ready';
      this.starting--;
      this.becomeIdle(env);
      this.dispatch();
    }
  }

  private onInitError(id: number, error: ErrorReport): void {
    const env = this.environments.get(id);
    if (env === undefined) {
      return;
    }
    // The invocation that waited for this environment gets the init error, as on Lambda.
    const victim = env.state === 'starting' ? this.queue.shift() : env.inflight.shift();
    this.queue.unshift(...env.inflight.splice(0));
    this.remove(env);
    this.options.log(victim?.id ?? '-', 'ERROR', `init failed: ${error.errorType}: ${error.errorMessage}`, this.fn);
    victim?.resolve({ kind: 'error', errorType: error.errorType, errorMessage: error.errorMessage, trace: error.trace });
    this.dispatch();
  }

  private onResult(id: number, requestId: string, payload: string | undefined, error: ErrorReport | undefined, ms: number): void {
    const env = this.environments.get(id);
    const running = env?.inflight[0];
    if (env === undefined || running === undefined || running.id !== requestId) {
      return;
    }
    env.inflight.shift();
    clearTimeout(env.timer);
    this.averageMs = this.averageMs === undefined ? ms : this.averageMs * 0.8 + ms * 0.2;
    if (env.inflight.length > 0) {
      this.startClock(env);
    } else {
      this.becomeIdle(env);
    }
    running.resolve(error !== undefined
      ? { kind: 'error', errorType: error.errorType, errorMessage: error.errorMessage, trace: error.trace }
      : { kind: 'ok', payload });
    this.dispatch();
  }

  private onTimeout(env: Environment): void {
    const running = env.inflight.shift();
    this.queue.unshift(...env.inflight.splice(0));
    if (env.inline && this.host === env.host) {
      // Stopping it ends the host: the next environment starts in a new one.
      this.host = undefined;
    }
    env.host.stop(env.id);
    this.remove(env);
    running?.resolve({ kind: 'timeout', seconds: this.fn.timeoutSeconds });
    this.dispatch();
  }

  private onEnvironmentExit(id: number, reason: string, outOfMemory: boolean): void {
    const env = this.environments.get(id);
    if (env !== undefined) {
      if (env.inline && this.host === env.host) {
        // The environment in the host's own thread ended: so does the host; start the next one anew.
        this.host = undefined;
      }
      this.fail(env, reason, outOfMemory, true);
      this.dispatch();
    }
  }

  private onHostExit(host: RuntimeHost, reason: string, outOfMemory: boolean): void {
    if (this.host === host) {
      this.host = undefined;
    }
    for (const env of [...this.environments.values()]) {
      if (env.host === host) {
        this.fail(env, reason, outOfMemory, !host.everReady);
      }
    }
    this.dispatch();
  }

  /**
   * An environment died: its running invocation fails as Lambda reports a runtime exit; those
   * waiting inside it had not started and go back to the front of the queue.
   */
  private fail(env: Environment, reason: string, outOfMemory: boolean, ownFault: boolean): void {
    // An environment that dies of its own while starting fails the invocation that waited for it,
    // as an init crash does on Lambda (and a module that always exits cannot make the server start
    // environments forever); one taken down by another environment's crash leaves it queued.
    const running = env.state === 'starting' ? (ownFault ? this.queue.shift() : undefined) : env.inflight.shift();
    this.queue.unshift(...env.inflight.splice(0));
    this.remove(env);
    if (running === undefined) {
      return;
    }
    const errorMessage = outOfMemory
      ? `Runtime exited with error: signal: killed (Runtime.OutOfMemory: the function used more than its MemorySize of ${this.fn.memoryMb} MB)`
      : `Runtime exited with error: ${reason}`;
    this.options.log(running.id, 'ERROR', `${errorMessage}; the execution environment is replaced`, this.fn);
    running.resolve({ kind: 'crash', errorMessage, outOfMemory });
  }

  private remove(env: Environment): void {
    if (!this.environments.delete(env.id)) {
      return;
    }
    clearTimeout(env.timer);
    if (env.state === 'starting') {
      this.starting--;
    }
    const i = this.idle.indexOf(env);
    if (i >= 0) {
      this.idle.splice(i, 1);
    }
    this.concurrency.release();
  }

  /** Retires environments idle for `ms`, keeping one warm (the one in the host's thread stays). */
  private retireIdle(ms: number): void {
    const before = Date.now() - ms;
    for (const env of [...this.idle]) {
      if (this.environments.size <= 1) {
        return;
      }
      if (!env.inline && env.lastUsed < before) {
        env.host.stop(env.id);
        this.remove(env);
      }
    }
  }

  private throttled(): InvokeOutcome {
    const limit = this.concurrency.reserved !== undefined
      ? `its reserved concurrency (${this.concurrency.reserved})`
      : `the account's unreserved concurrency (${this.concurrency.limit}; set ${MAX_CONCURRENCY_ENV} to change it)`;
    return {
      kind: 'rejected',
      statusCode: 429,
      errorType: 'TooManyRequestsException',
      errorMessage: `Rate Exceeded. (${this.fn.functionName} is at ${limit}, every execution environment busy)`,
    };
  }
}

/** `ReservedConcurrentExecutions`, checked again: a value that is not a count means none. */
function reservedOf(fn: FunctionSpec): number | undefined {
  return reservedConcurrency(fn.reservedConcurrency);
}

/**
 * The Invoke API's answer to an event over 6 MB. The event is serialized only when its parts
 * could reach the limit (JSON escaping at most multiplies a character by 6).
 */
function requestTooLarge(input: EventInput): InvokeOutcome | undefined {
  let rough = (input.body?.length ?? 0) + input.query.length + input.path.length * 2;
  for (const part of input.headers) {
    rough += part.length * 2;
  }
  if (rough * 6 + 16_384 <= MAX_REQUEST_PAYLOAD_BYTES) {
    return undefined;
  }
  const bytes = Buffer.byteLength(JSON.stringify(buildEvent(input)));
  if (bytes <= MAX_REQUEST_PAYLOAD_BYTES) {
    return undefined;
  }
  return {
    kind: 'rejected',
    statusCode: 413,
    errorType: 'RequestEntityTooLargeException',
    errorMessage: `Request must be smaller than ${MAX_REQUEST_PAYLOAD_BYTES} bytes for the InvokeFunction operation (the event is ${bytes} bytes)`,
  };
}

function logStreamName(): string {
  const random = () => Math.random().toString(16).slice(2, 18).padEnd(16, '0');
  return `${logStreamDay(Date.now())}/[$LATEST]${random()}${random()}`;
}

/** What a reload changed in the functions (keys). */
export interface FunctionChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Kept, but their code or settings changed: their runtime host was replaced. */
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
   * gets a new runtime host on its next invocation, and so does a new one; the old host finishes
   * the invocations it had and stops, as does a removed function's. Unchanged functions keep
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

  /** Invokes a function with the input of its event (see event.ts). */
  invoke(functionKey: string, event: EventInput, context: InvokeContext): Promise<InvokeOutcome> {
    if (!this.functions.has(functionKey)) {
      // A request routed before a reload removed its function (or before one took effect): Lambda's
      // answer for a function that does not exist.
      const gone = this.removed.get(functionKey);
      const arn = gone === undefined ? functionKey : `arn:aws:lambda:${gone.region}:123456789012:function:${gone.functionName}`;
      return Promise.resolve({ kind: 'rejected', statusCode: 404, errorType: 'ResourceNotFoundException', errorMessage: `Function not found: ${arn}` });
    }
    return this.pool(functionKey).invoke(event, context);
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

  /** Stops every environment and host, and removes the scratch directory. */
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
      pool = new FunctionPool(fn, this.options, () => this.scratch(), this.account);
      this.pools.set(key, pool);
    }
    return pool;
  }

  private scratch(): string {
    this.scratchDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-outputs-serve-'));
    return this.scratchDir;
  }
}
