/**
 * One Python execution environment: a process of its own running bootstrap.py (one invocation at
 * a time, in the order sent), in a process group of its own so that it ends with everything it
 * started. Frames go over fds 3 and 4 (frames.ts); what the process or its children write to
 * stdout and stderr directly reaches the terminal untagged.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import { Readable, Writable } from 'stream';
import { BOOTSTRAP_FILE } from './bootstrap-file';
import { encodeFrame, FrameReader, PythonEvent } from './frames';
import { finishedEvent } from '../deferred-event';
import type { EnvironmentEvents, FunctionContext, InvokeContext, RuntimeEnvironment } from '../runtime-family';

/** What bootstrap.py reads from its argument. */
export interface PythonConfig {
  readonly handler: string;
  readonly timeoutMs: number;
  readonly memoryMb: number;
  readonly maxResponseBytes: number;
  readonly context: FunctionContext;
}

export interface PythonEnvironmentOptions {
  readonly id: number;
  /** The interpreter command. */
  readonly python: string;
  readonly taskRoot: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly config: PythonConfig;
  readonly events: EnvironmentEvents;
  /** The process ended (whatever the reason). */
  readonly onEnd?: () => void;
}

/**
 * While an invocation runs, the process's resident memory is read this often; past `MemorySize`
 * the environment is ended as Lambda ends it (bootstrap.py checks the peak after each invocation,
 * which catches what falls between two reads).
 */
const MEMORY_POLL_MS = 100;

/** What Python prints when memory ran out where the bootstrap could not catch it. */
const FATAL_MEMORY = /MemoryError|Cannot allocate memory/;

export class PythonEnvironment implements RuntimeEnvironment {
  readonly retirable = true;
  private readonly child: ChildProcess;
  private readonly commands: Writable;
  /** Stopped by the pool, or ended after an init error: its exit is not reported. */
  private settled = false;
  private outOfMemory = false;
  private stderrTail = '';
  private eventsClosed = false;
  private exitReason: string | undefined;
  /** Invocations sent and not answered. */
  private inflight = 0;
  private memoryPoll: NodeJS.Timeout | undefined;

  constructor(private readonly options: PythonEnvironmentOptions) {
    // -B: no __pycache__ in the code folder (Lambda's task root is read-only; a new file there
    // would look like a code change to reload).
    this.child = spawn(options.python, ['-B', BOOTSTRAP_FILE, JSON.stringify(options.config)], {
      cwd: options.taskRoot,
      env: { ...options.environment },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.commands = this.child.stdio[3] as Writable;
    this.commands.on('error', () => undefined);
    const reader = new FrameReader((message) => this.onEvent(message as PythonEvent));
    const events = this.child.stdio[4] as Readable;
    events.on('data', (chunk: Buffer) => reader.push(chunk));
    events.on('close', () => {
      this.eventsClosed = true;
      this.reportExit();
    });
    this.forwardLines(this.child.stdout!, 'STDOUT');
    this.forwardLines(this.child.stderr!, 'STDERR');
    this.child.on('error', (error) => this.onExit(`${error.message}`));
    this.child.on('exit', (code, signal) => this.onExit(signal !== null ? `signal: ${signal}` : `exit status ${code}`));
  }

  invoke(event: unknown, context: InvokeContext): void {
    this.inflight++;
    this.memoryPoll ??= setInterval(() => this.checkMemory(), MEMORY_POLL_MS);
    this.commands.write(encodeFrame(['invoke', context.awsRequestId, finishedEvent(event)]));
  }

  /** Ends the environment when its resident memory is past `MemorySize` (Linux: read from /proc). */
  private checkMemory(): void {
    const pid = this.child.pid;
    if (pid === undefined || process.platform !== 'linux') {
      return;
    }
    fs.readFile(`/proc/${pid}/status`, 'utf8', (error, status) => {
      const kb = error ? undefined : Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      if (kb !== undefined && kb / 1024 > this.options.config.memoryMb && this.exitReason === undefined) {
        this.outOfMemory = true;
        this.killGroup();
      }
    });
  }

  private stopMemoryPoll(): void {
    clearInterval(this.memoryPoll);
    this.memoryPoll = undefined;
  }

  stop(): void {
    this.settled = true;
    this.stopMemoryPoll();
    this.killGroup();
  }

  /** Ends the process and whatever it started (the server is closing). */
  async close(): Promise<void> {
    this.settled = true;
    if (this.exitReason === undefined && this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.killGroup();
      await exited;
    } else {
      this.killGroup();
    }
  }

  private killGroup(): void {
    if (this.child.pid === undefined) {
      return;
    }
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  }

  private forwardLines(stream: Readable, level: string): void {
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      if (level === 'STDERR') {
        this.stderrTail = text.slice(-4096);
      }
      const lines = text.split('\n');
      partial = lines.pop()!;
      lines.forEach((line) => this.options.events.log(this.options.id, null, level, line));
    });
    stream.on('end', () => {
      if (partial !== '') {
        this.options.events.log(this.options.id, null, level, partial);
      }
    });
  }

  private onEvent(event: PythonEvent): void {
    const { id, events } = this.options;
    switch (event[0]) {
      case 'ready':
        return events.ready(id);
      case 'init-error':
        this.settled = true;
        return events.initError(id, event[1]);
      case 'log':
        return events.log(id, event[1], event[2], event[3]);
      case 'result':
        if (--this.inflight === 0) {
          this.stopMemoryPoll();
        }
        return events.result(id, event[1], event[2] ?? undefined, event[3] ?? undefined, event[4]);
      case 'out-of-memory':
        this.outOfMemory = true;
        return;
    }
  }

  /** The process ended: its children go with it; reported once every frame it sent was read. */
  private onExit(reason: string): void {
    if (this.exitReason !== undefined) {
      return;
    }
    this.exitReason = reason;
    this.stopMemoryPoll();
    this.killGroup();
    this.options.onEnd?.();
    this.reportExit();
  }

  private reportExit(): void {
    if (this.exitReason === undefined || !this.eventsClosed || this.settled) {
      return;
    }
    this.settled = true;
    const outOfMemory = this.outOfMemory || FATAL_MEMORY.test(this.stderrTail);
    this.options.events.exited([this.options.id], this.exitReason, outOfMemory, true);
  }
}
