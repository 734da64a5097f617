/**
 * Which Python runs a `python3.x` function: the `python3.x` command when this machine has one that
 * works (pyenv's shims exist for versions not selected and fail), else `python3` (or `python`)
 * with a warning that the versions differ. Each command is asked for its version once per process.
 */
import { spawnSync } from 'child_process';

export interface PythonInterpreter {
  /** The command to run: the interpreter's own path (a pyenv shim costs about 100 ms per start). */
  readonly command: string;
  /** The name it was found by on PATH (`python3.11`), for messages. */
  readonly name: string;
  /** `3.11`. */
  readonly version: string;
}

const probed = new Map<string, PythonInterpreter | undefined>();

/** Runs `command` for its `major.minor`; undefined when it does not run. */
function probe(command: string): PythonInterpreter | undefined {
  if (!probed.has(command)) {
    const script = 'import sys; print("%d.%d" % sys.version_info[:2]); print(sys.executable)';
    const result = spawnSync(command, ['-c', script], { encoding: 'utf8', timeout: 10_000, env: process.env });
    const match = result.status === 0 ? /^(\d+\.\d+)\n(.+)\n?$/.exec(result.stdout ?? '') : null;
    probed.set(command, match === null ? undefined : { command: match[2] === '' ? command : match[2], name: command, version: match[1] });
  }
  return probed.get(command);
}

/** `3.12` of `python3.12`; undefined for a name that does not have that form. */
export function pythonVersionOf(runtime: string): string | undefined {
  return /^python(\d+\.\d+)$/.exec(runtime)?.[1];
}

/** This machine's default Python 3 (`python3`, else `python` when it is 3.x). */
export function hostPython(): PythonInterpreter | undefined {
  const python3 = probe('python3');
  if (python3 !== undefined) {
    return python3;
  }
  const python = probe('python');
  return python?.version.startsWith('3.') ? python : undefined;
}

/** The Python a function of `runtime` runs on: its own version when installed, else the host's. */
export function pythonFor(runtime: string): PythonInterpreter | undefined {
  const version = pythonVersionOf(runtime);
  const own = version === undefined ? undefined : probe(`python${version}`);
  return own ?? hostPython();
}
