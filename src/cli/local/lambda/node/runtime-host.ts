/**
 * The server's side of a function's runtime host process (host.ts): starts it, batches commands
 * to it, dispatches what it reports, and tells when the whole process ended (and whether it was
 * for memory: V8 aborts the process when one allocation goes far past the heap limit).
 */
import { ChildProcess, fork } from 'child_process';
import { entryFile } from './entry-file';
import { EnvironmentConfig, HostCommand, HostEvent, MAX_BATCH } from './protocol';
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
  readonly onExit: (id: number, reason: string, outOfMemory: boolean) => void;
  readonly onHostExit: (host: RuntimeHost, reason: string, outOfMemory: boolean) => void;
}

/** What V8 prints before aborting a process that ran out of heap. */
const FATAL_MEMORY = /heap out of memory|Allocation failed|invalid size error|invalid table size|invalid array length/i;

export class RuntimeHost {
  private readonly child: ChildProcess;
  private outbox: HostCommand[] = [];
  private stderrTail = '';
  private exited = false;
  /** The environment in the host's own thread (the first started). */
  private inlineId: number | undefined;
  /** Whether any environment of this host got ready (a host that never did failed to start). */
  public everReady = false;

  constructor(private readonly options: RuntimeHostOptions) {
    this.child = fork(entryFile('host'), [], {
      execPath: options.node,
      env: options.environment,
      // The heap of the host's thread is the inline environment's: MemorySize bounds it. A small
      // young generation keeps a busy host at about 75 MB instead of 200 (and costs less CPU).
      execArgv: [`--max-old-space-size=${Math.max(64, options.config.memoryMb)}`, '--max-semi-space-size=2'],
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
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
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

  /** Starts environment `id`; true when it runs in the host's own thread. */
  start(id: number): boolean {
    const inline = this.inlineId === undefined;
    if (inline) {
      this.inlineId = id;
    }
    this.send(['start', id, inline]);
    return inline;
  }

  invoke(id: number, requestId: string, event: unknown): void {
    this.send(['invoke', id, requestId, event]);
  }

  /** Stops environment `id`; for the inline one that means ending the host (it may be stuck in a loop). */
  stop(id: number): void {
    if (id === this.inlineId) {
      this.kill();
    } else {
      this.send(['stop', id]);
    }
  }

  private kill(): void {
    if (!this.exited) {
      this.killGroup();
    }
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

  private forward(level: string, chunk: Buffer): void {
    if (this.inlineId === undefined) {
      return;
    }
    for (const line of chunk.toString('utf8').replace(/\n$/, '').split('\n')) {
      this.options.onLog(this.inlineId, null, level, line);
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
      case 'exit':
        return this.options.onExit(event[1], event[2], event[3]);
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) {
      return;
    }
    this.exited = true;
    // Its environments are gone, so are the processes their handlers started (as on Lambda).
    this.killGroup();
    const reason = signal !== null ? `signal: ${signal}` : `exit status ${code}`;
    this.options.onHostExit(this, reason, FATAL_MEMORY.test(this.stderrTail));
  }
}
