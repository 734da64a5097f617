/**
 * The runtime host of one function: a child process of the server holding the function's
 * execution environments. It starts, feeds and stops environments as the server says and reports
 * what they do. Each environment runs one invocation at a time.
 *
 * Environments of a CommonJS handler run in the host's own thread, each with its own modules,
 * console, timers and child processes (environment-scope.ts): starting one costs about a
 * millisecond and a few hundred KB, so every concurrent invocation gets its own, as on Lambda.
 * An ES module handler's environments are worker threads (Node.js cannot load an ES module twice
 * in one thread), and so are those of a function with source maps on.
 *
 * Why a process: one allocation far past the heap (`new Array(1e9).fill(0)`) aborts the whole
 * process, and a handler stuck in a loop holds its thread. Either ends this host only, with every
 * environment in it; the server notices, fails their running invocations and starts a new host.
 */
import * as v8 from 'v8';
import * as vm from 'vm';
import { Worker } from 'worker_threads';
import { heapAndBuffersMb, RuntimeHandle, startRuntime } from './environment-runtime';
import { EnvironmentExit } from './environment-scope';
import { handlerFile } from './handler';
import { EnvironmentConfig, HostCommand, HostEvent, MAX_BATCH, RuntimeInvocation, RuntimeMessage } from './protocol';
import { isEsmPackageFile } from './scoped-modules';
import { deferEvent, EventBuilder } from '../deferred-event';

/** While an invocation runs in the host's thread, its memory is checked this often. */
const MEMORY_POLL_MS = 200;

let config: EnvironmentConfig | undefined;
let runtimeFile = '';
/** Whether environments are worker threads (see needsWorkers). */
let inWorkers = false;
const environments = new Map<number, Environment>();
/** Event builders by the index the server gave them. */
const builders: EventBuilder[] = [];

let outbox: HostEvent[] = [];
function emit(event: HostEvent): void {
  if (outbox.length === 0) {
    setImmediate(flush);
  }
  outbox.push(event);
  if (outbox.length >= MAX_BATCH) {
    flush();
  }
}
function flush(then?: () => void): void {
  const batch = outbox;
  outbox = [];
  if (process.connected && batch.length > 0) {
    process.send!(batch, undefined, {}, () => then?.());
  } else {
    then?.();
  }
}

/** A collection of garbage after an environment was ended for memory, without exposing `gc` to handlers. */
const collectGarbage = ((): (() => void) => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

class Environment {
  private readonly worker: Worker | undefined;
  private readonly runtime: RuntimeHandle | undefined;
  /** Request ids sent, in order; the first is running (the environment runs one at a time). */
  private readonly sent: string[] = [];
  private outOfMemory = false;
  private ended = false;

  constructor(private readonly id: number, settings: EnvironmentConfig) {
    if (!inWorkers) {
      this.runtime = startRuntime(settings, (batch) => this.onBatch(batch), (code) => this.end(`exit status ${code}`), { memoryExceeded: hostMemoryExceeded });
      return;
    }
    this.worker = new Worker(runtimeFile, {
      workerData: settings,
      stdout: true,
      stderr: true,
      // A small young generation (8 MB an environment, not 50).
      resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb, maxYoungGenerationSizeMb: 6 },
    });
    this.worker.on('message', (batch: RuntimeMessage[]) => this.onBatch(batch));
    this.worker.on('error', (error: Error & { code?: string }) => {
      if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.outOfMemory = true;
      }
      this.end(`${error?.name ?? 'Error'}: ${error?.message ?? error}`);
    });
    this.worker.on('exit', (code) => this.end(`exit status ${code}`));
    const forward = (level: string) => (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').replace(/\n$/, '').split('\n')) {
        emit(['log', this.id, this.sent[0] ?? null, level, line]);
      }
    };
    this.worker.stdout.on('data', forward('STDOUT'));
    this.worker.stderr.on('data', forward('STDERR'));
  }

  get running(): boolean {
    return this.sent.length > 0;
  }

  invoke(requestId: string, event: unknown, streamed: boolean): void {
    this.sent.push(requestId);
    if (this.ended) {
      return;
    }
    const invocation: RuntimeInvocation = streamed ? [requestId, event, 1] : [requestId, event];
    if (this.runtime !== undefined) {
      this.runtime.receive([invocation]);
    } else {
      this.worker!.postMessage([invocation]);
    }
  }

  /** Ends the environment as the server asked (retired, timed out, replaced). */
  stop(): void {
    this.ended = true;
    environments.delete(this.id);
    this.runtime?.dispose();
    void this.worker?.terminate();
    emit(['stopped', this.id]);
  }

  /** Ends the environment for holding more memory than it may. */
  exceededMemory(usedMb: number): void {
    this.onMessage({ t: 'out-of-memory', usedMb: Math.round(usedMb) });
    this.end('signal: killed');
  }

  private onBatch(batch: RuntimeMessage[]): void {
    for (const message of batch) {
      if (this.ended) {
        return;
      }
      this.onMessage(message);
    }
  }

  private onMessage(message: RuntimeMessage): void {
    switch (message.t) {
      case 'ready':
        emit(['ready', this.id]);
        return;
      case 'init-error':
        emit(['init-error', this.id, message.error]);
        this.stop();
        return;
      case 'log':
        for (const line of message.text.split('\n')) {
          emit(['log', this.id, message.id, message.level, line]);
        }
        return;
      case 'chunk':
        emit(['chunk', this.id, message.id, message.data, message.contentType ?? null]);
        return;
      case 'result':
        this.sent.shift();
        emit(['result', this.id, message.id, message.payload, message.error, message.ms]);
        return;
      case 'out-of-memory':
        this.outOfMemory = true;
        emit(['log', this.id, this.sent[0] ?? null, 'ERROR', `memory in use (${message.usedMb} MB) exceeded MemorySize (${config?.memoryMb} MB)`]);
        return;
    }
  }

  private end(reason: string): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    environments.delete(this.id);
    this.runtime?.dispose();
    emit(['exit', this.id, reason, this.outOfMemory]);
    if (this.outOfMemory && this.runtime !== undefined) {
      // What it held goes now, not when the heap next fills: the next environment is measured on a
      // clean host. The second collection counts the buffers the first one freed.
      setImmediate(() => {
        collectGarbage();
        collectGarbage();
      });
    }
  }
}

