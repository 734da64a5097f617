/**
 * One sandbox run: synthesize, serve, write the client configuration; then on each batch of
 * changes either rebuild the functions whose build reads the changed files (reload/function-builds.ts,
 * no synth) or synthesize again (in the warm synth process when it can, reload/app-synth.ts), swap
 * what the server serves (S2's `reload`) and rewrite the file when it changed. One rebuild or synth
 * at a time: changes that come during one queue exactly one more. A failed synth or rebuild is
 * reported and the last good version keeps serving.
 */
import * as path from 'path';
import { AssemblyDirs } from './assembly-dirs';
import { CdkProject } from './cdk-project';
import { LocalConfigFile, LocalConfigOptions, writeLocalConfigFile } from './local-config-file';
import { missingContextWarning } from './missing-context';
import { AppSynth, AppSynthResult } from './reload/app-synth';
import { FunctionBuild, FunctionBuilds } from './reload/function-builds';
import { SynthResult } from './synth-runner';
import { CliError } from '../command';
import { valueChanges } from '../document-diff/document-changes';
import { LocalApiError } from '../local/common/local-api-error';
import { functionLabel } from '../local/lambda/function-label';
import { LocalApi, startLocalApi } from '../local/local-api';
import { LocalApiSettings } from '../local/local-api-settings';
import { prepareLocalApp, PreparedApp } from '../local/local-app-setup';
import { LocalApp } from '../local/model/local-app';
import { readLocalApp } from '../local/read-local-app';
import { consoleUrl } from '../local/server/console/console-path';
import { LocalApiAddress } from '../local/server/local-outputs';
import { urlHost } from '../local/server/server';

export interface SandboxSettings {
  readonly project: CdkProject;
  /** The local-API options, as `serve` takes them (stacks, port, host, credentials, keys...). */
  readonly api: LocalApiSettings;
  /** Where and how the file is written (the deployed values come from `loadDeployed`). */
  readonly config: Omit<LocalConfigOptions, 'deployed'>;
  /** Reads the deployed document once, given the first assembly (--from-stack / --outputs-file). */
  readonly loadDeployed?: (assemblyDir: string) => Promise<Record<string, unknown>>;
  /** Stops the first synth (Ctrl+C before the server runs). */
  readonly firstSynthSignal?: AbortSignal;
  readonly env: NodeJS.ProcessEnv;
  /** Lines for the person at the terminal (stdout). */
  readonly print: (line: string) => void;
  /** Warnings and failures (stderr). */
  readonly warn: (line: string) => void;
}

/** A synthesized (or given) assembly, read and prepared for the local API. */
interface Built {
  readonly prepared: PreparedApp;
  readonly synth?: AppSynthResult;
}

/** How the session synthesizes and rebuilds (none for a given assembly). */
interface Builders {
  readonly synth?: AppSynth;
  readonly functions?: FunctionBuilds;
}

