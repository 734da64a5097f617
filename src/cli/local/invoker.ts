/**
 * Runs Lambda handlers in-process, in worker threads: a warm pool per function, so a slow or stuck
 * function never blocks another, and a function that crashes, exits or runs out of time loses only
 * its own worker (which is replaced), never the server.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { FunctionSpec } from './model';
import { workerSource } from './worker-source';

/** How one invocation ended. */
export type InvokeOutcome =
  /** The handler returned; `payload` is its JSON text (undefined when it returned nothing). */
  | { readonly kind: 'ok'; readonly payload: string | undefined }
  /** The handler threw, rejected, or failed to load. */
  | { readonly kind: 'error'; readonly errorType: string; readonly errorMessage: string; readonly trace: readonly string[] }
  /** The worker died (process.exit, uncaught exception in a callback). */
  | { readonly kind: 'crash'; readonly errorMessage: string }
  /** The function ran past its own timeout. */
  | { readonly kind: 'timeout'; readonly seconds: number }
  /** The function cannot run locally (runtime, code). */
  | { readonly kind: 'unsupported'; readonly reason: string };

/** The Lambda context fields sent with each invocation. */
export interface InvokeContext {
  readonly awsRequestId: string;
}

/** Where function console output goes: one call per line, already tagged. */
export type FunctionLogSink = (requestId: string, level: string, text: string, fn: FunctionSpec) => void;

export interface InvokerOptions {
  /** Receives function console output. */
  readonly log: FunctionLogSink;
  /** Most concurrent workers per function. @default max(2, available parallelism), at most 8 */
  readonly maxWorkersPerFunction?: number;
  /** Extra environment for every function (after the host's, before the function's own). */
  readonly environment?: Record<string, string>;
}

interface Pending {
  readonly id: string;
  readonly event: unknown;
  readonly resolve: (outcome: InvokeOutcome) => void;
}

/** Invocations a busy worker may have waiting behind the running one when the pool is full. */
const PIPELINE_DEPTH = 16;

class FunctionWorker {
  public readonly worker: Worker;
  /** Sent to the worker, in order; the first is running. */
  public readonly inflight: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private dead = false;
  /** Invocations sent in the next batch (one message per turn of the event loop). */
  private outbox: Array<[string, unknown]> = [];

