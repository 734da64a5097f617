/**
 * The server's side of a function's runtime host process (host.ts): starts it, batches commands
 * to it, dispatches what it reports, and tells when the whole process ended (and whether it was
 * for memory: V8 aborts the process when one allocation goes far past the heap limit). A host
 * that does not confirm an environment's stop in time is stuck (a handler looping in the host's
 * thread) and is ended, with every environment in it.
 */
import { ChildProcess, fork } from 'child_process';
import { entryFile } from './entry-file';
import { EnvironmentConfig, HostCommand, HostEvent, MAX_BATCH } from './protocol';
import { builderOf, EventBuilder, serializedPart } from '../deferred-event';
import type { ErrorReport } from '../runtime-family';

export interface RuntimeHostOptions {
  /** The function's environment variables (the host's, so every environment inherits them). */
  readonly environment: Record<string, string>;
  readonly config: EnvironmentConfig;
  /** The Node.js executable the host runs on (the function's major, see node-binaries.ts). */
  readonly node: string;
  readonly onReady: (id: number) => void;
  readonly onInitError: (id: number, error: ErrorReport) => void;
  readonly onLog: (id: number, requestId: string | null, level: string, text: string) => void;
  readonly onResult: (id: number, requestId: string, payload: string | undefined, error: ErrorReport | undefined, ms: number) => void;
  /** Bytes of a response stream; `contentType` with the first chunk. */
  readonly onChunk: (id: number, requestId: string, data: Buffer, contentType: string | undefined) => void;
  readonly onExit: (id: number, reason: string, outOfMemory: boolean) => void;
  /**
   * The host ended with its environments; `unstarted`: environments whose invocation was held back
   * while the host was suspected stuck (it never reached them, so they may run elsewhere).
   */
  readonly onHostExit: (host: RuntimeHost, reason: string, outOfMemory: boolean, unstarted: ReadonlySet<number>) => void;
}

/**
 * How long a host may take to confirm that it stopped an environment that timed out before it
 * counts as stuck in that environment's code. Invocations for its other environments wait that
 * long at most (their clock runs).
 */
const STOP_CONFIRM_MS = 250;

/** What V8 prints before aborting a process that ran out of heap. */
const FATAL_MEMORY = /heap out of memory|Allocation failed|invalid size error|invalid table size|invalid array length/i;

export class RuntimeHost {
  private readonly child: ChildProcess;
  private outbox: HostCommand[] = [];
  private stderrTail = '';
  /** Whether V8 said the host ran out of memory. */
  private fatalMemory = false;
  private exited = false;
  /** Environments asked to stop, with the timer that ends the host if it does not confirm. */
  private readonly stopping = new Map<number, NodeJS.Timeout>();
  /**
   * Invocations held back while a stop is unconfirmed: a host stuck in one environment's loop
   * cannot start them, and they must not fail with it.
   */
  private held: HostCommand[] = [];
  /** Event builders the host was told of (module constants, one object each), with their index. */
  private readonly builders = new Map<EventBuilder, number>();
  /** Whether any environment of this host got ready (a host that never did failed to start). */
  public everReady = false;

  constructor(private readonly options: RuntimeHostOptions) {
    this.child = fork(entryFile('host'), [], {
      execPath: options.node,
      env: options.environment,
      execArgv: hostHeapFlags(options.config.memoryMb),
      // JSON costs less than the structured clone of 'advanced' for these small messages.
      serialization: 'json',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // A process group of its own: ending the host ends what a handler started too (a handler that
      // spawns `sleep` and returns must not leave it running once the server stops). The host ends
      // by itself when the server's process goes (host.ts exits on disconnect).
      detached: true,
    });
    // What the environment in the host's own thread writes to the process's streams directly.
    this.child.stdout!.on('data', (chunk: Buffer) => this.forward('STDOUT', chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => {
      // Watched as it arrives: Node.js 22 prints kilobytes of native stack after the message.
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
      this.fatalMemory ||= FATAL_MEMORY.test(this.stderrTail);
      this.forward('STDERR', chunk);
    });
    this.child.on('message', (batch: HostEvent[]) => {
      for (const event of batch) {
        this.onEvent(event);
      }
    });
    this.child.on('error', () => this.onExit(null, null));
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
    this.send(['configure', options.config, entryFile('runtime')]);
  }

  /** Starts environment `id`. */
  start(id: number): void {
    this.send(['start', id]);
  }

  /** `streamed`: the caller takes a response stream (a streaming handler's chunks come as written). */
  invoke(id: number, requestId: string, event: unknown, streamed = false): void {
    const builder = builderOf(event);
    const command: HostCommand = ['invoke', id, requestId, streamed ? 1 : 0, builder === undefined ? -1 : this.builderIndex(builder), serializedPart(event)];
    if (this.stopping.size > 0) {
      this.held.push(command);
      return;
    }
    this.send(command);
  }

  /** The index the host knows `builder` by; the first time, the host is told. */
  private builderIndex(builder: EventBuilder): number {
    let index = this.builders.get(builder);
    if (index === undefined) {
      index = this.builders.size;
      this.builders.set(builder, index);
      this.send(['builder', index, builder]);
    }
    return index;
  }

  /**
   * Stops environment `id`. One that `timedOut` may hold the host's thread in a loop: a host that
   * does not confirm that stop in time is ended, and invocations for it wait until it answers.
   */
  stop(id: number, timedOut: boolean): void {
    if (this.exited) {
      return;
    }
    this.send(['stop', id]);
    if (!timedOut) {
      return;
    }
    const timer = setTimeout(() => this.killGroup(), STOP_CONFIRM_MS);
    timer.unref();
    this.stopping.set(id, timer);
  }

  /** SIGKILL to the host's process group: the host and every process its handlers started. */
  private killGroup(): void {
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // No group (the host never started, or a platform without process groups): the host alone.
      this.child.kill('SIGKILL');
    }
  }

