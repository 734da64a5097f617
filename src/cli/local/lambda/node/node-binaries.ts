/**
 * Which Node.js runs a function: the major its runtime names (`nodejs22.x` → Node.js 22), as on
 * Lambda. This machine's Node.js runs the functions of its own major; another major comes from
 * Node.js's official builds on the npm registry (the `node-<platform>-<arch>` package at that
 * major's newest version), fetched once into a per-user cache and reused. `--node host` (or no
 * registry) runs every function on this machine's Node.js instead, with a warning.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** `runtime`: each major on its own Node.js; `host`: everything on this machine's. */
export type NodeChoice = 'runtime' | 'host';

/** A Node.js executable and its version (`v22.23.3`). */
export interface NodeBinary {
  readonly path: string;
  readonly version: string;
}


/** How long one fetch from the registry may take. */
const FETCH_TIMEOUT_MS = 180_000;

/** The host's own Node.js. */
export function hostNode(): NodeBinary {
  return { path: process.execPath, version: process.version };
}

/** `nodejs22.x` → 22; other runtimes → undefined. */
export function nodeMajorOf(runtime: string): number | undefined {
  const match = /^nodejs(\d+)\.x$/.exec(runtime);
  return match === null ? undefined : Number(match[1]);
}

/** `v22.23.3` → 22. */
export function majorOf(version: string): number {
  return Number(/^v?(\d+)/.exec(version)?.[1]);
}

/** The Node.js chosen for each major in this process (by {@link chooseNodeBinaries}). */
const chosen = new Map<number, NodeBinary>();

/** The Node.js that runs functions of `major`: the one chosen at start, else this machine's. */
export function nodeBinaryFor(major: number | undefined): NodeBinary {
  return (major === undefined ? undefined : chosen.get(major)) ?? hostNode();
}

/**
 * Chooses the Node.js of each major, fetching the ones not cached yet (`progress` says so first:
 * the fetch blocks). Returns the majors that run on this machine's Node.js instead, with why.
 */
export function chooseNodeBinaries(
  majors: readonly number[], choice: NodeChoice, shell: NodeJS.ProcessEnv, progress: (line: string) => void,
): Map<number, string> {
  /** Major → why it runs on this machine's Node.js. */
  const fallbacks = new Map<number, string>();
  const host = hostNode();
  for (const major of new Set(majors)) {
    if (major === majorOf(host.version)) {
      continue;
    }
    const own = choice === 'host' ? { reason: '--node host' } : ownNode(major, shell, progress);
    if ('binary' in own) {
      chosen.set(major, own.binary);
    } else {
      chosen.delete(major);
      fallbacks.set(major, own.reason);
    }
  }
  return fallbacks;
}

/** Node.js `major` from the cache, fetched into it when missing. */
function ownNode(major: number, shell: NodeJS.ProcessEnv, progress: (line: string) => void): { binary: NodeBinary } | { reason: string } {
  const folder = path.join(cacheRoot(shell), 'node', String(major));
  const cached = binaryIn(folder, major);
  if (cached !== undefined) {
    return { binary: cached };
  }
  progress(`Fetching Node.js ${major} for nodejs${major}.x functions from the npm registry (${packageName()}@${major}; once, cached in ${folder})...`);
  const fetched = fetchInto(folder, major, shell);
  return typeof fetched === 'string' ? { reason: `Node.js ${major} could not be fetched: ${fetched}` } : { binary: fetched };
}

/** `$VENDOR_OUTPUTS_CACHE_DIR`, else `$XDG_CACHE_HOME/vendor-outputs`, else `~/.cache/vendor-outputs`. */
export function cacheRoot(shell: NodeJS.ProcessEnv): string {
  if (shell.VENDOR_OUTPUTS_CACHE_DIR) {
    return path.resolve(shell.VENDOR_OUTPUTS_CACHE_DIR);
  }
  return path.join(shell.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vendor-outputs');
}

/** Node.js's official build for this platform, as an npm package. */
function packageName(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/** The executable installed in `folder`, when it is there, runs, and is of `major`. */
function binaryIn(folder: string, major: number): NodeBinary | undefined {
  const executable = path.join(folder, 'node_modules', packageName(), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(executable)) {
    return undefined;
  }
  const run = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const version = run.stdout?.trim() ?? '';
  return run.status === 0 && majorOf(version) === major ? { path: executable, version } : undefined;
}

/** Installs the package into a fresh folder, then moves it in place (another process may race: the first wins). */
function fetchInto(folder: string, major: number, shell: NodeJS.ProcessEnv): NodeBinary | string {
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  const staging = fs.mkdtempSync(`${folder}.fetching-`);
  try {
    const install = spawnSync(npmCommand(), [
      'install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts',
      '--loglevel=error', `${packageName()}@${major}`,
    ], { encoding: 'utf8', timeout: FETCH_TIMEOUT_MS, env: shell });
    if (install.error !== undefined || install.status !== 0) {
      return install.error?.message ?? npmReason(install.stderr) ?? `npm exited with status ${install.status}`;
    }
    if (binaryIn(staging, major) === undefined) {
      return `${packageName()}@${major} holds no Node.js ${major} executable that runs here`;
    }
    if (fs.existsSync(folder)) {
      // Left broken (an interrupted copy, another platform's build): replaced.
      fs.rmSync(folder, { recursive: true, force: true });
    }
    try {
      fs.renameSync(staging, folder);
    } catch {
      // Another process put it in place first: use that one.
    }
    return binaryIn(folder, major) ?? `the cache folder ${folder} holds no working Node.js ${major}`;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** npm next to this Node.js, else the one on PATH. */
function npmCommand(): string {
  const beside = path.join(path.dirname(process.execPath), process.platform === 'win32' ? 'npm.cmd' : 'npm');
  return fs.existsSync(beside) ? beside : 'npm';
}

/** What npm said went wrong: its first error line that is not a code, a field or the log's path. */
function npmReason(stderr: string | undefined): string | undefined {
  const lines = (stderr ?? '').split('\n').map((l) => l.replace(/^npm (error|ERR!) ?/, '').trim());
  return lines.find((l) => l !== '' && !/^(code|errno|syscall|A complete log)\b/.test(l) && !/^[a-z]+ [A-Z0-9_]+$/.test(l));
}
