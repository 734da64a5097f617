/**
 * One function's execution environments, scaled the way Lambda scales them: started on demand
 * (one invocation at a time in each), reused warm, retired when idle, throttled past the
 * function's reserved concurrency or the account's. Its runtime family (runtime-family.ts) runs
 * the environments; this pool decides when to start, feed, time out, retire and stop them.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccountConcurrency, FunctionConcurrency, reservedConcurrency } from './concurrency';
import { EnvVarsFile } from './env-vars';
import { functionEnvironment } from './function-environment';
import { InvokeOutcome } from './invoke-outcome';
import { DEFAULT_IDLE_RETIRE_MS, DEFAULT_STARTING_AT_ONCE, MAX_CONCURRENCY_ENV } from './limits';
import { requestTooLarge } from './request-size';
import type { ResponseSink } from './response-sink';
import { unsupportedRuntimeReason } from './runtime-families';
import type { EnvironmentEvents, ErrorReport, InvokeContext, RunningFunction, RuntimeEnvironment, RuntimeFamily } from './runtime-family';
import { logStreamDay } from '../common/dates';
import type { FunctionSpec } from '../model/function-spec';

/** Where function console output goes: one call per line, already tagged. */
export type FunctionLogSink = (requestId: string, level: string, text: string, fn: FunctionSpec) => void;

/** How the pools run the functions (the invoker's options). */
export interface PoolOptions {
  /** Receives function console output. */
  readonly log: FunctionLogSink;
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
  /** The CDK app's folder, where a runtime family finds what the Lambda runtime provides (the Node.js family: the AWS SDK in its `node_modules`). */
  readonly appFolder?: string;
}

interface Pending {
  readonly id: string;
  /** The finished event (a plain JSON value). */
  readonly event: unknown;
  readonly resolve: (outcome: InvokeOutcome) => void;
  /** Where a streamed invocation's bytes go (absent: buffered). */
  readonly sink?: ResponseSink;
}

/** One execution environment as the pool tracks it. */
interface Environment {
  readonly id: number;
  readonly runtime: RuntimeEnvironment;
  state: 'starting' | 'ready';
  /** The invocation it runs (an environment runs one at a time). */
  running: Pending | undefined;
  timer?: NodeJS.Timeout;
  lastUsed: number;
}