  /** Sends what was held back once no stop is unconfirmed. */
  private releaseHeld(): void {
    if (this.stopping.size > 0 || this.held.length === 0) {
      return;
    }
    const held = this.held;
    this.held = [];
    for (const command of held) {
      this.send(command);
    }
  }

  /** Ends the process (the server is closing). */
  async close(): Promise<void> {
    if (this.exited) {
      return;
    }
    const ended = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.exited = true;
    this.killGroup();
    await ended;
  }

  /** What reached the host's own streams (not an environment's `console` or `process.stdout`): untagged. */
  private forward(level: string, chunk: Buffer): void {
    for (const line of chunk.toString('utf8').replace(/\n$/, '').split('\n')) {
      this.options.onLog(0, null, level, line);
    }
  }

  private send(command: HostCommand): void {
    if (this.outbox.length === 0) {
      setImmediate(() => this.flush());
    }
    this.outbox.push(command);
    if (this.outbox.length >= MAX_BATCH) {
      this.flush();
    }
  }

  private flush(): void {
    const batch = this.outbox;
    this.outbox = [];
    if (!this.exited && this.child.connected && batch.length > 0) {
      this.child.send(batch);
    }
  }

  private onEvent(event: HostEvent): void {
    switch (event[0]) {
      case 'ready':
        this.everReady = true;
        return this.options.onReady(event[1]);
      case 'init-error':
        return this.options.onInitError(event[1], event[2]);
      case 'log':
        return this.options.onLog(event[1], event[2], event[3], event[4]);
      case 'result':
        // JSON turns undefined into null.
        return this.options.onResult(event[1], event[2], event[3] ?? undefined, event[4] ?? undefined, event[5]);
      case 'chunk':
        return this.options.onChunk(event[1], event[2], Buffer.from(event[3], 'base64'), event[4] ?? undefined);
      case 'exit':
        return this.options.onExit(event[1], event[2], event[3]);
      case 'stopped':
        clearTimeout(this.stopping.get(event[1]));
        this.stopping.delete(event[1]);
        this.releaseHeld();
        return;
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) {
      return;
    }
    this.exited = true;
    for (const timer of this.stopping.values()) {
      clearTimeout(timer);
    }
    // Its environments are gone, so are the processes their handlers started (as on Lambda).
    this.killGroup();
    const reason = signal !== null ? `signal: ${signal}` : `exit status ${code}`;
    const unstarted = new Set(this.held.map((command) => command[1] as number));
    this.held = [];
    this.options.onHostExit(this, reason, this.fatalMemory, unstarted);
  }
}

/**
 * V8 heap flags of a host: its environments share one heap, so the old generation allows
 * `MemorySize` plus room for more environments (each is checked against `MemorySize` for each
 * environment by host.ts); a young generation sized from `MemorySize`: each request leaves its
 * event, context and result behind, and a larger semi-space collects them less often (4 MB: host
 * GC 13% of its time; 16 MB: about 4%). Under 50 connections the server and its hosts peaked at
 * 205 MB with 4 MB, 211 MB with 8 and 227 MB with 16, for CPU per request within the run's noise
 * of each other: 8 MB from 128 MB up.
 */
function hostHeapFlags(memoryMb: number): string[] {
  const oldSpaceMb = Math.max(2 * memoryMb, memoryMb + 512);
  const semiSpaceMb = Math.min(8, Math.max(4, Math.floor(memoryMb / 16)));
  return [`--max-old-space-size=${oldSpaceMb}`, `--max-semi-space-size=${semiSpaceMb}`];
}
