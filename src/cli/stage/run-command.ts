/**
 * Runs the build command with the terminal's stdio, its signals relayed.
 */
import { spawn } from 'child_process';
import { CliError } from '../command';
import { signalStatus, SignalRelay } from './signals';

/** Resolves to the command's exit status as a shell reports it (128+N when a signal ended it). */
export function runCommand(commandLine: string[], relay: SignalRelay): Promise<number> {
  const [program, ...args] = commandLine;
  return new Promise((resolve, reject) => {
    let settled = false;
    const child = spawn(program, args, { stdio: 'inherit' });
    relay.attach(child);
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) {
        return;
      }
      settled = true;
      relay.attach(undefined);
      const notFound = error.code === 'ENOENT';
      reject(new CliError(
        `cannot start '${program}': ${notFound ? 'command not found' : error.code ?? error.message}`,
        notFound ? 127 : 126,
      ));
    });
    child.on('exit', (code, signal) => {
      if (settled) {
        return;
      }
      settled = true;
      relay.attach(undefined);
      resolve(code ?? (signal ? signalStatus(signal) : 1));
    });
  });
}
