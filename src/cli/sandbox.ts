/**
 * `vendor-outputs sandbox`: the local loop for a user's own CDK app. Synthesizes it (from
 * cdk.json, without the CDK CLI), serves its REST APIs, writes the frontend's client
 * configuration pointing at them, and on every change synthesizes again and swaps what is served.
 */
import * as path from 'path';
import { Command, CliError, parseOptions, UsageError } from './command';
import { LocalApiSettings } from './local/local-api-settings';
import { readLocalApp } from './local/read-local-app';
import { urlHost } from './local/server/server';
import { helpRows, LOCAL_API_HELP, LOCAL_API_OPTIONS, parseLocalApiOptions } from './local-api-options';
import { withDeployedValues } from './local-deployed-values';
import { ClientConfigFormat, clientConfigFormat } from './outputs-format/client-config-format';
import { CdkProject, readCdkProject } from './sandbox/cdk-project';
import { DeployedSource, readDeployedDocument } from './sandbox/deployed-values';
import { writeLocalConfigFile } from './sandbox/local-config-file';
import { missingContextWarning } from './sandbox/missing-context';
import { configLines, SandboxSession, synthFailure } from './sandbox/sandbox-session';
import { listenForStop, signalExitStatus } from './sandbox/stop-signals';
import { runSynth, STOP_GRACE_MS } from './sandbox/synth-runner';
import { WatchFilter } from './sandbox/watch-patterns';
import { ProjectWatcher } from './sandbox/watcher';

export const SANDBOX_HELP = [
  'Usage: vendor-outputs sandbox [--app COMMAND|DIR] [--outputs-out-dir DIR | --write-outputs DIR] [--format json|dart]',
  '                              [--port N] [--host ADDR] [--stack NAME]... [--once]',
  '                              [--from-stack NAME | --outputs-file FILE] [--node runtime|host] [--quiet]',
  '                              [--credentials KEY:SECRET] [--allow-unsigned] [--env-vars FILE]',
  '                              [--api-key NAME=VALUE]... [--jwks FILE]',
  '',
  'Run in a CDK project (the folder of cdk.json). Synthesizes the app as the CDK CLI would (cdk.json\'s',
  '"app" through the shell, with CDK_OUTDIR, CDK_CONTEXT_JSON from "context" and cdk.context.json, and',
  'CDK_DEFAULT_REGION from AWS_REGION / AWS_DEFAULT_REGION, else us-east-1; no CDK CLI needed), serves',
  'every REST API on 127.0.0.1 as `serve` does, and writes vendor_outputs.json with the REST endpoints',
  'pointing at the local server. Then watches the files cdk.json\'s "watch" names (include / exclude,',
  'as `cdk watch` reads them; dot files, the output folder and node_modules are never watched): on a',
  'change it synthesizes again, swaps routes and function code on the same port, and rewrites the file',
  'only when its content changed. A failed synth is shown and the last good version keeps serving.',
  '',
  'Options:',
  ...helpRows([
    {
      flag: '--app COMMAND|DIR',
      lines: [
        'The command that runs the app (default: cdk.json\'s "app"), or the folder of a',
        'synthesized cloud assembly (then nothing is synthesized; its manifest.json',
        'is watched)',
      ],
    },
    { flag: '--outputs-out-dir DIR', lines: ['Where the client configuration goes (default: the project folder)'] },
    { flag: '--write-outputs DIR', lines: ['The same as --outputs-out-dir (its name in `serve`)'] },
    { flag: '--format json|dart', lines: ['vendor_outputs.json (default) or vendor_outputs.dart', '(const vendorConfig = r\'\'\'{...}\'\'\';)'] },
    LOCAL_API_HELP.port,
    LOCAL_API_HELP.host,
    LOCAL_API_HELP.stack,
    {
      flag: '--once',
      lines: [
        'Synthesize into the output folder (cdk.out), write the file, list the pending',
        'values and exit (0, or 1 when the synth fails); the endpoints point at --host',
        'and --port',
      ],
    },
    {
      flag: '--from-stack NAME',
      lines: [
        'Fill the values known only after deploy (user pool ids, the data URL, bucket',
        'names) from this deployed stack (AWS SDK, as `generate --stack`); REST endpoints',
        'stay local. The functions\' environments, templates and integration URIs take',
        'the deployed stack\'s values too (its resources\' physical ids and outputs)',
      ],
    },
    {
      flag: '--outputs-file FILE',
      lines: [
        'The same from the JSON of `cdk deploy --outputs-file FILE` (no AWS call): an',
        'output whose Value is exactly a Ref or Fn::GetAtt gives that reference\'s value',
      ],
    },
    LOCAL_API_HELP.credentials,
    LOCAL_API_HELP['allow-unsigned'],
    LOCAL_API_HELP['api-key'],
    LOCAL_API_HELP['env-vars'],
    LOCAL_API_HELP.jwks,
    LOCAL_API_HELP.node,
    LOCAL_API_HELP.quiet,
  ]),
  '',
  'Stops on Ctrl+C (SIGINT) or SIGTERM (exit 0), the app being synthesized with it: SIGTERM to its',
  `process group, SIGKILL ${STOP_GRACE_MS / 1000} s later to whatever in it still runs. With --once, a signal during the`,
  'synth stops the app the same way and exits 128+N (130 for SIGINT, 143 for SIGTERM), writing nothing.',
  '',
  'Examples:',
  '  cd my-backend && npx vendor-outputs sandbox --outputs-out-dir ../frontend/src',
  '  curl "http://127.0.0.1:3000/dev/items?limit=3"',
  '  vendor-outputs sandbox --once --format dart --outputs-out-dir ../app/lib',
].join('\n');

