/**
 * Signals that end stage: forwarded to the running command, and remembered so that stage
 * restores the index, then ends the way a shell expects of a process stopped by that signal.
 */
import { ChildProcess } from 'child_process';
import * as os from 'os';

/**
 * Every signal whose default action ends a process and that a process can catch, except:
 * SIGKILL and SIGSTOP (cannot be caught); SIGSEGV, SIGBUS, SIGFPE and SIGILL (when real, Node
 * cannot safely run JavaScript after them); SIGPROF (V8's CPU profiler uses it). SIGIO ends a
 * process only on Linux.
 */
const CANDIDATES = [
  'SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTRAP', 'SIGABRT', 'SIGEMT', 'SIGUSR1', 'SIGUSR2', 'SIGPIPE', 'SIGALRM',
  'SIGTERM', 'SIGSTKFLT', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM', 'SIGPWR', 'SIGLOST', 'SIGSYS',
  ...(process.platform === 'linux' ? ['SIGIO'] : []),
];

/** The signals stage forwards, one name per signal number, as this system has them. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = (() => {
  const numbers = new Set<number>();
  const signals: NodeJS.Signals[] = [];
  for (const name of CANDIDATES) {
    const number = (os.constants.signals as Record<string, number | undefined>)[name];
    if (number !== undefined && !numbers.has(number)) {
      numbers.add(number);
      signals.push(name as NodeJS.Signals);
    }
  }
  return signals;
})();

/**
 * Signals stage ends by exiting with 128+N rather than by raising them again: those that dump
 * core (a core file of stage helps nobody), SIGUSR1 (Node starts its inspector on it) and SIGPIPE
 * (Node ignores it).
 */
const EXIT_INSTEAD = new Set(['SIGQUIT', 'SIGTRAP', 'SIGABRT', 'SIGEMT', 'SIGSYS', 'SIGXCPU', 'SIGXFSZ', 'SIGUSR1', 'SIGPIPE']);

/** The status a shell reports for a process ended by `signal`. */
export function signalStatus(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

/** Forwards signals to the running command and remembers the first one. */
export class SignalRelay {
  public received: NodeJS.Signals | undefined;
  private child: ChildProcess | undefined;
  private readonly handlers = new Map<NodeJS.Signals, () => void>();

  public install(): void {
    for (const signal of FORWARDED_SIGNALS) {
      const handler = () => {
        this.received ??= signal;
        if (this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
          this.child.kill(signal);
        }
      };
      this.handlers.set(signal, handler);
      process.on(signal, handler);
    }
  }

  public attach(child: ChildProcess | undefined): void {
    this.child = child;
  }

  public uninstall(): void {
    for (const [signal, handler] of this.handlers) {
      process.removeListener(signal, handler);
    }
    this.handlers.clear();
  }
}

/**
 * Ends stage as `signal` would have (call after {@link SignalRelay.uninstall}), so a parent
 * shell sees the interruption; returns the 128+N status for where the signal does not end it.
 */
export function endBySignal(signal: NodeJS.Signals): number {
  if (!EXIT_INSTEAD.has(signal)) {
    process.kill(process.pid, signal);
  }
  return signalStatus(signal);
}
