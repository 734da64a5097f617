/**
 * One sandbox run: synthesize, serve, write the client configuration; then on each batch of
 * changes synthesize again, swap what the server serves (S2's `reload`) and rewrite the file when
 * it changed. One synth at a time: changes that come during a synth queue exactly one more. A
 * failed synth is reported and the last good assembly keeps serving.
 */
import * as path from 'path';
import { AssemblyDirs } from './assembly-dirs';
import { CdkProject } from './cdk-project';
import { LocalConfigFile, LocalConfigOptions, writeLocalConfigFile } from './local-config-file';
import { missingContextWarning } from './missing-context';
import { runSynth, SynthResult } from './synth-runner';
import { CliError } from '../command';
import { valueChanges } from '../document-diff/document-changes';
import { LocalApiError } from '../local/common/local-api-error';
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
  readonly synth?: SynthResult;
}

export class SandboxSession {
  /** First synth, server start and file; throws CliError when the first synth fails. */
  static async start(settings: SandboxSettings): Promise<SandboxSession> {
    const dirs = new AssemblyDirs(settings.project.output);
    const built = await build(settings, dirs, settings.firstSynthSignal);
    let api: LocalApi;
    try {
      api = await startApi(settings, built.prepared);
    } catch (error) {
      dirs.removeAll();
      throw error;
    }
    const session = new SandboxSession(settings, dirs, api);
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
    public readonly api: LocalApi,
  ) {}

  /** Synthesizes again for `files`; a call during a synth queues one more run. */
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
      await this.rebuild(files);
    }
  }

  private async rebuild(files: readonly string[]): Promise<void> {
    const { print, warn } = this.settings;
    const started = process.hrtime.bigint();
    print(`Changed: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}; synthesizing...`);
    let built: Built;
    try {
      built = await build(this.settings, this.dirs, this.stopSynth.signal);
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

/** Synthesizes into a fresh folder (or re-reads a given assembly) and reads the app. */
async function build(settings: SandboxSettings, dirs: AssemblyDirs, signal?: AbortSignal): Promise<Built> {
  const { project } = settings;
  if (project.app.kind === 'assembly') {
    return { prepared: prepare(settings, readLocalApp(project.app.dir, [...settings.api.stacks], settings.api.deployed)) };
  }
  const outdir = dirs.next();
  const synth = await runSynth({ command: project.app.command, cwd: project.root, outdir, context: project.context, env: settings.env, signal });
  if (!synth.ok) {
    dirs.discard(outdir);
    throw new CliError(synthFailure(project.app.command, synth));
  }
  const missing = missingContextWarning(outdir);
  if (missing !== undefined) {
    settings.warn(`warning: ${missing}`);
  }
  try {
    return { prepared: prepare(settings, readLocalApp(outdir, [...settings.api.stacks], settings.api.deployed)), synth };
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
