/**
 * The start-up notices of the function runtime about variable values: each stand-in by function and
 * variable with what to pass, each variable left unset with why, and nothing for what --env-vars sets.
 */
import { fn } from './function-spec';
import type { EnvVarsFile } from '../../../../src/cli/local/lambda/env-vars';
import { functionRuntime } from '../../../../src/cli/local/lambda/function-runtime';
import type { LocalApp } from '../../../../src/cli/local/model/local-app';

function appOf(...functions: ReturnType<typeof fn>[]): LocalApp {
  return { assemblyDir: __dirname, stacks: [], apis: [], functions: new Map(functions.map((f) => [f.key, f])), warnings: [], unserved: [] };
}

const HANDLER = fn('nodejs20.x', {
  constructPath: 'Backend/Handler',
  environment: { TABLE_NAME: 'Backend-Items5C12978B-LOCAL', PLAIN: 'x' },
  standIns: [{ variable: 'TABLE_NAME', reference: 'Ref Items5C12978B', value: 'Backend-Items5C12978B-LOCAL' }],
  unresolvedVariables: [{ variable: 'SHARED', problem: 'Fn::ImportValue Shared is not known locally' }],
});

test('a stand-in and an unset variable are named per function, with what to pass', () => {
  const warnings = functionRuntime(appOf(HANDLER), undefined, __dirname, []).warnings;
  expect(warnings).toEqual([
    'Backend/Handler: TABLE_NAME = stand-in "Backend-Items5C12978B-LOCAL" for Ref Items5C12978B (pass --outputs-file FILE, --from-stack NAME or --env-vars FILE)',
    'Backend/Handler: SHARED is not set: Fn::ImportValue Shared is not known locally (pass it with --env-vars FILE)',
  ]);
});

test('a variable that --env-vars sets is not named', () => {
  const envVars: EnvVarsFile = { file: 'env.json', parameters: { SHARED: 'mine' }, perFunction: new Map([['Backend/Handler', { TABLE_NAME: 'mine' }]]) };
  expect(functionRuntime(appOf(HANDLER), envVars, __dirname, []).warnings).toEqual([]);
});
