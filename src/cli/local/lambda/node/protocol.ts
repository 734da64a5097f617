/**
 * Messages between the server, a function's runtime host process (host.ts) and the execution
 * environments inside it (in its thread, or worker threads running runtime.ts). Each side batches
 * what is ready in one turn of its event loop into one message (an array). Server and host exchange
 * JSON, where an undefined payload or error arrives as null. An event to be built where the
 * function runs (../deferred-event.ts) travels as its builder's input, the builder named once.
 */
import type { HandlerStyle } from './handler-style';
import type { EventBuilder } from '../deferred-event';
import type { ErrorReport, FunctionContext } from '../runtime-family';

/**
 * Most messages in one batch between server and host. A batch otherwise waits for the end of the
 * event loop's turn; under load a turn holds tens of requests, and sending them in slices lets
 * the other process start on the first ones while this one handles the rest. Each batch costs a
 * write to the channel (a system call and a wake-up of the other process): with an environment
 * per concurrent invocation, slices of 32 measured 62-65 µs of CPU per request against 71-73 for
 * slices of 8 (server and host together, 50 connections, 2 cores).
 */
export const MAX_BATCH = 32;

/** What an execution environment needs to start (its `workerData`). */
export interface EnvironmentConfig {
  /** Directory the handler path is relative to (`LAMBDA_TASK_ROOT`). */
  readonly directory: string;
  readonly handler: string;
  readonly timeoutMs: number;
  readonly memoryMb: number;
  /** The handler signatures the function's runtime accepts (see handler-style.ts). */
  readonly handlerStyle: HandlerStyle;
  readonly context: FunctionContext;
}

/** Server → host. */
export type HostCommand =
  /** Sent first: how to start this function's environments. */
  | readonly ['configure', EnvironmentConfig, string]
  /** Sent once before the first invocation whose event this builder makes (an index of this host's). */
  | readonly ['builder', number, EventBuilder]
  /** Start environment N. */
  | readonly ['start', number]
  /** Environment, request id, `1` when the caller takes a response stream, the builder's index or -1, the builder's input or the finished event. */
  | readonly ['invoke', number, string, 0 | 1, number, unknown]
  /** Retire or kill one environment. */
  | readonly ['stop', number];

/** Host → server. */
export type HostEvent =
  | readonly ['ready', number]
  | readonly ['init-error', number, ErrorReport]
  | readonly ['log', number, string | null, string, string]
  /** Request id, bytes of a response stream (base64), its content type with the first chunk. */
  | readonly ['chunk', number, string, string, string | null]
  /** Request id, payload JSON text, error, ms the handler took. */
  | readonly ['result', number, string, string | undefined | null, ErrorReport | undefined | null, number]
  /** The environment ended; `outOfMemory` when it went past the function's memory. */
  | readonly ['exit', number, string, boolean]
  /** The environment was stopped as the server asked (the host is not stuck in a loop). */
  | readonly ['stopped', number];

/**
 * Host → environment, in batches: one invocation (request id, the finished event; `1` when the
 * caller takes a response stream: a streaming handler's chunks go out as written).
 */
export type RuntimeInvocation = readonly [string, unknown] | readonly [string, unknown, 1];

/** Environment → host, in batches. */
export type RuntimeMessage =
  | { readonly t: 'ready' }
  | { readonly t: 'init-error'; readonly error: ErrorReport }
  | { readonly t: 'log'; readonly id: string | null; readonly level: string; readonly text: string }
  /** Bytes a streaming handler wrote (base64); `contentType` with the first chunk (empty data: the stream ended without a write). */
  | { readonly t: 'chunk'; readonly id: string; readonly data: string; readonly contentType?: string }
  | { readonly t: 'result'; readonly id: string; readonly payload: string | undefined; readonly error: ErrorReport | undefined; readonly ms: number }
  /** Memory in use went past the function's `MemorySize`: the environment ends. */
  | { readonly t: 'out-of-memory'; readonly usedMb: number };