  constructor(private readonly pool: FunctionPool) {
    const fn = pool.fn;
    this.worker = new Worker(workerSource(), {
      eval: true,
      workerData: { directory: pool.directory, handler: fn.handler, timeoutMs: fn.timeoutSeconds * 1000, context: pool.context },
      env: pool.environment,
      stdout: true,
      stderr: true,
    });
    this.worker.on('message', (message) => this.onMessage(message));
    this.worker.on('error', (error) => this.onDeath(`${error?.name ?? 'Error'}: ${error?.message ?? error}`));
    this.worker.on('exit', (code) => this.onDeath(`process exited with code ${code} before completing the request`));
    const forward = (level: string) => (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').replace(/\n$/, '').split('\n')) {
        pool.options.log(this.inflight[0]?.id ?? '-', level, line, fn);
      }
    };
    this.worker.stdout.on('data', forward('STDOUT'));
    this.worker.stderr.on('data', forward('STDERR'));
  }

  /** Sends an invocation; the worker runs it after those already sent. */
  send(pending: Pending): void {
    this.inflight.push(pending);
    if (this.inflight.length === 1) {
      this.startTimer();
    }
    if (this.outbox.length === 0) {
      setImmediate(() => this.flush());
    }
    this.outbox.push([pending.id, pending.event]);
  }

  private flush(): void {
    const batch = this.outbox;
    this.outbox = [];
    if (!this.dead && batch.length > 0) {
      this.worker.postMessage(batch);
    }
  }

  kill(): void {
    if (!this.dead) {
      this.dead = true;
      clearTimeout(this.timer);
      this.pool.remove(this);
      void this.worker.terminate();
    }
  }

  /** The function timeout of the running invocation (the head of the queue). */
  private startTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const running = this.inflight.shift();
      const waiting = this.inflight.splice(0);
      this.kill();
      running?.resolve({ kind: 'timeout', seconds: this.pool.fn.timeoutSeconds });
      this.pool.requeue(waiting);
    }, this.pool.fn.timeoutSeconds * 1000);
  }

  private onMessage(message: any): void {
    switch (message?.t) {
      case 'log':
        for (const line of String(message.text).split('\n')) {
          this.pool.options.log(message.id ?? this.inflight[0]?.id ?? '-', message.level, line, this.pool.fn);
        }
        return;
      case 'init-error': {
        const running = this.inflight.shift();
        const waiting = this.inflight.splice(0);
        this.kill();
        const e = message.error;
        this.pool.options.log(running?.id ?? '-', 'ERROR', `init failed: ${e.errorType}: ${e.errorMessage}`, this.pool.fn);
        running?.resolve({ kind: 'error', errorType: e.errorType, errorMessage: e.errorMessage, trace: e.trace ?? [] });
        this.pool.requeue(waiting);
        return;
      }
      case 'results':
        for (const [id, payload, error] of message.results as Array<[string, string | undefined, any]>) {
          this.onResult(id, payload, error);
        }
        this.pool.drain();
        return;
    }
  }

  private onResult(id: string, payload: string | undefined, error: any): void {
    const running = this.inflight[0];
    if (running === undefined || running.id !== id) {
      return;
    }
    this.inflight.shift();
    clearTimeout(this.timer);
    if (this.inflight.length > 0) {
      this.startTimer();
    }
    if (error) {
      running.resolve({ kind: 'error', errorType: error.errorType, errorMessage: error.errorMessage, trace: error.trace ?? [] });
    } else {
      running.resolve({ kind: 'ok', payload });
    }
  }

  private onDeath(reason: string): void {
    if (this.dead) {
      return;
    }
    const running = this.inflight.shift();
    const waiting = this.inflight.splice(0);
    this.kill();
    if (running !== undefined) {
      this.pool.options.log(running.id, 'ERROR', `worker died: ${reason}`, this.pool.fn);
      running.resolve({ kind: 'crash', errorMessage: reason });
    }
    this.pool.requeue(waiting);
  }
}

class FunctionPool {
  public readonly directory: string;
  public readonly environment: Record<string, string>;
  /** The static part of the Lambda context object. */
  public readonly context: Record<string, string>;
  private readonly workers: FunctionWorker[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(public readonly fn: FunctionSpec, public readonly options: InvokerOptions, scratch: () => string, private readonly maxWorkers: number) {
    if (fn.code.kind === 'inline') {
      this.directory = path.join(scratch(), fn.key.replace(/[^A-Za-z0-9_-]/g, '_'));
      fs.mkdirSync(this.directory, { recursive: true });
      fs.writeFileSync(path.join(this.directory, 'index.js'), fn.code.source);
    } else {
      this.directory = fn.code.kind === 'directory' ? fn.code.directory : os.tmpdir();
    }
    const streamName = logStreamName();
    this.environment = {
      ...(process.env as Record<string, string>),
      ...options.environment,
      AWS_REGION: fn.region,
      AWS_DEFAULT_REGION: fn.region,
      AWS_LAMBDA_FUNCTION_NAME: fn.functionName,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.functionName}`,
      AWS_LAMBDA_LOG_STREAM_NAME: streamName,
      AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
      LAMBDA_TASK_ROOT: this.directory,
      _HANDLER: fn.handler,
      ...fn.environment,
    };
    this.context = {
      functionName: fn.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}`,
      memoryLimitInMB: String(fn.memoryMb),
      logGroupName: `/aws/lambda/${fn.functionName}`,
      logStreamName: streamName,
    };
  }

  /** Starts one worker ahead of the first request (Lambda's init), unless the code cannot run. */
  warm(): void {
    if (this.fn.code.kind !== 'unsupported' && this.workers.length === 0) {
      this.spawn();
    }
  }

