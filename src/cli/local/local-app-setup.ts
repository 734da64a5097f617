/**
 * What every local-API command does before anything listens (`serve`, `sandbox` at each synth,
 * `test-invoke`): read the app, put the `--api-key` values in place, and find how its functions
 * run (the function runtime, with `--env-vars`). The server is started by local-api.ts.
 */
import type { FunctionLogSink } from './lambda/function-pool';
import { FunctionRuntime, functionRuntime } from './lambda/function-runtime';
import { Invoker } from './lambda/invoker';
import { LocalApiSettings } from './local-api-settings';
import { LocalApp } from './model/local-app';
import { readLocalApp } from './read-local-app';
import { withApiKeyValues } from './rest/api-key-values';

/** The settings the setup reads, and where it announces slow work (a runtime being fetched). */
export type AppSetupSettings = Pick<LocalApiSettings, 'apiKeys' | 'envVars' | 'hostRuntimes'> & {
  readonly progress?: (line: string) => void;
};

/** An app ready to serve or to invoke. */
export interface PreparedApp {
  /** The app, with the `--api-key` values in place. */
  readonly app: LocalApp;
  /** How its functions run: the app's folder, notes for the listing, warnings. */
  readonly runtime: FunctionRuntime;
  /** What to warn of at start: the app's (what is not emulated) and the runtime's. */
  readonly warnings: readonly string[];
}

/**
 * Prepares an app already read. `projectRoot` is the folder the app's code lives in (sandbox: the
 * CDK project), where the functions' node_modules are looked for.
 */
export function prepareLocalApp(app: LocalApp, settings: AppSetupSettings, projectRoot?: string): PreparedApp {
  const withKeys = withApiKeyValues(app, settings.apiKeys);
  const choice = { hostRuntimes: settings.hostRuntimes, progress: settings.progress };
  const runtime = functionRuntime(withKeys, settings.envVars, projectRoot, undefined, choice);
  return { app: withKeys, runtime, warnings: [...withKeys.warnings, ...runtime.warnings] };
}

/** Reads the cloud assembly in `assemblyDir` (its `--stack` stacks, with the deployed values passed) and prepares it. */
export function readPreparedApp(assemblyDir: string, settings: AppSetupSettings & Pick<LocalApiSettings, 'stacks' | 'deployed'>): PreparedApp {
  return prepareLocalApp(readLocalApp(assemblyDir, [...settings.stacks], settings.deployed), settings);
}

/** An invoker of the app's functions outside a server (test-invoke), set up as the server sets up its own. */
export function appInvoker(prepared: PreparedApp, settings: AppSetupSettings, log: FunctionLogSink): Invoker {
  return new Invoker(prepared.app.functions, {
    log,
    maxWorkersPerFunction: 1,
    envVars: settings.envVars,
    appFolder: prepared.runtime.appFolder,
  });
}
