/**
 * The contract between the function pools (function-pool.ts) and a runtime family: the code that
 * knows how functions of some Lambda runtimes (Node.js today) load and run. A family starts
 * execution environments for one function, hands them finished events and reports what they do;
 * the pools decide when to start, feed, retire and stop them. Families register in
 * runtime-families.ts. This module imports none of its users.
 */
import type { FunctionSpec } from '../model/function-spec';

/** An error as a Lambda runtime reports it (`errorType`, `errorMessage`, `trace`). */
export interface ErrorReport {
  readonly errorType: string;
  readonly errorMessage: string;
  readonly trace: readonly string[];
}

/** The Lambda context fields sent with each invocation. */
export interface InvokeContext {
  readonly awsRequestId: string;
  /**
   * The caller takes a response stream (a function URL in `RESPONSE_STREAM` mode, a REST method
   * with `ResponseTransferMode: STREAM`): a streaming handler's bytes are reported as written
   * ({@link EnvironmentEvents.chunk}). A family without response streaming ignores it.
   */
  readonly streamed?: boolean;
}

/** Where the app being served lives, for what a family looks for around it. */
export interface AppContext {
  /** The CDK app's folder (where `cdk.json` is); undefined when not known (tests). */
  readonly appFolder?: string;
  /** The shell's environment. */
  readonly shell: NodeJS.ProcessEnv;
  /**
   * Run every function on this machine's own runtime (`--node host`) rather than on the version
   * its Lambda runtime names.
   */
  readonly hostRuntimes?: boolean;
  /** A line about slow work before the first request (a runtime being fetched). */
  readonly progress?: (line: string) => void;
}

/** What serve announces about a family's functions before the first request. */
export interface RuntimeNotices {
  /** One line each, without a prefix. */
  readonly warnings: string[];
  /** Function key → what its routes are marked with in the listing. */
  readonly notes: Map<string, string>;
}

/** Environment variables a family defines for its functions (see function-environment.ts). */
export interface RuntimeVariables {
  /** Layered over the shell's, under the template's (a search path the runtime reads). */
  readonly base: Readonly<Record<string, string>>;
  /** Defined by the runtime itself: neither the template nor `--env-vars` changes them. */
  readonly reserved: Readonly<Record<string, string>>;
}

/** The part of the Lambda context object that is the same for every invocation of a function. */
export interface FunctionContext {
  readonly functionName: string;
  readonly functionVersion: string;
  readonly invokedFunctionArn: string;
  readonly memoryLimitInMB: string;
  readonly logGroupName: string;
  readonly logStreamName: string;
}

/** What a family needs to run one function's environments. */
export interface FunctionRuntimeInput {
  readonly fn: FunctionSpec;
  /** The folder the code runs from (`LAMBDA_TASK_ROOT`). */
  readonly taskRoot: string;
  /** Every environment variable the function sees. */
  readonly environment: Readonly<Record<string, string>>;
  readonly context: FunctionContext;
}

/** What a function's environments report, each by the id the pool started it with. */
export interface EnvironmentEvents {
  /** Init finished: the environment takes invocations. */
  ready(id: number): void;
  /** Init failed (the handler could not load): the environment is gone. */
  initError(id: number, error: ErrorReport): void;
  /** A line of console output; `requestId` null when the environment did not tag it. */
  log(id: number, requestId: string | null, level: string, text: string): void;
  /** An invocation ended: its JSON payload (undefined when the handler returned nothing) or its error, and the ms it took. */
  result(id: number, requestId: string, payload: string | undefined, error: ErrorReport | undefined, ms: number): void;
  /**
   * Bytes a streaming handler wrote for a caller that takes a stream; `contentType` with the first
   * report (whose bytes may be empty: the stream ended without a write).
   */
  chunk(id: number, requestId: string, data: Buffer, contentType: string | undefined): void;
  /**
   * Environments ended together (one, or every one of a process that died), with the reason and
   * whether it was for memory. `ownFault`: they ended of their own (an environment that dies while
   * starting then fails the invocation that waited for it), not taken down by another's crash.
   */
  exited(ids: readonly number[], reason: string, outOfMemory: boolean, ownFault: boolean): void;
  /** Environments ended before they started the invocation they were given: it may run in another. */
  unstarted(ids: readonly number[]): void;
}

/** One execution environment: runs the invocations it is given, one at a time, in order. */
export interface RuntimeEnvironment {
  /**
   * False when stopping this environment ends others too (Node.js: the one in its host's own
   * thread): it is never retired for being idle.
   */
  readonly retirable: boolean;
  /**
   * Queues an invocation with a finished event (a plain JSON value), or a deferred one
   * (deferred-event.ts) that the environment builds with `finishedEvent` before the handler runs.
   */
  invoke(event: unknown, context: InvokeContext): void;
  /**
   * Ends the environment now, whatever it is doing. `timedOut`: its invocation ran past the
   * function's timeout, so its code may be holding its thread.
   */
  stop(timedOut?: boolean): void;
}

/** One function's environments as a family runs them. */
export interface RunningFunction {
  /** Starts environment `id`; it reports through the {@link EnvironmentEvents} given at the start. */
  startEnvironment(id: number): RuntimeEnvironment;
  /** Ends every environment and whatever holds them. */
  close(): Promise<void>;
}

/** A runtime family: the runtimes it runs, what it announces at start, and how it runs a function. */
export interface RuntimeFamily {
  /** For people: `Node.js`. */
  readonly name: string;
  /** The runtime names' stem, for messages: `nodejs`. */
  readonly runtimePrefix: string;
  /** The file an inline function's source (`Code.ZipFile`) is written to, as Lambda names it (`index.js`). */
  readonly inlineCodeFile: string;
  /**
   * Most environments of one function starting at once (more wait for them): as many as starting
   * them costs little.
   * @default 8
   */
  readonly startsAtOnce?: number;
  /** Whether this family runs a Lambda `Runtime` (`nodejs22.x`). */
  supports(runtime: string): boolean;
  /**
   * Why a runtime it supports cannot run on this machine (no interpreter), or undefined when it can.
   * @default - always available
   */
  unavailable?(runtime: string): string | undefined;
  /** Start-up warnings and listing notes for the family's runnable functions. */
  notices(functions: readonly FunctionSpec[], app: Required<AppContext>): RuntimeNotices;
  /** The environment variables the family adds for its functions. */
  variables(app: AppContext): RuntimeVariables;
  /** Starts running one function: nothing runs until the pool starts an environment. */
  start(input: FunctionRuntimeInput, events: EnvironmentEvents): RunningFunction;
}
