/**
 * SIGINT and SIGTERM while the sandbox runs: the first one aborts what is running (a synth stops
 * its app's whole process group, see synth-runner.ts) instead of killing the CLI and leaving the
 * app behind in a process group of its own.
 */
import * as os from 'os';

export interface StopSignals {
  /** Aborted on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Resolves with the first signal received. */
  readonly stopped: Promise<NodeJS.Signals>;
  /** The signal received, if any. */
  received(): NodeJS.Signals | undefined;
  /** Removes the listeners: a later signal acts as it would without them. */
  dispose(): void;
}

export function listenForStop(warn: (line: string) => void): StopSignals {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  let resolveStopped: (signal: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<NodeJS.Signals>((resolve) => { resolveStopped = resolve; });
  const dispose = () => {
    process.removeListener('SIGINT', onInt);
    process.removeListener('SIGTERM', onTerm);
  };
  const stop = (signal: NodeJS.Signals) => {
    dispose();
    received = signal;
    warn(`${signal}, stopping`);
    controller.abort();
    resolveStopped(signal);
  };
  const onInt = () => stop('SIGINT');
  const onTerm = () => stop('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return { signal: controller.signal, stopped, received: () => received, dispose };
}

/** The exit status of a command ended by `signal`, as shells report it: 128 + its number. */
export function signalExitStatus(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}
