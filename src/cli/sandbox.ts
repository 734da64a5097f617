/**
 * `vendor-outputs sandbox`: the local loop for a user's own CDK app. Synthesizes it (from
 * cdk.json, without the CDK CLI), serves its REST APIs, writes the frontend's client
 * configuration pointing at them, and on every change synthesizes again and swaps what is served.
 */
import * as path from 'path';
import { Command, CliError, parseOptions, UsageError } from './command';
import { isLoopback, urlHost } from './local/server/server';
import { readLocalApp } from './local/template/assembly';
import { ClientConfigFormat, clientConfigFormat } from './outputs-format/client-config-format';
import { CdkProject, readCdkProject } from './sandbox/cdk-project';
import { DeployedSource, readDeployedDocument } from './sandbox/deployed-values';
import { writeLocalConfigFile } from './sandbox/local-config-file';
import { missingContextWarning } from './sandbox/missing-context';
import { configLines, SandboxSession, synthFailure } from './sandbox/sandbox-session';
import { runSynth } from './sandbox/synth-runner';
import { WatchFilter } from './sandbox/watch-patterns';
import { ProjectWatcher } from './sandbox/watcher';
import { parseHost, parsePort } from './serve';

export const SANDBOX_HELP = [
  'Usage: vendor-outputs sandbox [--app COMMAND|DIR] [--outputs-out-dir DIR] [--format json|dart]',
  '                              [--port N] [--host ADDR] [--stack NAME]... [--once]',
  '                              [--from-stack NAME | --outputs-file FILE] [--quiet]',
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
  '  --app COMMAND|DIR       The command that runs the app (default: cdk.json\'s "app"), or the folder of a',
  '                          synthesized cloud assembly (then nothing is synthesized; its manifest.json is watched)',
  '  --outputs-out-dir DIR   Where the client configuration goes (default: the project folder)',
  '  --format json|dart      vendor_outputs.json (default) or vendor_outputs.dart (const vendorConfig = r\'\'\'{...}\'\'\';)',
  '  --port N                Port of the first API (default: 3000; 0 picks a free port)',
  '  --host ADDR             Interface to bind (default: 127.0.0.1)',
  '  --stack NAME            Serve only this stack (artifact id or stack name; repeatable)',
  '  --once                  Synthesize into the output folder (cdk.out), write the file, list the pending values',
  '                          and exit (0, or 1 when the synth fails); the endpoints point at --host and --port',
  '  --from-stack NAME       Fill the values known only after deploy (user pool ids, the data URL, bucket names)',
  '                          from this deployed stack (AWS SDK, as `generate --stack`); REST endpoints stay local',
  '  --outputs-file FILE     The same from the JSON of `cdk deploy --outputs-file FILE` (no AWS call)',
  '  --quiet                 No line per request',
  '',
  'Stops on Ctrl+C (SIGINT) or SIGTERM (exit 0).',
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
      'format': { type: 'string' },
      'port': { type: 'string' },
      'host': { type: 'string' },
      'stack': { type: 'string', multiple: true },
      'once': { type: 'boolean' },
      'from-stack': { type: 'string' },
      'outputs-file': { type: 'string' },
      'quiet': { type: 'boolean' },
    });
    const format = clientConfigFormat(values.format);
    const port = values.port === undefined ? 3000 : parsePort(values.port);
    const host = values.host === undefined ? '127.0.0.1' : parseHost(values.host);
    const once = values.once === true;
    if (once && port === 0) {
      throw new UsageError('--once writes endpoints without serving them, so it needs a real port: pass --port N (default 3000), not 0');
    }
    const deployedSource = deployedSourceOf(values['from-stack'], values['outputs-file'], values.stack);
    if (values['outputs-out-dir'] !== undefined && values['outputs-out-dir'].trim() === '') {
      throw new UsageError('--outputs-out-dir must name a directory');
    }
    const project = readCdkProject(process.cwd(), values.app);
    const outDir = path.resolve(project.root, values['outputs-out-dir'] ?? '.');
    const stacks = values.stack ?? [];
    const print = (line: string) => process.stdout.write(`${line}\n`);
    const warn = (line: string) => process.stderr.write(`vendor-outputs sandbox: ${line}\n`);

    const common: CommonSettings = { project, stacks, outDir, format, host, port, deployedSource, print, warn };
    return once ? runOnce(common) : runWatching(common, values.quiet === true);
  },
};

