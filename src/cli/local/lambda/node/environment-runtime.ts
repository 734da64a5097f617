/**
 * What one Lambda execution environment runs, in a worker thread (runtime.ts) or in the runtime
 * host's own thread (host.ts). Like the Node.js runtime it loads the handler module once ("init"),
 * then runs one invocation at a time with the finished event it was given; console output is sent
 * to the host tagged with the request id.
 *
 * Limits applied here: the function's `MemorySize` (heap and buffers of this environment, checked
 * while an invocation runs and after it; the worker's own `resourceLimits` cover the heap) and the
 * 6 MB synchronous response payload.
 */
import * as util from 'util';
import { getHeapStatistics } from 'v8';
import { callHandler, checkHandlerStyle, describeError, Handler, loadHandler } from './handler';
import { EnvironmentConfig, RuntimeInvocation, RuntimeMessage } from './protocol';
import { finishedEvent } from '../deferred-event';
import { MAX_RESPONSE_PAYLOAD_BYTES } from '../limits';
import type { ErrorReport } from '../runtime-family';

/** Console methods and the level each line is tagged with. */
const LEVELS: ReadonlyArray<[keyof Console, string]> = [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']];

/** After an invocation, memory is checked at most this often (always after a slow one). */
const MEMORY_CHECK_MS = 20;

/** While invocations wait (a growing buffer between awaits), memory is checked this often. */
const MEMORY_POLL_MS = 200;

/**
 * Starts an environment: `post` carries its message batches to the host, `exit` ends it (a worker
 * thread, or the whole host process for the environment in the host's own thread). With `batched`
 * (a worker thread) messages wait for the end of the event loop's turn and go as one batch; without
 * (the host's own thread, which batches for the server itself) each goes at once, so the host can
 * pass results on while later invocations still run. Returns the function that takes batches of
 * invocations.
 */
export function startRuntime(
  config: EnvironmentConfig,
  post: (batch: RuntimeMessage[]) => void,
  exit: (code: number) => void,
  batched: boolean,
): (batch: RuntimeInvocation[]) => void {
  const outbox = new Outbox(post, batched);
  const environment = new ExecutionEnvironment(config, outbox, new MemoryGuard(config.memoryMb, outbox, exit));
  captureConsole(outbox, () => environment.currentId);
  environment.init();
  return (batch) => environment.receive(batch);
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

/** Ends the environment when it holds more than `MemorySize`. */
class MemoryGuard {
  private lastCheck = 0;

  constructor(private readonly memoryMb: number, private readonly outbox: Outbox, private readonly exit: (code: number) => void) {}

  /** Checks now, or with `force` false at most every {@link MEMORY_CHECK_MS}. */
  check(force = true): void {
    const now = performance.now();
    if (!force && now - this.lastCheck < MEMORY_CHECK_MS) {
      return;
    }
    this.lastCheck = now;
    const used = usedMb();
    if (used > this.memoryMb) {
      this.outbox.send({ t: 'out-of-memory', usedMb: Math.round(used) });
      this.outbox.flush();
      this.exit(137);
    }
  }

  /** Keeps checking while invocations wait. */
  poll(): void {
    setInterval(() => this.check(), MEMORY_POLL_MS).unref();
  }
}

/** MB of heap and buffers this environment holds. */
function usedMb(): number {
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

  constructor(private readonly config: EnvironmentConfig, private readonly outbox: Outbox, private readonly memory: MemoryGuard) {}

  /** Lambda's init: loads the handler module, then reports ready (or the init error). */
  init(): void {
    loadHandler(this.config.directory, this.config.handler).then((loaded) => checkHandlerStyle(loaded, this.config.handlerStyle)).then((loaded) => {
      this.handler = loaded;
      this.memory.poll();
      this.outbox.send({ t: 'ready' });
    }, (error) => this.outbox.send({ t: 'init-error', error: describeError(error) }));
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
      const [id, event] = this.queue.shift()!;
      await this.runOne(this.handler, id, event);
    }
    this.running = false;
  }

  private async runOne(handler: Handler, id: string, event: unknown): Promise<void> {
    this.currentId = id;
    const started = performance.now();
    const { payload, error } = await this.call(handler, id, event);
    const ms = performance.now() - started;
    this.memory.check(ms >= MEMORY_CHECK_MS);
    this.outbox.send({ t: 'result', id, payload, error, ms });
  }

  /** Runs the handler: its result as JSON text, or the error it ended with. */
  private async call(handler: Handler, id: string, event: unknown): Promise<{ payload?: string; error?: ErrorReport }> {
    try {
      // A deferred event is built here, in the function's process (../deferred-event.ts).
      const value = await callHandler(handler, finishedEvent(event), this.contextFor(id), this.config.handlerStyle);
      return checkedPayload(value === undefined ? undefined : JSON.stringify(value));
    } catch (thrown) {
      return { error: describeError(thrown) };
    }
  }

  /** The Lambda context object of one invocation. */
  private contextFor(id: string): Record<string, unknown> {
    const deadline = Date.now() + this.config.timeoutMs;
    return {
      ...this.config.context,
      awsRequestId: id,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
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