export const command: Command = {
  name: 'sandbox',
  help: SANDBOX_HELP,
  async run(args) {
    const { values } = parseOptions(args, {
      'app': { type: 'string' },
      'outputs-out-dir': { type: 'string' },
      'write-outputs': { type: 'string' },
      'format': { type: 'string' },
      ...LOCAL_API_OPTIONS,
      'once': { type: 'boolean' },
    });
    const format = clientConfigFormat(values.format);
    const parsed = parseLocalApiOptions(values, process.env);
    const once = values.once === true;
    if (once && parsed.port === 0) {
      throw new UsageError('--once writes endpoints without serving them, so it needs a real port: pass --port N (default 3000), not 0');
    }
    const deployedSource = parsed.deployedSource;
    const outputsOutDir = outputsOutDirOf(values['outputs-out-dir'], values['write-outputs']);
    const api = await withDeployedValues(parsed);
    const project = readCdkProject(process.cwd(), values.app);
    const outDir = path.resolve(project.root, outputsOutDir ?? '.');
    const print = (line: string) => process.stdout.write(`${line}\n`);
    const warn = (line: string) => process.stderr.write(`vendor-outputs sandbox: ${line}\n`);

    const common: CommonSettings = { project, api, outDir, format, deployedSource, print, warn };
    return once ? runOnce(common) : runWatching(common);
  },
};

/** `--outputs-out-dir DIR`, or `--write-outputs DIR` (its name in `serve`), not both; never empty. */
function outputsOutDirOf(outputsOutDir: string | undefined, writeOutputs: string | undefined): string | undefined {
  if (outputsOutDir !== undefined && writeOutputs !== undefined) {
    throw new UsageError('give either --outputs-out-dir DIR or --write-outputs DIR (two names of one option), not both');
  }
  const dir = outputsOutDir ?? writeOutputs;
  if (dir !== undefined && dir.trim() === '') {
    throw new UsageError(`${outputsOutDir !== undefined ? '--outputs-out-dir' : '--write-outputs'} must name a directory`);
  }
  return dir;
}

/** What both modes take. */
interface CommonSettings {
  readonly project: CdkProject;
  /** The local-API options (stacks, port, host, credentials, keys...). */
  readonly api: LocalApiSettings;
  readonly outDir: string;
  readonly format: ClientConfigFormat;
  readonly deployedSource?: DeployedSource;
  readonly print: (line: string) => void;
  readonly warn: (line: string) => void;
}