/** What both modes take. */
interface CommonSettings {
  readonly project: CdkProject;
  readonly stacks: string[];
  readonly outDir: string;
  readonly format: ClientConfigFormat;
  readonly host: string;
  readonly port: number;
  readonly deployedSource?: DeployedSource;
  readonly print: (line: string) => void;
  readonly warn: (line: string) => void;
}

/** `--once`: synthesize into the output folder, write the file for --host/--port, list what is pending. */
async function runOnce(settings: CommonSettings): Promise<number> {
  const { project, host, port, print } = settings;
  const assemblyDir = project.app.kind === 'assembly' ? project.app.dir : project.output;
  if (project.app.kind === 'command') {
    const appCommand = project.app.command;
    const synth = await runSynth({ command: appCommand, cwd: project.root, outdir: assemblyDir, context: project.context, env: process.env });
    if (!synth.ok) {
      throw new CliError(synthFailure(appCommand, synth));
    }
    print(`Synthesized ${path.relative(process.cwd(), assemblyDir) || '.'} in ${synth.ms.toFixed(0)} ms`);
    const missing = missingContextWarning(assemblyDir);
    if (missing !== undefined) {
      settings.warn(`warning: ${missing}`);
    }
  }
  const app = readLocalApp(assemblyDir, settings.stacks);
  const deployed = settings.deployedSource === undefined ? undefined : await readDeployedDocument(settings.deployedSource, assemblyDir);
  const apis = app.apis.filter((a) => a.stages.length > 0).map((api, i) => ({ apiId: api.apiId, origin: `http://${urlHost(host)}:${port + i}` }));
  const config = writeLocalConfigFile(app, apis, { outDir: settings.outDir, format: settings.format, deployed });
  configLines(config, { config: settings }).forEach(print);
  return 0;
}

/** The loop: serve, watch, reload, until SIGINT or SIGTERM. */
async function runWatching(settings: CommonSettings, quiet: boolean): Promise<number> {
  const { project, deployedSource, print, warn } = settings;
  // Listening from the start: Ctrl+C during the first synth stops the app and exits cleanly too.
  const stopping = new AbortController();
  const stopped = stopSignal(warn).then(() => stopping.abort());
  let session: SandboxSession;
  try {
    session = await SandboxSession.start({
      ...settings,
      quiet,
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
  if (!isLoopback(settings.host)) {
    warn(`warning: --host ${settings.host} is reachable from the network: other machines can call the API and its functions, which run with this shell's AWS credentials and environment`);
  }
  session.startLines().forEach(print);
  const watcher = watchProject(project, settings, (files) => {
    session.changed(files).catch((error) => warn(`unexpected error while reloading: ${error?.stack ?? error}`));
  });
  await stopped;
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

/** `--from-stack` or `--outputs-file`, not both. */
function deployedSourceOf(fromStack: string | undefined, outputsFile: string | undefined, stacks: string[] | undefined): DeployedSource | undefined {
  if (fromStack !== undefined && outputsFile !== undefined) {
    throw new UsageError('give either --from-stack NAME or --outputs-file FILE, not both');
  }
  if (fromStack !== undefined) {
    if (fromStack.trim() === '') {
      throw new UsageError('--from-stack needs the name of a deployed stack');
    }
    return { kind: 'stack', stack: fromStack };
  }
  if (outputsFile !== undefined) {
    if (outputsFile.trim() === '') {
      throw new UsageError('--outputs-file needs a file (the JSON of cdk deploy --outputs-file)');
    }
    return { kind: 'outputs-file', file: outputsFile, stack: stacks?.length === 1 ? stacks[0] : undefined };
  }
  return undefined;
}

/** The file the sandbox writes, as a pattern relative to the root (so that writing it does not trigger a synth). */
function writtenFile(root: string, outDir: string, fileName: string): string[] {
  const relative = path.relative(root, path.join(outDir, fileName));
  return relative.startsWith('..') || path.isAbsolute(relative) ? [] : [relative.split(path.sep).join('/')];
}

/** Resolves on the first SIGINT or SIGTERM. */
function stopSignal(warn: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
      warn(`${signal}, stopping`);
      resolve();
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}
