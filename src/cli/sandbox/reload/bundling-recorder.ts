/**
 * Replaces `child_process.spawnSync` in a synth process so that each esbuild bundling command the
 * app runs (aws-cdk-lib's local bundling: `bash -c "npx --no-install esbuild ..."`) is recorded
 * (build-record.ts). `runInstead` may do a command itself (the warm synth runs esbuild through its
 * API) and answer as spawnSync would; undefined spawns it as asked.
 */
import type * as ChildProcessModule from 'child_process';
import { createRequire } from 'module';
import * as path from 'path';
import { BuildRecord, bundlingCommandOf, fileDigest } from './build-record';
import { readEsbuildCommand } from './esbuild-command';

export type RunInstead = (command: string, cwd: string) => ChildProcessModule.SpawnSyncReturns<Buffer> | undefined;

export function recordBundling(records: BuildRecord[], runInstead: RunInstead = () => undefined): void {
  // The module object itself (an import gives a copy with getters): aws-cdk-lib calls its spawnSync.
  const childProcess: typeof ChildProcessModule = createRequire(__filename)('child_process');
  const original = childProcess.spawnSync as (...args: any[]) => any;
  const wrapped = (file: string, args?: any, options?: any): any => {
    const command = bundlingCommandOf(file, Array.isArray(args) ? args : undefined);
    if (command === undefined) {
      return original(file, args, options);
    }
    const cwd = path.resolve(options?.cwd ?? process.cwd());
    const result = runInstead(command, cwd) ?? original(file, args, options);
    const invocation = readEsbuildCommand(command);
    if (result.status === 0 && invocation !== undefined) {
      const outfile = path.resolve(cwd, invocation.outfile);
      const outputDigest = fileDigest(outfile);
      if (outputDigest !== undefined) {
        records.push({ command, cwd, outfile, outputDigest });
      }
    }
    return result;
  };
  childProcess.spawnSync = wrapped as typeof childProcess.spawnSync;
}

/** The app's own modules a process loaded (outside node_modules), absolute paths. */
export function loadedAppModules(except: ReadonlySet<string> = new Set()): string[] {
  return Object.keys(require.cache).filter((file) => !except.has(file) && !isDependency(file));
}

export function isDependency(file: string): boolean {
  return file.split(path.sep).includes('node_modules');
}
