/**
 * What one Lambda execution environment runs: in the runtime host's own thread with modules of its
 * own (host.ts, environment-scope.ts), or in a worker thread (runtime.ts, for ES module handlers).
 * Like the Node.js runtime it loads the handler module once ("init"), then runs one invocation at
 * a time with the finished event it was given; console output is sent to the host tagged with the
 * request id.
 *
 * Limits applied here: the function's `MemorySize` (checked while an invocation runs and after
 * it: a worker's heap and buffers, or for environments in the host's thread the host's, which
 * they share; a worker's own `resourceLimits` cover its heap) and the 6 MB synchronous response
 * payload.
 */
import * as util from 'util';
import { getHeapStatistics } from 'v8';
import { EnvironmentExit, EnvironmentScope } from './environment-scope';
import { callHandler, checkHandlerStyle, describeError, Handler, loadHandler, RequireFile } from './handler';
import { lambdaContext, Settle } from './lambda-context';
import { EnvironmentConfig, RuntimeInvocation, RuntimeMessage } from './protocol';
import { installAwsLambdaGlobal, isStreamingHandler, runStreamingHandler } from './response-stream';
import { finishedEvent } from '../deferred-event';
import { MAX_RESPONSE_PAYLOAD_BYTES } from '../limits';
import type { ResponseSink } from '../response-sink';
import type { ErrorReport } from '../runtime-family';

/** Console methods and the level each line is tagged with. */
const LEVELS: ReadonlyArray<[keyof Console, string]> = [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']];

/** After an invocation, memory is checked at most this often (always after a slow one). */
const MEMORY_CHECK_MS = 20;

/** While invocations wait (a growing buffer between awaits), memory is checked this often. */
const MEMORY_POLL_MS = 200;

/** A running environment: takes batches of invocations; `dispose` ends what its code left running. */
export interface RuntimeHandle {
  receive(batch: RuntimeInvocation[]): void;
  dispose(): void;
}

/**
 * Starts an environment: `post` carries its message batches to the host, `exit` ends it.
 * In a worker thread (`scoped` false) console output is the thread's own, messages wait for the
 * end of the event loop's turn and go as one batch, and memory is the thread's heap. In the host's
 * thread (`scoped` true) the environment gets its own modules, console and timers
 * (environment-scope.ts), each message goes at once (the host batches for the server), and
 * `memory` tells whether the host, shared by its environments, holds too much.
 */
export function startRuntime(
  config: EnvironmentConfig,
  post: (batch: RuntimeMessage[]) => void,
  exit: (code: number) => void,
  scoped: false | { readonly memoryExceeded: (memoryMb: number) => number | undefined },
): RuntimeHandle {
  const outbox = new Outbox(post, scoped === false);
  installAwsLambdaGlobal();
  let environment: ExecutionEnvironment;
  let requireFile: RequireFile = require;
  let scope: EnvironmentScope | undefined;
  let guard: MemoryCheck;
  if (scoped === false) {
    captureConsole(outbox, () => environment.currentId);
    guard = new MemoryGuard(config.memoryMb, outbox, exit, threadUsedMb, true);
  } else {
    scope = new EnvironmentScope({
      log: (level, text) => outbox.send({ t: 'log', id: environment.currentId, level, text }),
      exit: (code) => exit(code),
    });
    requireFile = (file) => scope!.modules.load(file);
    // The host polls for its environments together (host.ts); each checks after its invocations.
    guard = new MemoryGuard(config.memoryMb, outbox, exit, scoped.memoryExceeded, false);
  }
  environment = new ExecutionEnvironment(config, outbox, guard, requireFile);
  environment.init();
  return { receive: (batch) => environment.receive(batch), dispose: () => scope?.dispose() };
}

/** Messages ready in one turn of the event loop go to the host as one batch, in order. */
class Outbox {
  private pending: RuntimeMessage[] = [];

  constructor(private readonly post: (batch: RuntimeMessage[]) => void, private readonly batched: boolean) {}

  send(message: RuntimeMessage): void {
    if (!this.batched) {
      this.post([message]);
      return;
    }
    if (this.pending.length === 0) {
      setImmediate(() => this.flush());
    }
    this.pending.push(message);
  }

  flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.post(batch);
    }
  }
}