/** `--once`: synthesize into the output folder, write the file for --host/--port, list what is pending. */
async function runOnce(settings: CommonSettings): Promise<number> {
  const { project, print } = settings;
  const { host, port } = settings.api;
  const assemblyDir = project.app.kind === 'assembly' ? project.app.dir : project.output;
  if (project.app.kind === 'command') {
    const appCommand = project.app.command;
    // Ctrl+C or SIGTERM during the synth stops the app (its whole process group), then the CLI.
    const stop = listenForStop(settings.warn);
    const request = { command: appCommand, cwd: project.root, outdir: assemblyDir, context: project.context, env: process.env, signal: stop.signal };
    const synth = await runSynth(request).finally(() => stop.dispose());
    const signal = stop.received();
    if (signal !== undefined) {
      return signalExitStatus(signal);
    }
    if (!synth.ok) {
      throw new CliError(synthFailure(appCommand, synth));
    }
    print(`Synthesized ${path.relative(process.cwd(), assemblyDir) || '.'} in ${synth.ms.toFixed(0)} ms`);
    const missing = missingContextWarning(assemblyDir);
    if (missing !== undefined) {
      settings.warn(`warning: ${missing}`);
    }
  }
  const app = readLocalApp(assemblyDir, [...settings.api.stacks], settings.api.deployed);
  const deployed = settings.deployedSource === undefined ? undefined : await readDeployedDocument(settings.deployedSource, assemblyDir);
  const apis = app.apis.filter((a) => a.stages.length > 0).map((api, i) => ({ apiId: api.apiId, origin: `http://${urlHost(host)}:${port + i}` }));
  const config = writeLocalConfigFile(app, apis, { outDir: settings.outDir, format: settings.format, deployed });
  configLines(config, { config: settings }).forEach(print);
  return 0;
}

/** The loop: serve, watch, reload, until SIGINT or SIGTERM. */
async function runWatching(settings: CommonSettings): Promise<number> {
  const { project, deployedSource, print, warn } = settings;
  // Listening from the start: Ctrl+C during the first synth stops the app and exits cleanly too.
  const stopping = listenForStop(warn);
  let session: SandboxSession;
  try {
    session = await SandboxSession.start({
      ...settings,
      env: process.env,
      config: { outDir: settings.outDir, format: settings.format },
      loadDeployed: deployedSource === undefined ? undefined : (assemblyDir) => readDeployedDocument(deployedSource, assemblyDir),
      firstSynthSignal: stopping.signal,
    });
  } catch (error) {
    if (stopping.signal.aborted) {
      return 0;
    }
    throw error;
  }
  session.startLines().forEach(print);
  const watcher = watchProject(project, settings, (files) => {
    session.changed(files).catch((error) => warn(`unexpected error while reloading: ${error?.stack ?? error}`));
  });
  await stopping.stopped;
  watcher.close();
  await session.close();
  return 0;
}

/** Watches the project's sources (cdk.json's watch), or a given assembly's manifest.json. */
function watchProject(project: CdkProject, settings: CommonSettings, onChange: (files: string[]) => void): ProjectWatcher {
  // The line is printed once the watches are in place: a change saved right after it is seen.
  if (project.app.kind === 'assembly') {
    const watcher = new ProjectWatcher({ root: project.app.dir, filter: new WatchFilter({ include: ['manifest.json'], exclude: [] }), recursive: false, onChange });
    settings.print(`Watching ${path.join(project.app.dir, 'manifest.json')}. Press Ctrl+C to stop.`);
    return watcher;
  }
  const written = writtenFile(project.root, settings.outDir, settings.format.fileName);
  const filter = new WatchFilter({ include: project.watch.include, exclude: [...project.watch.exclude, ...written] });
  const watcher = new ProjectWatcher({ root: project.root, filter, onChange });
  settings.print(`Watching ${project.root} (include: ${project.watch.include.join(', ')}). Press Ctrl+C to stop.`);
  return watcher;
}

/** The file the sandbox writes, as a pattern relative to the root (so that writing it does not trigger a synth). */
function writtenFile(root: string, outDir: string, fileName: string): string[] {
  const relative = path.relative(root, path.join(outDir, fileName));
  return relative.startsWith('..') || path.isAbsolute(relative) ? [] : [relative.split(path.sep).join('/')];
}
