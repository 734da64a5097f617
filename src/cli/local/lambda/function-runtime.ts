/**
 * What `serve`, `sandbox` and `test-invoke` work out about the functions' runtimes before starting
 * them: the app's folder (where a family finds what the Lambda runtime provides), and the start-up
 * warnings and listing notes (`--env-vars` objects naming nothing, reserved variables in the
 * template, and what each runtime family announces about its functions).
 */
import { appFolderOf } from './app-folder';
import { EnvVarsFile, envVarsFor, reservedInTemplate, unmatchedKeys } from './env-vars';
import { functionLabel } from './function-label';
import { RUNTIME_FAMILIES } from './runtime-families';
import type { RuntimeFamily } from './runtime-family';
import type { FunctionSpec } from '../model/function-spec';
import type { LocalApp } from '../model/local-app';

export interface FunctionRuntime {
  /** The CDK app's folder, for the invoker (see {@link AppContext}). */
  readonly appFolder: string;
  readonly warnings: readonly string[];
  /** Function key → what its routes are marked with in the listing. */
  readonly notes: ReadonlyMap<string, string>;
}

/** How the functions' runtimes are chosen, and where a slow start is announced. */
export interface RuntimeChoice {
  /** `--node host`: every function on this machine's own runtime. */
  readonly hostRuntimes?: boolean;
  readonly progress?: (line: string) => void;
}

export function functionRuntime(
  app: LocalApp, envVars: EnvVarsFile | undefined, cwd: string = process.cwd(), families: readonly RuntimeFamily[] = RUNTIME_FAMILIES,
  choice: RuntimeChoice = {},
): FunctionRuntime {
  const appFolder = appFolderOf(app.assemblyDir, cwd);
  const functions = [...app.functions.values()];
  const runnable = functions.filter((fn) => fn.code.kind !== 'unsupported');
  const warnings = [
    ...(envVars === undefined ? [] : unmatchedKeys(envVars, functions)),
    ...reservedVariableWarnings(runnable),
    ...variableValueNotices(runnable, envVars),
  ];
  const notes = new Map<string, string>();
  for (const family of families) {
    const notices = family.notices(runnable.filter((fn) => family.supports(fn.runtime)), {
      appFolder, shell: process.env, hostRuntimes: choice.hostRuntimes === true, progress: choice.progress ?? (() => undefined),
    });
    warnings.push(...notices.warnings);
    notices.notes.forEach((note, key) => notes.set(key, note));
  }
  return { appFolder, warnings, notes };
}

/**
 * The variables whose value is a stand-in (the template names a value it does not spell out, and
 * no deployed value was passed) or is not set at all, each with what to pass; a variable
 * `--env-vars` sets is not named.
 */
function variableValueNotices(functions: readonly FunctionSpec[], envVars: EnvVarsFile | undefined): string[] {
  const notices: string[] = [];
  for (const fn of functions) {
    const given = envVarsFor(envVars, fn);
    for (const standIn of fn.standIns ?? []) {
      if (!Object.hasOwn(given, standIn.variable)) {
        notices.push(`${functionLabel(fn)}: ${standIn.variable} = stand-in "${standIn.value}" for ${standIn.reference} (pass --outputs-file FILE, --from-stack NAME or --env-vars FILE)`);
      }
    }
    for (const { variable, problem } of fn.unresolvedVariables ?? []) {
      if (!Object.hasOwn(given, variable)) {
        notices.push(`${functionLabel(fn)}: ${variable} is not set: ${problem} (pass it with --env-vars FILE)`);
      }
    }
  }
  return notices;
}

/** Template variables the Lambda runtime reserves: Lambda refuses them at deploy, here they are ignored. */
function reservedVariableWarnings(functions: readonly FunctionSpec[]): string[] {
  const warnings: string[] = [];
  for (const fn of functions) {
    const reserved = Object.keys(fn.environment).filter(reservedInTemplate);
    if (reserved.length > 0) {
      warnings.push(`${functionLabel(fn)}: Environment.Variables sets ${reserved.join(', ')}, reserved by the Lambda runtime (Lambda refuses the function at deploy); ignored here`);
    }
  }
  return warnings;
}
