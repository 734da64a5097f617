/**
 * What one execution environment's code sees as its own while sharing the runtime host's thread
 * with the function's other environments: `console` and `process.stdout/stderr` tagged with its
 * running request, `process.exit` ending this environment only, timers and child processes it can
 * be ended with, and a `global` whose writes stay its own. Its modules (scoped-modules.ts) receive
 * these as the free names of their wrapper.
 */
import * as childProcess from 'child_process';
import { Console } from 'console';
import * as fs from 'fs';
import * as util from 'util';
import { ScopedModules } from './scoped-modules';

/** Where the environment's output and exit go. */
export interface ScopeHooks {
  /** One or more lines written by the environment (`level`: INFO, WARN, ..., STDOUT, STDERR). */
  log(level: string, text: string): void;
  /** The environment's code called `process.exit(code)`: the environment ends. */
  exit(code: number): void;
}

/** Thrown by an environment's `process.exit` to stop its code where it is. */
export class EnvironmentExit extends Error {
  constructor(public readonly code: number) {
    super(`process.exit(${code})`);
    this.name = 'EnvironmentExit';
  }
}

/** Console methods whose lines Lambda's runtime tags with a level. */
const LEVELS: ReadonlyArray<[string, string]> = [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']];

type TimerCallback = (...args: unknown[]) => void;

export class EnvironmentScope {
  /** The environment's modules. */
  public readonly modules: ScopedModules;
  private readonly timeouts = new Set<NodeJS.Timeout>();
  private readonly immediates = new Set<NodeJS.Immediate>();
  private readonly children = new Set<childProcess.ChildProcess>();
  private ended = false;

  constructor(private readonly hooks: ScopeHooks) {
    const console = this.console();
    const process = this.process();
    const timers = this.timers();
    const global = this.global({ console, process, ...timers });
    this.modules = new ScopedModules(
      { console, process, global, globalThis: global, ...timers },
      new Map<string, unknown>([['process', process], ['console', console], ['child_process', this.childProcess()]]),
    );
  }

  /** Ends what the environment left running: its timers, and the process trees it started. */
  dispose(): void {
    this.ended = true;
    for (const timeout of this.timeouts) {
      clearTimeout(timeout);
    }
    for (const immediate of this.immediates) {
      clearImmediate(immediate);
    }
    this.timeouts.clear();
    this.immediates.clear();
    for (const child of this.children) {
      killTree(child.pid);
    }
    this.children.clear();
  }

  private write(level: string): (chunk: unknown, encoding?: unknown, done?: unknown) => boolean {
    return (chunk, encoding, done) => {
      if (!this.ended) {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8');
        this.hooks.log(level, text.replace(/\n$/, ''));
      }
      const callback = typeof encoding === 'function' ? encoding : done;
      if (typeof callback === 'function') {
        queueMicrotask(() => (callback as () => void)());
      }
      return true;
    };
  }

  /** `process.stdout` / `process.stderr` whose writes are the environment's log lines. */
  private stream(stream: NodeJS.WriteStream, level: string): NodeJS.WriteStream {
    const write = this.write(level);
    return new Proxy(stream, { get: (target, key) => (key === 'write' ? write : Reflect.get(target, key)) });
  }

  private console(): Console {
    const stdout = this.stream(globalThis.process.stdout, 'STDOUT');
    const stderr = this.stream(globalThis.process.stderr, 'STDERR');
    const console = new Console({ stdout, stderr });
    for (const [method, level] of LEVELS) {
      (console as any)[method] = (...args: unknown[]) => {
        if (!this.ended) {
          this.hooks.log(level, util.format(...args));
        }
      };
    }
    return console;
  }

  private process(): NodeJS.Process {
    const stdout = this.stream(globalThis.process.stdout, 'STDOUT');
    const stderr = this.stream(globalThis.process.stderr, 'STDERR');
    const exit = (code?: number | string | null) => {
      const status = Number(code ?? globalThis.process.exitCode ?? 0) || 0;
      this.hooks.exit(status);
      throw new EnvironmentExit(status);
    };
    const own: Record<string | symbol, unknown> = { stdout, stderr, exit };
    return new Proxy(globalThis.process, {
      get: (target, key) => (key in own ? own[key] : Reflect.get(target, key)),
    });
  }

  /** `global`: reads fall through to the host's globals, writes stay the environment's. */
  private global(own: Record<string, unknown>): typeof globalThis {
    const values: Record<string | symbol, unknown> = Object.assign(Object.create(null), own);
    const view: typeof globalThis = new Proxy(globalThis, {
      get: (target, key) => (key === 'global' || key === 'globalThis' ? view : key in values ? values[key] : Reflect.get(target, key)),
      set: (_target, key, value) => {
        values[key] = value;
        return true;
      },
      has: (target, key) => key in values || Reflect.has(target, key),
      deleteProperty: (_target, key) => delete values[key],
    });
    return view;
  }

  /** Timers the environment is ended with. */
  private timers(): Record<string, unknown> {
    const { timeouts, immediates } = this;
    const scopedTimeout = (callback: TimerCallback, ms?: number, ...args: unknown[]) => {
      const timeout = setTimeout(() => {
        timeouts.delete(timeout);
        callback(...args);
      }, ms);
      timeouts.add(timeout);
      return timeout;
    };
    (scopedTimeout as any)[util.promisify.custom] = (ms?: number, value?: unknown) => new Promise((resolve) => scopedTimeout(resolve, ms, value));
    const scopedInterval = (callback: TimerCallback, ms?: number, ...args: unknown[]) => {
      const interval = setInterval(callback, ms, ...args);
      timeouts.add(interval);
      return interval;
    };
    const scopedImmediate = (callback: TimerCallback, ...args: unknown[]) => {
      const immediate = setImmediate(() => {
        immediates.delete(immediate);
        callback(...args);
      });
      immediates.add(immediate);
      return immediate;
    };
    (scopedImmediate as any)[util.promisify.custom] = (value?: unknown) => new Promise((resolve) => scopedImmediate(resolve, value));
    const clear = (timeout: NodeJS.Timeout | undefined) => {
      clearTimeout(timeout);
      timeouts.delete(timeout!);
    };
    return {
      setTimeout: scopedTimeout,
      setInterval: scopedInterval,
      setImmediate: scopedImmediate,
      clearTimeout: clear,
      clearInterval: clear,
      clearImmediate: (immediate: NodeJS.Immediate | undefined) => {
        clearImmediate(immediate);
        immediates.delete(immediate!);
      },
    };
  }

  /** `child_process` whose asynchronous children are ended with the environment. */
  private childProcess(): typeof childProcess {
    const track = <T extends childProcess.ChildProcess>(child: T): T => {
      this.children.add(child);
      child.once('exit', () => this.children.delete(child));
      return child;
    };
    const wrap = (name: 'spawn' | 'exec' | 'execFile' | 'fork') => {
      const original = childProcess[name] as (...args: unknown[]) => childProcess.ChildProcess;
      const wrapped = (...args: unknown[]) => track(original(...args));
      const promised = (original as any)[util.promisify.custom];
      if (typeof promised === 'function') {
        (wrapped as any)[util.promisify.custom] = (...args: unknown[]) => {
          const promise = promised(...args);
          if (promise.child !== undefined) {
            track(promise.child);
          }
          return promise;
        };
      }
      return wrapped;
    };
    const own = { spawn: wrap('spawn'), exec: wrap('exec'), execFile: wrap('execFile'), fork: wrap('fork') };
    return { ...childProcess, ...own } as unknown as typeof childProcess;
  }
}

/** SIGKILL to a process and every process below it (Linux: read from /proc; elsewhere the process alone). */
function killTree(pid: number | undefined): void {
  if (pid === undefined) {
    return;
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    all.push(...childrenOf(all[i]));
  }
  for (const each of all) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      try {
        return fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}
