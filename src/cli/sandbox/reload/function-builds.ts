/**
 * The functions the sandbox can rebuild without a synth: each esbuild run the last synth recorded
 * (build-record.ts) becomes an incremental esbuild context (the app's own esbuild, its JavaScript
 * API, the options of the command the construct ran), matched to the functions whose staged code
 * it wrote. The context's metafile lists the files each build reads, which tells what a change
 * touches. A context is kept across synths while its options stay the same. A folder asset the
 * synth copied whole (`Code.fromAsset(dir)`) is "rebuilt" by copying its source folder again.
 */
import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import type { BuildContext, BuildFailure, BuildResult, Message } from 'esbuild';
import type { AssetCopy, BuildRecord } from './build-record';
import { fileDigest } from './build-record';
import { readEsbuildCommand } from './esbuild-command';
import type { FunctionSpec } from '../../local/model/function-spec';
import type { LocalApp } from '../../local/model/local-app';

/** One build (an esbuild run, or the copy of a folder asset) and the functions whose code it is. */
export interface FunctionBuild {
  readonly id: string;
  /** The source folder of a folder asset: every file below it is the function's code. */
  readonly folder?: string;
  /** Function keys (several functions may share a build). */
  functionKeys: string[];
  /** The folder of the code being served (first the synth's staged asset). */
  servedDir: string;
  /** The output file the construct gave (absolute): the folder of every output. */
  readonly outfile: string;
  /** The build's working directory (the construct's project root). */
  readonly cwd: string;
  /** Absolute real paths of the files the build read (its metafile inputs). */
  inputs: Set<string>;
  /** The esbuild context (none for a folder asset). */
  readonly context?: BuildContext;
}

/** What a synth recorded, for update(). */
export interface SynthRecords {
  readonly builds: readonly BuildRecord[];
  readonly copies: readonly AssetCopy[];
  /** The app's own modules the synth loaded (absolute paths). */
  readonly appModules: readonly string[];
}

/** What a batch of changed files needs. */
export type ChangePlan =
  | { readonly kind: 'rebuild'; readonly builds: readonly FunctionBuild[] }
  | { readonly kind: 'synth'; readonly reason: string };

/** The outcome of one rebuild. */
export type RebuildOutcome =
  | { readonly ok: true; readonly build: FunctionBuild; readonly dir: string }
  | { readonly ok: false; readonly build: FunctionBuild; readonly message: string };

export class FunctionBuilds {
  /** esbuild from the app's node_modules, or undefined: then every change is synthesized. */
  static create(root: string): FunctionBuilds | undefined {
    try {
      return new FunctionBuilds(root, createRequire(path.join(root, 'package.json'))('esbuild'));
    } catch {
      return undefined;
    }
  }

  private builds = new Map<string, FunctionBuild>();
  /** The app's own modules the last synth loaded: a change to one needs a synth. */
  private appModules = new Set<string>();
  private ready: Promise<void> = Promise.resolve();

  private constructor(private readonly root: string, private readonly esbuild: typeof import('esbuild')) {}

  /** After a synth: the builds it ran, matched to its functions; contexts primed in the background. */
  update(app: LocalApp, synth: SynthRecords): void {
    // One update at a time, each from the builds the one before left.
    this.ready = this.ready.then(() => this.apply(app, synth)).catch(() => {
      this.builds = new Map(); // not knowing the builds, every change is synthesized
    });
  }

  private async apply(app: LocalApp, synth: SynthRecords): Promise<void> {
    this.appModules = new Set(synth.appModules.map(realPath));
    const next = new Map<string, FunctionBuild>(folderBuilds(app, synth.copies).map((build) => [build.id, build]));
    for (const record of synth.builds) {
      const functions = [...app.functions.values()].filter((fn) => stagedFrom(fn, record));
      const invocation = readEsbuildCommand(record.command);
      if (functions.length === 0 || invocation === undefined) {
        continue;
      }
      // Not the output file: each synth bundles into a new assembly folder. Outputs are written
      // relative to the first one's folder, which has the same layout.
      const { outfile: _outfile, ...options } = invocation.options;
      const id = JSON.stringify([record.cwd, options]);
      const servedDir = (functions[0].code as { directory: string }).directory;
      const known = next.get(id) ?? this.builds.get(id)
        ?? await this.prime(id, record.cwd, invocation.options, path.resolve(record.cwd, invocation.outfile));
      if (known === undefined) {
        continue; // esbuild's API could not build it: such a function is rebuilt by a synth
      }
      const keys = functions.map((fn) => fn.key);
      known.functionKeys = next.has(id) ? [...new Set([...known.functionKeys, ...keys])] : keys;
      known.servedDir = servedDir;
      next.set(id, known);
    }
    for (const [id, build] of this.builds) {
      if (!next.has(id)) {
        void build.context?.dispose();
      }
    }
    this.builds = next;
  }