/** Console output becomes log messages tagged with the running request's id. */
function captureConsole(outbox: Outbox, currentId: () => string | null): void {
  for (const [method, level] of LEVELS) {
    (console as any)[method] = (...args: unknown[]) => outbox.send({ t: 'log', id: currentId(), level, text: util.format(...args) });
  }
}

/** Checks memory after an invocation (`force`: now) and keeps checking while invocations wait. */
interface MemoryCheck {
  /** True when the environment was ended for its memory. */
  check(force?: boolean): boolean;
  poll(): void;
}

/**
 * Ends the environment when memory in use goes past its limit: `overLimit` gives the MB in use
 * when they exceed it (a worker: its own heap and buffers against `MemorySize`).
 */
class MemoryGuard implements MemoryCheck {
  private lastCheck = 0;

  constructor(
    private readonly memoryMb: number,
    private readonly outbox: Outbox,
    private readonly exit: (code: number) => void,
    private readonly overLimit: (memoryMb: number) => number | undefined,
    private readonly polls: boolean,
  ) {}

  /** Checks now, or with `force` false at most every {@link MEMORY_CHECK_MS}. */
  check(force = true): boolean {
    const now = performance.now();
    if (!force && now - this.lastCheck < MEMORY_CHECK_MS) {
      return false;
    }
    this.lastCheck = now;
    const used = this.overLimit(this.memoryMb);
    if (used !== undefined) {
      this.outbox.send({ t: 'out-of-memory', usedMb: Math.round(used) });
      this.outbox.flush();
      this.exit(137);
      return true;
    }
    return false;
  }

  /** Keeps checking while invocations wait. */
  poll(): void {
    if (this.polls) {
      setInterval(() => this.check(), MEMORY_POLL_MS).unref();
    }
  }
}

/** MB of heap and buffers of this thread, when over `memoryMb`. */
function threadUsedMb(memoryMb: number): number | undefined {
  const used = heapAndBuffersMb();
  return used > memoryMb ? used : undefined;
}

/** MB of heap and buffers this thread (an isolate) holds. */
export function heapAndBuffersMb(): number {
  const heap = getHeapStatistics();
  return (heap.used_heap_size + (heap as { external_memory?: number }).external_memory!) / (1024 * 1024);
}

/** Loads the handler, then runs the invocations it receives one at a time, in order. */
class ExecutionEnvironment {
  /** The request id of the running invocation (tags console output). */
  public currentId: string | null = null;
  private readonly queue: RuntimeInvocation[] = [];
  private running = false;
  private handler: Handler | undefined;
  /** Whether the handler is wrapped in `awslambda.streamifyResponse` (known once, at init). */
  private streaming = false;

  constructor(
    private readonly config: EnvironmentConfig,
    private readonly outbox: Outbox,
    private readonly memory: MemoryCheck,
    private readonly requireFile: RequireFile,
  ) {}

  /** Lambda's init: loads the handler module, then reports ready (or the init error). */
  init(): void {
    const { directory, handler, handlerStyle } = this.config;
    loadHandler(directory, handler, this.requireFile).then((loaded) => checkHandlerStyle(loaded, handlerStyle)).then((loaded) => {
      this.handler = loaded;
      this.streaming = isStreamingHandler(loaded);
      this.memory.poll();
      this.outbox.send({ t: 'ready' });
    }, (error) => {
      // process.exit at init has ended the environment already.
      if (!(error instanceof EnvironmentExit)) {
        this.outbox.send({ t: 'init-error', error: describeError(error) });
      }
    });
  }

  receive(batch: RuntimeInvocation[]): void {
    this.queue.push(...batch);
    if (!this.running) {
      void this.next();
    }
  }

