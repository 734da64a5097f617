/**
 * What one Lambda execution environment runs, in a worker thread (runtime.ts) or in the runtime
 * host's own thread (host.ts). Like the Node.js runtime it loads the handler module once ("init"),
 * then runs one invocation at a time; console output is sent to the host tagged with the request id.
 *
 * Limits applied here: the function's `MemorySize` (heap and buffers of this environment, checked
 * while an invocation runs and after it; the worker's own `resourceLimits` cover the heap) and the
 * 6 MB synchronous response payload.
 */
import * as util from 'util';
import { getHeapStatistics } from 'v8';
import { callHandler, describeError, ErrorReport, Handler, loadHandler } from './handler';
import { buildEvent } from '../../rest/event';
import { MAX_RESPONSE_PAYLOAD_BYTES } from '../limits';
import { EnvironmentConfig, RuntimeInvocation, RuntimeMessage } from './protocol';

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
  /** Messages ready in one turn of the event loop go to the host as one batch, in order. */
  let outbox: RuntimeMessage[] = [];
  function flush(): void {
    const batch = outbox;
    outbox = [];
    if (batch.length > 0) {
      post(batch);
    }
  }
  function send(message: RuntimeMessage): void {
    if (!batched) {
      post([message]);
      return;
    }
    if (outbox.length === 0) {
      setImmediate(flush);
    }
    outbox.push(message);
  }
  let currentId: string | null = null;

  const LEVELS: Array<[keyof Console, string]> = [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']];
  for (const [method, level] of LEVELS) {
    (console as any)[method] = (...args: unknown[]) => send({ t: 'log', id: currentId, level, text: util.format(...args) });
  }

  /** MB of heap and buffers this environment holds. */
  function usedMb(): number {
    const heap = getHeapStatistics();
    return (heap.used_heap_size + (heap as { external_memory?: number }).external_memory!) / (1024 * 1024);
  }

  let lastCheck = 0;

  /** Ends the environment when it holds more than `MemorySize` (at most every 20 ms after invocations). */
  function checkMemory(force = true): void {
    const now = performance.now();
    if (!force && now - lastCheck < 20) {
      return;
    }
    lastCheck = now;
    const used = usedMb();
    if (used > config.memoryMb) {
      send({ t: 'out-of-memory', usedMb: Math.round(used) });
      flush();
      exit(137);
    }
  }

  function responseTooLarge(bytes: number): ErrorReport {
    return {
      errorType: 'Function.ResponseSizeTooLarge',
      errorMessage: `Response payload size (${bytes} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_PAYLOAD_BYTES} bytes).`,
      trace: [],
    };
  }

  async function runOne(handler: Handler, id: string, input: RuntimeInvocation[1]): Promise<void> {
    currentId = id;
    const deadline = Date.now() + config.timeoutMs;
    const context: Record<string, unknown> = {
      ...config.context,
      awsRequestId: id,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    let payload: string | undefined;
    let error: ErrorReport | undefined;
    const started = performance.now();
    try {
      const value = await callHandler(handler, buildEvent(input), context);
      payload = value === undefined ? undefined : JSON.stringify(value);
      // Byte length only when the text could be near the limit (UTF-8 is at most 3 bytes per UTF-16 unit).
      if (payload !== undefined && payload.length * 3 > MAX_RESPONSE_PAYLOAD_BYTES) {
        const bytes = Buffer.byteLength(payload);
        if (bytes > MAX_RESPONSE_PAYLOAD_BYTES) {
          payload = undefined;
          error = responseTooLarge(bytes);
        }
      }
    } catch (thrown) {
      error = describeError(thrown);
    }
    const ms = performance.now() - started;
    checkMemory(ms >= 20);
    send({ t: 'result', id, payload, error, ms });
  }

  const queue: RuntimeInvocation[] = [];
  let running = false;
  let handler: Handler | undefined;
  const next = async (): Promise<void> => {
    running = true;
    while (queue.length > 0 && handler !== undefined) {
      const [id, input] = queue.shift()!;
      await runOne(handler, id, input);
    }
    running = false;
  };
  loadHandler(config.directory, config.handler).then((loaded) => {
    handler = loaded;
    // Memory that an invocation holds while it waits (a growing buffer between awaits).
    setInterval(() => checkMemory(), 200).unref();
    send({ t: 'ready' });
  }, (error) => send({ t: 'init-error', error: describeError(error) }));
  return (batch) => {
    queue.push(...batch);
    if (!running) {
      void next();
    }
  };
}
