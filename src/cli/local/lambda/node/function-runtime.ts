/**
 * What `serve` and `test-invoke` work out about the functions' runtime before starting them: the
 * app's `node_modules` (where the AWS SDK the Lambda runtime provides comes from), and the
 * start-up warnings (runtime versions, missing SDK packages, `--env-vars` objects naming nothing).
 */
import * as path from 'path';
import { appFolderOf } from './runtime-modules';
import { startupNotices } from './startup-notices';
import { LocalApp } from '../../model/local-app';
import { EnvVarsFile, unmatchedKeys } from '../env-vars';

export interface FunctionRuntime {
  readonly nodeModules: string;
  readonly warnings: readonly string[];
  readonly notes: ReadonlyMap<string, string>;
}

export function functionRuntime(app: LocalApp, envVars: EnvVarsFile | undefined, cwd: string = process.cwd()): FunctionRuntime {
  const appFolder = appFolderOf(app.assemblyDir, cwd);
  const nodeModules = path.join(appFolder, 'node_modules');
  const functions = [...app.functions.values()];
  const notices = startupNotices(functions, appFolder, nodeModules);
  return {
    nodeModules,
    warnings: [...(envVars === undefined ? [] : unmatchedKeys(envVars, functions)), ...notices.warnings],
    notes: notices.notes,
  };
}
