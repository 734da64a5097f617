/**
 * What serve announces about the Python functions before the first request: runtimes whose own
 * Python is not installed (they run on this machine's `python3`), and boto3 / botocore that a
 * function imports but that neither the app's virtualenv nor the interpreter holds (the Lambda
 * runtime provides them). Each comes with a note for the function's routes.
 */
import * as path from 'path';
import { PYTHON_RUNTIME_DIR } from './bootstrap-file';
import { pythonFor, pythonVersionOf } from './python-interpreter';
import { missingPackages, runtimeImportsOf, virtualenvSitePackages } from './python-packages';
import type { FunctionSpec } from '../../model/function-spec';
import { functionLabel } from '../function-label';
import type { AppContext, RuntimeNotices } from '../runtime-family';

function addNote(notes: Map<string, string>, key: string, note: string): void {
  const before = notes.get(key);
  notes.set(key, before === undefined ? note : `${before}; ${note}`);
}

export function startupNotices(functions: readonly FunctionSpec[], app: Required<AppContext>): RuntimeNotices {
  const warnings: string[] = [];
  const notes = new Map<string, string>();
  for (const runtime of [...new Set(functions.map((fn) => fn.runtime))].sort()) {
    const affected = functions.filter((fn) => fn.runtime === runtime);
    const python = pythonFor(runtime);
    const wanted = pythonVersionOf(runtime);
    if (python !== undefined && wanted !== undefined && python.version !== wanted) {
      warnings.push(`${affected.map(functionLabel).join(', ')}: runtime ${runtime} runs on this machine's Python ${python.version} (no working python${wanted} on PATH); what differs between Python ${wanted} and ${python.version} differs here`);
      affected.forEach((fn) => addNote(notes, fn.key, `${runtime} on Python ${python.version}`));
    }
  }
  const venv = virtualenvSitePackages(app.appFolder);
  for (const fn of functions) {
    const python = pythonFor(fn.runtime);
    const imports = runtimeImportsOf(fn);
    const directory = fn.code.kind === 'directory' ? fn.code.directory : undefined;
    const pythonPath = [PYTHON_RUNTIME_DIR, ...venv].join(path.delimiter);
    const missing = python === undefined ? [] : missingPackages(python.command, pythonPath, directory, imports);
    if (missing.length > 0) {
      warnings.push(`${functionLabel(fn)}: ${missingPackagesWarning(missing, python!.name, venv[0], app.appFolder)}`);
      addNote(notes, fn.key, `missing ${missing.join(', ')}`);
    }
  }
  return { warnings, notes };
}

/** What to say about packages the Lambda runtime provides that do not import here, and the command that installs them. */
function missingPackagesWarning(missing: readonly string[], python: string, venv: string | undefined, appFolder: string): string {
  const packages = missing.join(' ');
  const consequence = 'its requests fail at init (502, Runtime.ImportModuleError) until you run';
  return venv !== undefined
    ? `imports ${packages}, which the Lambda runtime provides but neither ${venv} nor ${python} has; ${consequence} in ${appFolder}: .venv/bin/pip install ${packages}`
    : `imports ${packages}, which the Lambda runtime provides but ${python} does not have (and ${appFolder} has no .venv); ${consequence}: ${python} -m pip install ${packages}`;
}
