/**
 * The Node.js runtime family: `nodejs*` runtimes run on the Node.js of the major they name
 * (node-binaries.ts), each function's environments in a runtime host process of its own (node-function.ts, runtime-host.ts, host.ts).
 * The app's `node_modules` stands in for the AWS SDK the Lambda runtime provides.
 */
import * as path from 'path';
import { entryFile } from './entry-file';
import { NodeFunction } from './node-function';
import { startupNotices } from './startup-notices';
import type { AppContext, RuntimeFamily, RuntimeVariables } from '../runtime-family';

/** Where the AWS SDK the Lambda Node.js runtime provides comes from: the app's `node_modules`. */
function nodeModulesOf(appFolder: string): string {
  return path.join(appFolder, 'node_modules');
}

/**
 * `NODE_PATH` with the app's `node_modules` first (as the runtime's own modules are on Lambda's),
 * and `LAMBDA_RUNTIME_DIR`, the folder the runtime's own code runs from.
 */
function nodeVariables(app: AppContext): RuntimeVariables {
  const shellPath = app.shell.NODE_PATH;
  const nodePath = [app.appFolder === undefined ? undefined : nodeModulesOf(app.appFolder), shellPath]
    .filter((p) => p !== undefined && p !== '').join(path.delimiter);
  return {
    base: nodePath === '' ? {} : { NODE_PATH: nodePath },
    reserved: { LAMBDA_RUNTIME_DIR: path.dirname(entryFile('host')) },
  };
}

export const nodeFamily: RuntimeFamily = {
  name: 'Node.js',
  runtimePrefix: 'nodejs',
  supports: (runtime) => runtime.startsWith('nodejs'),
  inlineCodeFile: 'index.js',
  // An environment in the host's thread starts in about a millisecond.
  startsAtOnce: 64,
  notices: (functions, app) => startupNotices(functions, app, nodeModulesOf(app.appFolder)),
  variables: nodeVariables,
  start: (input, events) => new NodeFunction(input, events),
};