export class SandboxSession {
  /** First synth, server start and file; throws CliError when the first synth fails. */
  static async start(settings: SandboxSettings): Promise<SandboxSession> {
    const dirs = new AssemblyDirs(settings.project.output);
    const builders = startBuilders(settings);
    let built: Built;
    let api: LocalApi;
    try {
      built = await build(settings, dirs, builders, settings.firstSynthSignal);
      api = await startApi(settings, built.prepared);
    } catch (error) {
      await closeBuilders(builders);
      dirs.removeAll();
      throw error;
    }
    const session = new SandboxSession(settings, dirs, builders, api, built.prepared);
    try {
      session.deployed = await settings.loadDeployed?.(api.app.assemblyDir);
      session.config = session.writeConfig(api.app);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  public config: LocalConfigFile | undefined;
  private running: Promise<void> | undefined;
  private queued: string[] = [];
  private deployed: Record<string, unknown> | undefined;
  /** Set by close(): a synth running then is stopped, and nothing more is reported. */
  private closing = false;
  private readonly stopSynth = new AbortController();

  private constructor(
    private readonly settings: SandboxSettings,
    private readonly dirs: AssemblyDirs,
    private readonly builders: Builders,
    public readonly api: LocalApi,
    /** What the server serves now. */
    private prepared: PreparedApp,
  ) {}

  /** Rebuilds or synthesizes again for `files`; a call during one queues one more run. */
  changed(files: readonly string[]): Promise<void> {
    this.queued.push(...files);
    if (this.running === undefined) {
      this.running = this.drain().finally(() => { this.running = undefined; });
    }
    return this.running;
  }

  /** Resolves once no rebuild is running or queued. */
  async idle(): Promise<void> {
    while (this.running !== undefined) {
      await this.running;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.queued = [];
    this.stopSynth.abort();
    await this.idle().catch(() => undefined);
    await closeBuilders(this.builders);
    await this.api.close();
    this.dirs.removeAll();
  }

  /** Lines that introduce the session: routes, console, who gets in, file, pending values. */
  startLines(): string[] {
    const { endpoints } = this.api.server;
    const lines = [`Serving ${this.api.servedSummary()} of ${this.api.app.stacks.map((s) => s.stackName).join(', ')}:`];
    lines.push(...this.api.routeLines());
    lines.push(...this.api.unservedLines());
    for (const endpoint of endpoints) {
      lines.push(`Console (TEST page): ${consoleUrl(`http://${urlHost(endpoint.host)}:${endpoint.port}`)}`);
    }
    lines.push(...this.api.accessLines());
    lines.push(...configLines(this.config, this.settings));
    return lines;
  }

  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const files = [...new Set(this.queued)].sort();
      this.queued = [];
      await this.handle(files);
    }
  }

  /** Rebuilds the functions the files belong to, or synthesizes when that cannot be sure to be enough. */
  private async handle(files: readonly string[]): Promise<void> {
    const plan = await this.builders.functions?.plan(files);
    if (plan?.kind === 'rebuild') {
      return this.rebuildFunctions(files, plan.builds);
    }
    return this.synthesize(files, plan?.reason);
  }

  private async rebuildFunctions(files: readonly string[], builds: readonly FunctionBuild[]): Promise<void> {
    const { print, warn } = this.settings;
    const started = process.hrtime.bigint();
    const names = (list: readonly FunctionBuild[]) => list.flatMap((b) => b.functionKeys.map((key) => labelOf(this.prepared, key))).join(', ');
    print(`Changed: ${fileList(files)}; rebuilding ${names(builds)} (no synth)...`);
    const previousDirs = builds.map((b) => b.servedDir);
    const outcomes = await this.builders.functions!.rebuild(builds, () => this.dirs.next());
    if (this.closing) {
      return;
    }
    for (const failed of outcomes.filter((o) => !o.ok)) {
      warn(`rebuild of ${names([failed.build])} failed:\n${(failed as { message: string }).message}\nStill serving the last good version.`);
    }
    const rebuilt = outcomes.filter((o) => o.ok).map((o) => o.build);
    if (rebuilt.length === 0) {
      return;
    }
    const prepared = withRebuiltCode(this.prepared, rebuilt);
    const summary = await this.api.reload(prepared);
    this.prepared = prepared;
    this.dirs.retire(prepared.app.assemblyDir, undefined, [...this.api.server.codeDirectories(), ...previousDirs]);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    print(`Rebuilt ${names(rebuilt)} in ${ms.toFixed(0)} ms, no synth.`);
    for (const fn of summary.functionsReloaded) {
      print(`  ~ function ${fn} reloaded`);
    }
  }

  private async synthesize(files: readonly string[], reason: string | undefined): Promise<void> {
    const { print, warn } = this.settings;
    const started = process.hrtime.bigint();
    const synth = this.builders.synth;
    const detail = [reason, synth === undefined ? undefined : `synth ${synth.count + 1}${synth.warmPid !== undefined ? ', warm' : ''}`].filter((d) => d !== undefined);
    print(`Changed: ${fileList(files)}; synthesizing...${detail.length > 0 ? ` (${detail.join('; ')})` : ''}`);
    let built: Built;
    try {
      built = await build(this.settings, this.dirs, this.builders, this.stopSynth.signal);
    } catch (error) {
      if (!(error instanceof CliError) && !(error instanceof LocalApiError)) {
        throw error;
      }
      if (!this.closing) {
        warn(`${error.message}\nStill serving the last good version.`);
      }
      return;
    }
    if (this.closing) {
      return;
    }
    const previous = this.api.app;
    const summary = await this.api.reload(built.prepared);
    this.prepared = built.prepared;
    const before = this.config?.document;
    let config: LocalConfigFile | undefined;
    try {
      config = this.writeConfig(built.prepared.app);
    } catch (error) {
      warn(`${(error as Error).message}`);
      config = this.config;
    }
    if (this.settings.project.app.kind === 'command') {
      this.dirs.retire(built.prepared.app.assemblyDir, previous.assemblyDir, this.api.server.codeDirectories());
    }
    this.config = config;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    print(`Reloaded in ${ms.toFixed(0)} ms${built.synth ? ` (synth ${built.synth.ms.toFixed(0)} ms)` : ''}.`);
    for (const route of summary.routesAdded) {
      print(`  + route ${route}`);
    }
    for (const route of summary.routesRemoved) {
      print(`  - route ${route}`);
    }
    for (const fn of summary.functionsAdded) {
      print(`  + function ${fn}`);
    }
    for (const fn of summary.functionsRemoved) {
      print(`  - function ${fn}`);
    }
    for (const fn of summary.functionsReloaded) {
      print(`  ~ function ${fn} reloaded`);
    }
    if (config !== undefined) {
      const changes = valueChanges(before, config.document);
      for (const change of changes) {
        print(`  ${change.kind === 'added' ? '+' : change.kind === 'removed' ? '-' : '~'} ${change.pointer} ${change.kind}`);
      }
      print(config.written ? `  wrote ${config.file}` : `  ${config.file} unchanged`);
    }
  }

  private writeConfig(app: LocalApp): LocalConfigFile | undefined {
    const apis: LocalApiAddress[] = this.api.server.endpoints.map((e) => ({ apiId: e.api.apiId, origin: `http://${urlHost(e.host)}:${e.port}` }));
    return writeLocalConfigFile(app, apis, { ...this.settings.config, deployed: this.deployed });
  }
}

/** The local API of the first synth, with the project's local signing key for Cognito methods. */
function startApi(settings: SandboxSettings, prepared: PreparedApp): Promise<LocalApi> {
  const { project, config } = settings;
  return startLocalApi({
    settings: settings.api,
    prepared,
    print: settings.print,
    warn: (message) => settings.warn(`warning: ${message}`),
    // The console shows the file whichever format it is in (it reads vendor_outputs.dart too).
    outputsFile: path.resolve(config.outDir, config.format.fileName),
    // The key that `serve` and `token` use for the output folder (cdk.out), not one per synth folder.
    signingKeyDir: project.app.kind === 'assembly' ? undefined : project.output,
  });
}

/** The files of a change line (the first five). */
function fileList(files: readonly string[]): string {
  return `${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`;
}

/** How the change lines name a function: as the server's listing does. */
function labelOf(prepared: PreparedApp, key: string): string {
  const fn = prepared.app.functions.get(key);
  return fn === undefined ? key : functionLabel(fn);
}

/** The app being served, with the rebuilt functions' code in their new folders. */
function withRebuiltCode(prepared: PreparedApp, builds: readonly FunctionBuild[]): PreparedApp {
  const functions = new Map(prepared.app.functions);
  for (const rebuilt of builds) {
    for (const key of rebuilt.functionKeys) {
      const fn = functions.get(key);
      if (fn !== undefined) {
        functions.set(key, { ...fn, code: { kind: 'directory', directory: rebuilt.servedDir } });
      }
    }
  }
  return { ...prepared, app: { ...prepared.app, functions } };
}

/** The synth (warm when it can be) and the function rebuilds of an app command; none for an assembly. */
function startBuilders(settings: SandboxSettings): Builders {
  const { project } = settings;
  if (project.app.kind !== 'command') {
    return {};
  }
  return {
    synth: AppSynth.start(project.app.command, project.root, settings.env, settings.print),
    functions: FunctionBuilds.create(project.root),
  };
}

async function closeBuilders(builders: Builders): Promise<void> {
  builders.synth?.close();
  await builders.functions?.close();
}

/** Synthesizes into a fresh folder (or re-reads a given assembly) and reads the app. */
async function build(settings: SandboxSettings, dirs: AssemblyDirs, builders: Builders, signal?: AbortSignal): Promise<Built> {
  const { project } = settings;
  if (project.app.kind === 'assembly' || builders.synth === undefined) {
    const dir = project.app.kind === 'assembly' ? project.app.dir : project.output;
    return { prepared: prepare(settings, readLocalApp(dir, [...settings.api.stacks], settings.api.deployed)) };
  }
  const outdir = dirs.next();
  const request = { command: project.app.command, cwd: project.root, outdir, context: project.context, env: settings.env, signal };
  const synth = await builders.synth.run(request);
  if (!synth.ok) {
    dirs.discard(outdir);
    throw new CliError(synthFailure(project.app.command, synth));
  }
  const missing = missingContextWarning(outdir);
  if (missing !== undefined) {
    settings.warn(`warning: ${missing}`);
  }
  try {
    const prepared = prepare(settings, readLocalApp(outdir, [...settings.api.stacks], settings.api.deployed));
    builders.functions?.update(prepared.app, { builds: synth.builds ?? [], copies: synth.copies ?? [], appModules: synth.appModules ?? [] });
    return { prepared, synth };
  } catch (error) {
    dirs.discard(outdir);
    throw error;
  }
}

/** The app with the `--api-key` values in place, its functions run from the project's folder. */
function prepare(settings: SandboxSettings, app: LocalApp): PreparedApp {
  return prepareLocalApp(app, { ...settings.api, progress: settings.print }, settings.project.root);
}

/** The message of a failed synth: the command, how it ended and what it printed. */
export function synthFailure(command: string, synth: SynthResult): string {
  const output = synth.output.trimEnd();
  return `synth failed: '${command}' ended with ${synth.exit} after ${synth.ms.toFixed(0)} ms${output === '' ? ' (no output)' : `:\n${output}`}`;
}

/** What the file lines say: where it is and what stays pending. */
export function configLines(config: LocalConfigFile | undefined, settings: Pick<SandboxSettings, 'config'>): string[] {
  if (config === undefined) {
    return [`No stack carries a vendor_outputs.json (none uses cdk-vendor-outputs), so no ${settings.config.format.fileName} was written.`];
  }
  const lines = [`${config.written ? 'Wrote' : 'Up to date:'} ${config.file}`];
  if (config.pending.length > 0) {
    lines.push(`Pending until a cloud deploy (${config.pending.length}; fill them with --from-stack NAME or --outputs-file FILE):`);
    lines.push(...config.pending.map((p) => `  ${p}`));
  }
  return lines;
}
