/**
 * The Python runtime family: `python3.x` runtimes run on this machine's Python of that version
 * when installed, else its `python3` (python-interpreter.ts), each execution environment a process
 * of its own running bootstrap.py (python-function.ts, python-environment.ts). The app's
 * virtualenv stands in for the boto3 the Lambda runtime provides (python-packages.ts).
 */
import * as path from 'path';
import { PYTHON_RUNTIME_DIR } from './bootstrap-file';
import { PythonFunction } from './python-function';
import { hostPython } from './python-interpreter';
import { virtualenvSitePackages } from './python-packages';
import { startupNotices } from './startup-notices';
import type { AppContext, RuntimeFamily, RuntimeVariables } from '../runtime-family';

/**
 * `LAMBDA_RUNTIME_DIR` (where bootstrap.py is) and `PYTHONPATH` as Lambda sets it (the runtime's
 * folder), then the app's virtualenv packages and the shell's own `PYTHONPATH`. The code folder
 * comes first on `sys.path` (bootstrap.py puts it there, as the runtime puts `/var/task`).
 */
function pythonVariables(app: AppContext): RuntimeVariables {
  const pythonPath = [PYTHON_RUNTIME_DIR, ...virtualenvSitePackages(app.appFolder), app.shell.PYTHONPATH]
    .filter((p): p is string => p !== undefined && p !== '').join(path.delimiter);
  return {
    base: {},
    reserved: { LAMBDA_RUNTIME_DIR: PYTHON_RUNTIME_DIR, PYTHONPATH: pythonPath },
  };
}

export const pythonFamily: RuntimeFamily = {
  name: 'Python',
  runtimePrefix: 'python',
  supports: (runtime) => runtime.startsWith('python'),
  unavailable: (runtime) => hostPython() === undefined ? `runtime ${runtime} is not run locally: no python3 on PATH (install Python 3 to run it)` : undefined,
  inlineCodeFile: 'index.py',
  notices: (functions, app) => startupNotices(functions, app),
  variables: pythonVariables,
  start: (input, events) => new PythonFunction(input, events),
};