/**
 * The host's heap and buffers when they exceed `MemorySize` for each environment in its thread
 * (they share one heap, so one environment's share cannot be told apart).
 */
function hostMemoryExceeded(memoryMb: number): number | undefined {
  const used = heapAndBuffersMb();
  return used > memoryMb * Math.max(1, environments.size) ? used : undefined;
}

/** Ends the environments running an invocation while the host holds too much. */
function checkHostMemory(): void {
  const used = hostMemoryExceeded(config!.memoryMb);
  if (used === undefined) {
    return;
  }
  const running = [...environments.values()].filter((env) => env.running);
  for (const env of running) {
    env.exceededMemory(used);
  }
}

/**
 * Whether the function's environments are worker threads: an ES module handler (Node.js loads an
 * ES module once per thread), or source maps on (`NODE_OPTIONS=--enable-source-maps`, as
 * NodejsFunction's `sourceMap` sets it: Node.js maps only what its own loader compiled).
 */
function needsWorkers(settings: EnvironmentConfig): boolean {
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled === true || process.execArgv.includes('--enable-source-maps')) {
    return true;
  }
  const file = handlerFile(settings.directory, settings.handler);
  return file !== undefined && (file.endsWith('.mjs') || (file.endsWith('.js') && isEsmPackageFile(file)));
}

function onCommand(command: HostCommand): void {
  switch (command[0]) {
    case 'configure':
      config = command[1];
      runtimeFile = command[2];
      inWorkers = needsWorkers(config);
      if (!inWorkers) {
        setInterval(checkHostMemory, MEMORY_POLL_MS).unref();
      }
      return;
    case 'start':
      environments.set(command[1], new Environment(command[1], config!));
      return;
    case 'builder':
      builders[command[1]] = command[2];
      return;
    case 'invoke': {
      const [, id, requestId, streamed, builder, payload] = command;
      environments.get(id)?.invoke(requestId, builder < 0 ? payload : deferEvent(builders[builder], payload), streamed === 1);
      return;
    }
    case 'stop':
      environments.get(command[1])?.stop();
      return;
  }
}

process.on('message', (batch: HostCommand[]) => {
  for (const command of batch) {
    onCommand(command);
  }
});
// An environment's `process.exit` ended it already; what it threw to stop its code goes no further.
process.on('uncaughtException', (error) => {
  if (error instanceof EnvironmentExit) {
    return;
  }
  process.stderr.write(`Uncaught ${error?.stack ?? error}\n`);
  flush(() => process.exit(1));
});
// The server went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));