  /** Which builds `files` (relative to the root) touch, or why a synth is needed. */
  async plan(files: readonly string[]): Promise<ChangePlan> {
    await this.ready;
    const touched = new Set<FunctionBuild>();
    for (const file of files) {
      const full = path.resolve(this.root, file);
      if (!fs.existsSync(full)) {
        return { kind: 'synth', reason: `${file} was removed` };
      }
      const real = realPath(full);
      if (this.appModules.has(real)) {
        return { kind: 'synth', reason: `${file} is part of the app` };
      }
      const builds = [...this.builds.values()].filter((build) => build.inputs.has(real) || isInside(real, build.folder));
      if (builds.length === 0) {
        return { kind: 'synth', reason: `${file} is in no function's build` };
      }
      builds.forEach((build) => touched.add(build));
    }
    return { kind: 'rebuild', builds: [...touched] };
  }

  /** Rebuilds each build into a new folder made by `newDir` (the served folder copied, the outputs written over it). */
  async rebuild(builds: readonly FunctionBuild[], newDir: () => string): Promise<RebuildOutcome[]> {
    return Promise.all(builds.map(async (build): Promise<RebuildOutcome> => {
      if (build.folder !== undefined) {
        const dir = newDir();
        fs.cpSync(build.folder, dir, { recursive: true, verbatimSymlinks: true });
        build.servedDir = dir;
        return { ok: true, build, dir };
      }
      let result: BuildResult<{ write: false; metafile: true }>;
      try {
        result = await build.context!.rebuild() as BuildResult<{ write: false; metafile: true }>;
      } catch (error) {
        return { ok: false, build, message: failureText(error as BuildFailure, build.cwd, this.root) };
      }
      const dir = newDir();
      fs.cpSync(build.servedDir, dir, { recursive: true });
      for (const output of result.outputFiles) {
        const target = path.join(dir, path.relative(path.dirname(build.outfile), output.path));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, output.contents);
      }
      build.inputs = inputsOf(result, build.cwd);
      build.servedDir = dir;
      return { ok: true, build, dir };
    }));
  }

  /** Ends every esbuild context. */
  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await Promise.all([...this.builds.values()].map((build) => build.context?.dispose()));
    this.builds.clear();
  }

  /** A new esbuild context for the build, run once for the files it reads. */
  private async prime(id: string, cwd: string, options: import('esbuild').BuildOptions, outfile: string): Promise<FunctionBuild | undefined> {
    let context: BuildContext | undefined;
    try {
      context = await this.esbuild.context({ ...options, absWorkingDir: cwd, write: false, metafile: true, logLevel: 'silent' });
      const result = await context.rebuild();
      return { id, outfile, cwd, context, inputs: inputsOf(result, cwd), functionKeys: [], servedDir: '' };
    } catch {
      await context?.dispose();
      return undefined;
    }
  }
}

/** The folder assets the synth copied whole, each with the functions whose code it is. */
function folderBuilds(app: LocalApp, copies: readonly AssetCopy[]): FunctionBuild[] {
  const builds: FunctionBuild[] = [];
  for (const copy of copies) {
    const staged = realPath(copy.staged);
    const functions = [...app.functions.values()].filter((fn) => fn.code.kind === 'directory' && realPath(fn.code.directory) === staged);
    if (functions.length > 0) {
      const folder = realPath(copy.source);
      builds.push({ id: `folder:${folder}`, folder, functionKeys: functions.map((fn) => fn.key), servedDir: copy.staged, outfile: '', cwd: folder, inputs: new Set() });
    }
  }
  return builds;
}

function isInside(file: string, folder: string | undefined): boolean {
  return folder !== undefined && file.startsWith(folder + path.sep);
}

/** Whether the synth staged `fn`'s code from this esbuild run (same output file content). */
function stagedFrom(fn: FunctionSpec, record: BuildRecord): boolean {
  return fn.code.kind === 'directory' && fileDigest(path.join(fn.code.directory, path.basename(record.outfile))) === record.outputDigest;
}

/** The metafile's inputs (relative to the build's folder; `ns:path` entries are not files). */
function inputsOf(result: BuildResult, cwd: string): Set<string> {
  const inputs = new Set<string>();
  for (const input of Object.keys(result.metafile?.inputs ?? {})) {
    if (!/^[a-z-]+:/i.test(input) || path.isAbsolute(input)) {
      inputs.add(realPath(path.resolve(cwd, input)));
    }
  }
  return inputs;
}

/** The build's errors, each with its file, line and column and the line itself. */
function failureText(failure: BuildFailure, cwd: string, root: string): string {
  const errors: Message[] = failure.errors ?? [];
  if (errors.length === 0) {
    return failure.message ?? String(failure);
  }
  return errors.map((error) => {
    const at = error.location;
    if (at === null) {
      return `error: ${error.text}`;
    }
    const file = path.relative(root, path.resolve(cwd, at.file)) || at.file;
    return `${file}:${at.line}:${at.column + 1}: error: ${error.text}\n    ${at.lineText}`;
  }).join('\n');
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