  invoke(event: unknown, context: InvokeContext): Promise<InvokeOutcome> {
    if (this.fn.code.kind === 'unsupported') {
      return Promise.resolve({ kind: 'unsupported', reason: this.fn.code.reason });
    }
    return new Promise((resolve) => {
      this.queue.push({ id: context.awsRequestId, event, resolve });
      this.drain();
    });
  }

  /**
   * Hands queued invocations to workers: an idle worker first, else a new worker while the pool
   * may grow, else (pool full) the least busy worker, up to {@link PIPELINE_DEPTH} waiting.
   */
  drain(): void {
    while (!this.closed && this.queue.length > 0) {
      let target: FunctionWorker | undefined;
      let least: FunctionWorker | undefined;
      for (const w of this.workers) {
        if (w.inflight.length === 0) {
          target = w;
          break;
        }
        if (least === undefined || w.inflight.length < least.inflight.length) {
          least = w;
        }
      }
      if (target === undefined) {
        if (this.workers.length < this.maxWorkers) {
          target = this.spawn();
        } else if (least !== undefined && least.inflight.length <= PIPELINE_DEPTH) {
          target = least;
        } else {
          return;
        }
      }
      target.send(this.queue.shift()!);
    }
  }

  /** Invocations a dead worker had not started go back to the front of the queue. */
  requeue(waiting: Pending[]): void {
    this.queue.unshift(...waiting);
    this.drain();
  }

  remove(worker: FunctionWorker): void {
    const i = this.workers.indexOf(worker);
    if (i >= 0) {
      this.workers.splice(i, 1);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.queue.splice(0), ...this.workers.flatMap((w) => w.inflight.splice(0))];
    for (const p of pending) {
      p.resolve({ kind: 'crash', errorMessage: 'server is shutting down' });
    }
    const workers = [...this.workers];
    await Promise.all(workers.map(async (w) => {
      w.kill();
      await w.worker.terminate();
    }));
  }

  private spawn(): FunctionWorker {
    const worker = new FunctionWorker(this);
    this.workers.push(worker);
    return worker;
  }
}

function logStreamName(): string {
  const d = new Date();
  const day = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
  return `${day}/[$LATEST]${Math.random().toString(16).slice(2, 18).padEnd(16, '0')}${Math.random().toString(16).slice(2, 18).padEnd(16, '0')}`;
}

/** Runs the functions of a local app. */
export class Invoker {
  private readonly pools = new Map<string, FunctionPool>();
  private scratchDir: string | undefined;
  private readonly maxWorkers: number;

  constructor(private readonly functions: ReadonlyMap<string, FunctionSpec>, private readonly options: InvokerOptions) {
    const parallelism = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    this.maxWorkers = Math.max(1, options.maxWorkersPerFunction ?? Math.min(8, Math.max(2, parallelism)));
  }

  /** Starts one worker per function now, so the first request finds it warm. */
  warmAll(): void {
    for (const key of this.functions.keys()) {
      this.pool(key).warm();
    }
  }

  /** Invokes a function with the input of its event (see event.ts). */
  invoke(functionKey: string, event: unknown, context: InvokeContext): Promise<InvokeOutcome> {
    return this.pool(functionKey).invoke(event, context);
  }

  /** Stops every worker and removes the scratch directory. */
  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
    if (this.scratchDir !== undefined) {
      fs.rmSync(this.scratchDir, { recursive: true, force: true });
      this.scratchDir = undefined;
    }
  }

  private pool(key: string): FunctionPool {
    let pool = this.pools.get(key);
    if (pool === undefined) {
      const fn = this.functions.get(key);
      if (fn === undefined) {
        throw new Error(`no function ${key}`);
      }
      pool = new FunctionPool(fn, this.options, () => this.scratch(), this.maxWorkers);
      this.pools.set(key, pool);
    }
    return pool;
  }

  private scratch(): string {
    this.scratchDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-outputs-serve-'));
    return this.scratchDir;
  }
}