  private async next(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0 && this.handler !== undefined) {
      const [id, event, streamed] = this.queue.shift()!;
      await this.runOne(this.handler, id, event, streamed === 1);
    }
    this.running = false;
  }

  private async runOne(handler: Handler, id: string, event: unknown, streamed: boolean): Promise<void> {
    this.currentId = id;
    const started = performance.now();
    const outcome = this.streaming ? await this.callStreaming(handler, id, event, streamed) : await this.call(handler, id, event);
    if (outcome === undefined) {
      // process.exit ended the environment: the host reports the invocation failed.
      this.queue.length = 0;
      return;
    }
    const { payload, error } = outcome;
    const ms = performance.now() - started;
    if (this.memory.check(ms >= MEMORY_CHECK_MS)) {
      this.queue.length = 0;
      return;
    }
    this.outbox.send({ t: 'result', id, payload, error, ms });
  }

  /** Runs the handler: its result as JSON text, or the error it ended with. */
  private async call(handler: Handler, id: string, event: unknown): Promise<{ payload?: string; error?: ErrorReport } | undefined> {
    try {
      // A deferred event is built here, in the function's process (../deferred-event.ts).
      const value = await callHandler(handler, finishedEvent(event), (settle) => this.contextFor(id, settle), this.config.handlerStyle);
      return checkedPayload(value === undefined ? undefined : JSON.stringify(value));
    } catch (thrown) {
      // What Lambda's Node.js runtime logs for an invocation that failed, stack included.
      return this.failed(id, thrown);
    }
  }

  /**
   * Runs a streaming handler (`awslambda.streamifyResponse`). For a caller that takes a stream its
   * chunks go to the host as written; for one that does not (a buffered invocation) the bytes are
   * gathered into the payload, within the synchronous response limit, as Lambda buffers them.
   */
  private async callStreaming(
    handler: Handler, id: string, event: unknown, streamed: boolean,
  ): Promise<{ payload?: string; error?: ErrorReport } | undefined> {
    const gathered: Buffer[] = [];
    const output: ResponseSink = streamed
      ? {
        start: (contentType) => this.outbox.send({ t: 'chunk', id, data: '', contentType }),
        write: (chunk) => this.outbox.send({ t: 'chunk', id, data: chunk.toString('base64') }),
      }
      : { start: () => undefined, write: (chunk) => gathered.push(Buffer.from(chunk)) };
    const warn = (text: string) => this.outbox.send({ t: 'log', id, level: 'WARN', text });
    try {
      await runStreamingHandler(handler as never, finishedEvent(event), this.contextFor(id), output, warn);
    } catch (thrown) {
      return this.failed(id, thrown);
    }
    return streamed ? {} : checkedPayload(Buffer.concat(gathered).toString('utf8'));
  }

  /** What a handler threw, as the invocation's error (logged as the runtime logs it); undefined for `process.exit`. */
  private failed(id: string, thrown: unknown): { error: ErrorReport } | undefined {
    if (thrown instanceof EnvironmentExit) {
      return undefined;
    }
    const error = describeError(thrown);
    this.outbox.send({ t: 'log', id, level: 'ERROR', text: `Invoke Error \t${JSON.stringify({ errorType: error.errorType, errorMessage: error.errorMessage, stack: error.trace })}` });
    return { error };
  }

  /** The Lambda context object of one invocation (`settle`: with the legacy `done`/`succeed`/`fail`). */
  private contextFor(id: string, settle?: Settle): Record<string, unknown> {
    return lambdaContext(this.config.context, id, Date.now() + this.config.timeoutMs, settle);
  }
}

/** The payload, or the error of one over the synchronous response limit. */
function checkedPayload(payload: string | undefined): { payload?: string; error?: ErrorReport } {
  // Byte length only when the text could be near the limit (UTF-8 is at most 3 bytes per UTF-16 unit).
  if (payload !== undefined && payload.length * 3 > MAX_RESPONSE_PAYLOAD_BYTES) {
    const bytes = Buffer.byteLength(payload);
    if (bytes > MAX_RESPONSE_PAYLOAD_BYTES) {
      return { error: responseTooLarge(bytes) };
    }
  }
  return { payload };
}

function responseTooLarge(bytes: number): ErrorReport {
  return {
    errorType: 'Function.ResponseSizeTooLarge',
    errorMessage: `Response payload size (${bytes} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_PAYLOAD_BYTES} bytes).`,
    trace: [],
  };
}
