/**
 * The warm synth process: started by the sandbox in the project folder, it loads the app's
 * TypeScript runner (the app's own tsx or ts-node) and aws-cdk-lib once, then on each request runs
 * the app's own modules again (every cached module outside node_modules is dropped first) and
 * synthesizes the apps they create, as the CDK CLI's process would at exit. The bundling commands
 * the app runs are recorded (build-record.ts), and an esbuild run that esbuild-command.ts can read
 * is done in this process through esbuild's API instead of a new `npx esbuild` process.
 */
import type * as ChildProcessModule from 'child_process';
import { createRequire } from 'module';
import * as path from 'path';
import { AssetCopy, BuildRecord, copiesEverything } from './build-record';
import { isDependency, loadedAppModules, recordBundling } from './bundling-recorder';
import { readEsbuildCommand } from './esbuild-command';
import { SynthRequestMessage, WARM_APP_VARIABLE, WarmAppEntry, WorkerMessage } from './warm-synth-protocol';

const send = (message: WorkerMessage) => process.send!(message);

/** Loads modules as a `require` in the project folder would (the app's own, from its node_modules). */
const appRequire = createRequire(path.join(process.cwd(), 'package.json'));


function main(): void {
  const app = JSON.parse(process.env[WARM_APP_VARIABLE] ?? '{}') as WarmAppEntry;
  delete process.env[WARM_APP_VARIABLE];
  const root = process.cwd();
  try {
    registerRunner(app.runner, root);
  } catch (error) {
    send({ type: 'unusable', reason: `cannot load ${app.runner} from ${root}/node_modules (${(error as Error).message.split('\n')[0]})` });
    return;
  }
  const cdk = preload('aws-cdk-lib', path.dirname(app.entry));
  const records: BuildRecord[] = [];
  const esbuild = loadEsbuild(root);
  recordBundling(records, (command, cwd) => runInProcess(esbuild, command, cwd));
  const copies: AssetCopy[] = [];
  recordAssetCopies(copies, cdk);
  // Node.js opens the handles of stdout and stderr when they are first used: opened by an app's
  // first console.log, they would stay among the active resources and the run would never be idle.
  void process.stdout;
  void process.stderr;
  const kept = new Set(Object.keys(require.cache));
  const keptExitListeners = new Set(process.listeners('beforeExit'));
  process.on('uncaughtException', (error) => process.stderr.write(`${error.stack ?? error}\n`));
  process.on('message', (message: SynthRequestMessage) => {
    if (message.type === 'synth') {
      void runApp(app, message, { records, copies }, kept, keptExitListeners).finally(() => {
        // Each run stages into a new folder, so the staging cache (keyed by folder) only grows.
        cdk?.AssetStaging?.clearAssetHashCache?.();
      });
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

/** Hooks the app's TypeScript runner into require, loaded from the app's node_modules (not ours). */
function registerRunner(runner: WarmAppEntry['runner'], root: string): void {
  const fromRoot = createRequire(path.join(root, 'package.json'));
  if (runner === 'tsx') {
    fromRoot('tsx/cjs/api').register();
  } else if (runner === 'ts-node') {
    fromRoot('ts-node').register({ preferTsExts: true });
  }
}

/** Loads a module of the app's once, so that every run finds it cached. */
function preload(name: string, from: string): any {
  try {
    return createRequire(path.join(from, 'index.js'))(name);
  } catch {
    return undefined; // the app does not have it (or loads it from elsewhere): its first run loads it
  }
}

/** Wraps aws-cdk-lib's FileSystem.copyDirectory, with which AssetStaging copies a folder asset. */
function recordAssetCopies(copies: AssetCopy[], cdk: any): void {
  const fileSystem = cdk?.FileSystem;
  const original = fileSystem?.copyDirectory;
  if (typeof original !== 'function') {
    return;
  }
  fileSystem.copyDirectory = function copyDirectory(srcDir: string, destDir: string, options?: any, rootDir?: string) {
    const result = original.call(this, srcDir, destDir, options, rootDir);
    if (rootDir === undefined && copiesEverything(options)) {
      copies.push({ source: path.resolve(srcDir), staged: path.resolve(destDir) });
    }
    return result;
  };
}

function loadEsbuild(root: string): any {
  try {
    return createRequire(path.join(root, 'package.json'))('esbuild');
  } catch {
    return undefined;
  }
}

/** The command done by esbuild's buildSync (no npx, no new process), or undefined to spawn it. */
function runInProcess(esbuild: any, command: string, cwd: string): ChildProcessModule.SpawnSyncReturns<Buffer> | undefined {
  const invocation = readEsbuildCommand(command);
  if (esbuild === undefined || invocation === undefined) {
    return undefined;
  }
  try {
    esbuild.buildSync({ ...invocation.options, absWorkingDir: cwd, logLevel: 'silent' });
  } catch {
    return undefined; // spawned instead, so the app sees esbuild's own report of the failure
  }
  const empty = Buffer.alloc(0);
  return { pid: 0, status: 0, signal: null, stdout: empty, stderr: empty, output: [null, empty, empty] };
}

async function runApp(
  app: WarmAppEntry,
  request: SynthRequestMessage,
  { records, copies }: { records: BuildRecord[]; copies: AssetCopy[] },
  kept: Set<string>,
  keptExitListeners: Set<Function>,
): Promise<void> {
  records.length = 0;
  copies.length = 0;
  forgetAppModules(kept, keptExitListeners);
  const cdkState = cdkStateBefore();
  Object.assign(process.env, request.env);
  let error: string | undefined;
  const before = activeResources();
  try {
    runAsMain(app.entry);
    // Wait until the app's own work is done (an async `main()`, lookups), then synthesize as the
    // CLI's process would when it ends: aws-cdk-lib's App synthesizes in a `beforeExit` listener.
    await untilIdle(before);
    for (const listener of process.listeners('beforeExit')) {
      if (!keptExitListeners.has(listener)) {
        process.removeListener('beforeExit', listener);
        (listener as () => void)();
      }
    }
  } catch (thrown) {
    error = (thrown as Error)?.stack ?? String(thrown);
    process.stderr.write(`${error}\n`);
  }
  const appModules = loadedAppModules(kept);
  releaseRunState(cdkState);
  send({ type: 'done', id: request.id, error, builds: [...records], copies: [...copies], appModules, rss: process.memoryUsage().rss });
  // Collected now, off the reload's path, so that the next run starts from the same heap.
  setImmediate(() => (global as any).gc?.());
}

/** What aws-cdk-lib's process-wide registries held before a run, and how many dependency modules were loaded. */
interface CdkState {
  readonly stringTokens: Set<string>;
  readonly numberTokens: Set<number>;
  readonly dependencies: number;
}

function cdkStateBefore(): CdkState {
  const tokens = (global as any).__cdkTokenMap;
  return {
    stringTokens: new Set(tokens?.stringTokenMap?.keys() ?? []),
    numberTokens: new Set(tokens?.numberTokenMap?.keys() ?? []),
    dependencies: dependencyCount(),
  };
}

/**
 * Lets the run's construct trees go: aws-cdk-lib keeps every token ever made in a process-wide
 * map (global.__cdkTokenMap) and every CloudFormation reference by target construct
 * (CfnReference.referenceTable); a CLI process ends after one synth, this one does not (measured:
 * 0.35 MB more heap per synth without this). The references all belong to this run's apps. Tokens
 * are dropped only when the run loaded no new dependency module, whose top-level code could have
 * made a token it keeps (as `Aws.REGION` is).
 */
function releaseRunState(before: CdkState): void {
  for (const [file, cached] of Object.entries(require.cache)) {
    if (file.endsWith(path.join('aws-cdk-lib', 'core', 'lib', 'private', 'cfn-reference.js'))) {
      (cached?.exports?.CfnReference?.referenceTable as Map<unknown, unknown> | undefined)?.clear();
    }
  }
  const tokens = (global as any).__cdkTokenMap;
  if (tokens === undefined || dependencyCount() !== before.dependencies) {
    return;
  }
  for (const [map, kept] of [[tokens.stringTokenMap, before.stringTokens], [tokens.numberTokenMap, before.numberTokens]] as const) {
    for (const key of [...(map as Map<unknown, unknown>).keys()]) {
      if (!(kept as Set<unknown>).has(key)) {
        (map as Map<unknown, unknown>).delete(key);
      }
    }
  }
}

function dependencyCount(): number {
  return Object.keys(require.cache).filter(isDependency).length;
}

/** How many resources of each type keep the event loop alive (timers, sockets, child processes). */
function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) {
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

/**
 * Resolves once no more resources are active than `before` (when the app's process would have
 * reached `beforeExit`). Checked from an immediate, which does not count itself; an app that never
 * settles keeps the run going, as its own process would, until the sandbox stops it.
 */
function untilIdle(before: Map<string, number>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const busy = [...activeResources()].some(([type, count]) => count > (before.get(type) ?? 0));
      if (busy) {
        setTimeout(() => setImmediate(check), 10);
      } else {
        resolve();
      }
    };
    setImmediate(check);
  });
}

/**
 * Loads the entry as the main module of its own process would be: `require.main === module` holds
 * in it (an app that synthesizes only when run directly), and `process.argv[1]` names it.
 */
function runAsMain(entry: string): void {
  const ModuleClass = appRequire('module'); // the class itself (an import gives a namespace copy)
  const entryModule = new ModuleClass(entry, null);
  entryModule.filename = entry;
  entryModule.paths = ModuleClass._nodeModulePaths(path.dirname(entry));
  process.argv = [process.argv[0], entry];
  (process as any).mainModule = entryModule;
  require.cache[entry] = entryModule;
  try {
    entryModule.load(entry);
  } catch (error) {
    delete require.cache[entry];
    throw error;
  }
}

/** Drops the app's own modules (and the `beforeExit` listeners of a run that failed) from the last run. */
function forgetAppModules(kept: Set<string>, keptExitListeners: Set<Function>): void {
  for (const listener of process.listeners('beforeExit')) {
    if (!keptExitListeners.has(listener)) {
      process.removeListener('beforeExit', listener);
    }
  }
  for (const file of Object.keys(require.cache)) {
    if (!kept.has(file) && !isDependency(file)) {
      delete require.cache[file];
    }
  }
}


if (require.main === module) {
  main();
}