/** One function's environments; its family reports what they do through {@link EnvironmentEvents}. */
export class FunctionPool implements EnvironmentEvents {
  /** The folder the code runs from (a folder of its own for inline code). */
  public readonly directory: string;
  /** Why the function cannot run here, when it cannot. */
  private readonly unsupported: string | undefined;
  /** The function as its runtime family runs it (undefined when it cannot run). */
  private readonly running: RunningFunction | undefined;
  private readonly concurrency: FunctionConcurrency;
  private readonly environments = new Map<number, Environment>();
  /** Idle environments, the most recently used last (taken first, so the others can retire). */
  private readonly idle: Environment[] = [];
  private starting = 0;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** Most environments starting at once (the family's, as cheap as its environments are). */
  private readonly startsAtOnce: number;
  private readonly retireTimer: NodeJS.Timeout;
  private closed = false;
  /** Set by {@link drain}: called once no invocation is queued or running. */
  private drained: (() => void) | undefined;

  constructor(
    public readonly fn: FunctionSpec,
    private readonly options: PoolOptions,
    scratch: () => string,
    account: AccountConcurrency,
    family: RuntimeFamily | undefined,
  ) {
    this.unsupported = fn.code.kind === 'unsupported' ? fn.code.reason : family === undefined ? unsupportedRuntimeReason(fn.runtime) : undefined;
    this.directory = taskRootOf(fn, family, scratch);
    this.concurrency = new FunctionConcurrency(account, reservedOf(fn));
    this.running = this.unsupported === undefined ? this.startRunning(family!) : undefined;
    this.startsAtOnce = family?.startsAtOnce ?? DEFAULT_STARTING_AT_ONCE;
    const retireMs = options.idleRetireMs ?? DEFAULT_IDLE_RETIRE_MS;
    this.retireTimer = setInterval(() => this.retireIdle(retireMs), Math.max(50, Math.min(retireMs / 2, 10_000)));
    this.retireTimer.unref();
  }

  /** Hands the function to its family with its environment variables and the static Lambda context. */
  private startRunning(family: RuntimeFamily): RunningFunction {
    const { fn, options } = this;
    const streamName = logStreamName();
    const environment = functionEnvironment({
      fn,
      taskRoot: this.directory,
      logStreamName: streamName,
      shell: process.env,
      extra: options.environment,
      envVars: options.envVars,
      runtime: family.variables({ appFolder: options.appFolder, shell: process.env }),
    });
    const context = {
      functionName: fn.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}`,
      memoryLimitInMB: String(fn.memoryMb),
      logGroupName: `/aws/lambda/${fn.functionName}`,
      logStreamName: streamName,
    };
    return family.start({ fn, taskRoot: this.directory, environment, context }, this);
  }

  get size(): number {
    return this.environments.size;
  }

  /** Starts one environment ahead of the first request (Lambda's init), unless the code cannot run. */
  warm(): void {
    if (this.unsupported === undefined && this.environments.size === 0 && this.concurrency.tryAcquire()) {
      this.startEnvironment();
    }
  }

  /**
   * Invokes the function with a finished event (a plain JSON value); with a `sink`, a streaming
   * handler's response goes there as written (response-sink.ts).
   */
  invoke(event: unknown, context: InvokeContext, sink?: ResponseSink): Promise<InvokeOutcome> {
    if (this.unsupported !== undefined) {
      return Promise.resolve({ kind: 'unsupported', reason: this.unsupported });
    }
    const tooLarge = requestTooLarge(event);
    if (tooLarge !== undefined) {
      return Promise.resolve(tooLarge);
    }
    if (this.idle.length === 0 && this.queue.length >= this.starting && !this.concurrency.canGrow()) {
      return Promise.resolve(this.throttled());
    }
    return new Promise((resolve) => {
      this.queue.push(sink === undefined ? { id: context.awsRequestId, event, resolve } : { id: context.awsRequestId, event, resolve, sink });
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
    const pending = [...this.queue.splice(0)];
    for (const env of this.environments.values()) {
      clearTimeout(env.timer);
      if (env.running !== undefined) {
        pending.push(env.running);
        env.running = undefined;
      }
    }
    for (const p of pending) {
      p.resolve({ kind: 'crash', errorMessage: 'server is shutting down' });
    }
    this.environments.clear();
    await this.running?.close();
  }

  /**
   * Hands queued invocations to idle environments and starts one for each invocation that finds
   * none (Lambda's rule: an environment per concurrent invocation), up to the concurrency.
   */
  private dispatch(): void {
    if (this.closed) {
      return;
    }
    if (this.drained !== undefined && !this.busy()) {
      this.drained();
      return;
    }
    while (this.queue.length > 0 && this.idle.length > 0) {
      this.run(this.idle.pop()!, this.queue.shift()!);
    }
    const most = this.options.maxWorkersPerFunction ?? Infinity;
    while (this.queue.length > this.starting && this.starting < this.startsAtOnce
      && this.environments.size < most && this.concurrency.tryAcquire()) {
      this.startEnvironment();
    }
  }

  /** Whether an invocation is queued or running. */
  private busy(): boolean {
    if (this.queue.length > 0) {
      return true;
    }
    for (const env of this.environments.values()) {
      if (env.running !== undefined) {
        return true;
      }
    }
    return false;
  }

  private startEnvironment(): void {
    const id = this.nextId++;
    this.starting++;
    const env: Environment = { id, runtime: this.running!.startEnvironment(id), state: 'starting', running: undefined, lastUsed: Date.now() };
    this.environments.set(id, env);
  }

  /** Sends an invocation to an environment, with the function's timeout. */
  private run(env: Environment, pending: Pending): void {
    env.running = pending;
    env.timer = setTimeout(() => this.onTimeout(env), this.fn.timeoutSeconds * 1000);
    env.runtime.invoke(pending.event, pending.sink === undefined ? { awsRequestId: pending.id } : { awsRequestId: pending.id, streamed: true });
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

  /** @internal (EnvironmentEvents) */
  ready(id: number): void {
    const env = this.environments.get(id);
    if (env?.state === 'starting') {
      env.state = 'ready';
      this.starting--;
      this.becomeIdle(env);
      this.dispatch();
    }
  }

  /** @internal (EnvironmentEvents) */
  initError(id: number, error: ErrorReport): void {
    const env = this.environments.get(id);
    if (env === undefined) {
      return;
    }
    // The invocation that waited for this environment gets the init error, as on Lambda.
    const victim = env.state === 'starting' ? this.queue.shift() : env.running;
    this.remove(env);
    this.options.log(victim?.id ?? '-', 'ERROR', `init failed: ${error.errorType}: ${error.errorMessage}`, this.fn);
    victim?.resolve({ kind: 'error', errorType: error.errorType, errorMessage: error.errorMessage, trace: error.trace });
    this.dispatch();
  }

  /** @internal (EnvironmentEvents) */
  log(id: number, requestId: string | null, level: string, text: string): void {
    this.options.log(requestId ?? this.environments.get(id)?.running?.id ?? '-', level, text, this.fn);
  }

  /** @internal (EnvironmentEvents) */
  result(id: number, requestId: string, payload: string | undefined, error: ErrorReport | undefined, _ms: number): void {
    const env = this.environments.get(id);
    const running = env?.running;
    if (env === undefined || running === undefined || running.id !== requestId) {
      return;
    }
    env.running = undefined;
    clearTimeout(env.timer);
    this.becomeIdle(env);
    running.resolve(error !== undefined
      ? { kind: 'error', errorType: error.errorType, errorMessage: error.errorMessage, trace: error.trace }
      : { kind: 'ok', payload });
    this.dispatch();
  }

  /** @internal (EnvironmentEvents) */
  chunk(id: number, requestId: string, data: Buffer, contentType: string | undefined): void {
    const running = this.environments.get(id)?.running;
    if (running?.sink === undefined || running.id !== requestId) {
      return;
    }
    if (contentType !== undefined) {
      running.sink.start(contentType);
    }
    if (data.length > 0) {
      running.sink.write(data);
    }
  }

  private onTimeout(env: Environment): void {
    const running = env.running;
    env.runtime.stop(true);
    this.remove(env);
    running?.resolve({ kind: 'timeout', seconds: this.fn.timeoutSeconds });
    this.dispatch();
  }

  /** @internal (EnvironmentEvents) */
  exited(ids: readonly number[], reason: string, outOfMemory: boolean, ownFault: boolean): void {
    for (const id of ids) {
      const env = this.environments.get(id);
      if (env !== undefined) {
        this.fail(env, reason, outOfMemory, ownFault);
      }
    }
    this.dispatch();
  }

  /** @internal (EnvironmentEvents) */
  unstarted(ids: readonly number[]): void {
    for (const id of ids) {
      const env = this.environments.get(id);
      if (env?.running !== undefined) {
        this.queue.unshift(env.running);
        env.running = undefined;
      }
      if (env !== undefined) {
        this.remove(env);
      }
    }
  }

  /**
   * An environment died: its running invocation fails as Lambda reports a runtime exit.
   */
  private fail(env: Environment, reason: string, outOfMemory: boolean, ownFault: boolean): void {
    // An environment that dies of its own while starting fails the invocation that waited for it,
    // as an init crash does on Lambda (and a module that always exits cannot make the server start
    // environments forever); one taken down by another environment's crash leaves it queued.
    const running = env.state === 'starting' ? (ownFault ? this.queue.shift() : undefined) : env.running;
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

  /** Retires environments idle for `ms`, keeping one warm (one that cannot be stopped alone stays). */
  private retireIdle(ms: number): void {
    const before = Date.now() - ms;
    for (const env of [...this.idle]) {
      if (this.environments.size <= 1) {
        return;
      }
      if (env.runtime.retirable && env.lastUsed < before) {
        env.runtime.stop();
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
export function reservedOf(fn: FunctionSpec): number | undefined {
  return reservedConcurrency(fn.reservedConcurrency);
}

/**
 * The folder the code runs from: the code's own, or for inline code a folder of its own per pool
 * holding the source under the name the family gives it (a reloaded function's new source never
 * overwrites the file its draining predecessor may still load).
 */
function taskRootOf(fn: FunctionSpec, family: RuntimeFamily | undefined, scratch: () => string): string {
  if (fn.code.kind === 'inline' && family !== undefined) {
    const directory = fs.mkdtempSync(path.join(scratch(), `${fn.key.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
    fs.writeFileSync(path.join(directory, family.inlineCodeFile), fn.code.source);
    return directory;
  }
  return fn.code.kind === 'directory' ? fn.code.directory : os.tmpdir();
}

function logStreamName(): string {
  const random = () => Math.random().toString(16).slice(2, 18).padEnd(16, '0');
  return `${logStreamDay(Date.now())}/[$LATEST]${random()}${random()}`;
}

