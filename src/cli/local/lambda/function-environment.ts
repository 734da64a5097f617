/**
 * The environment variables one function's runtime sees, in the order Lambda layers them: this
 * shell's (credentials, `AWS_ENDPOINT_URL*` and the rest pass through), then the template's
 * `Environment.Variables`, then `--env-vars`, and last what the runtime itself defines (reserved:
 * neither the template nor the file can change them, as on Lambda).
 */
import { EnvVarsFile, envVarsFor, reservedInTemplate } from './env-vars';
import type { RuntimeVariables } from './runtime-family';
import type { FunctionSpec } from '../model/function-spec';

export interface FunctionEnvironmentInput {
  readonly fn: FunctionSpec;
  /** The function's code folder (`LAMBDA_TASK_ROOT`). */
  readonly taskRoot: string;
  readonly logStreamName: string;
  /** The shell's environment. */
  readonly shell: NodeJS.ProcessEnv;
  /** Extra variables for every function (after the shell's). */
  readonly extra?: Readonly<Record<string, string>>;
  readonly envVars?: EnvVarsFile;
  /** What the function's runtime family defines (a module search path, its own folder). */
  readonly runtime: RuntimeVariables;
}

export function functionEnvironment(input: FunctionEnvironmentInput): Record<string, string> {
  const { fn } = input;
  const shell: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.shell)) {
    if (value !== undefined) {
      shell[name] = value;
    }
  }
  return {
    ...shell,
    ...input.extra,
    ...input.runtime.base,
    TZ: ':UTC',
    // Reserved names in the template are ignored (Lambda refuses them; serve warns at start).
    ...Object.fromEntries(Object.entries(fn.environment).filter(([name]) => !reservedInTemplate(name))),
    ...envVarsFor(input.envVars, fn),
    AWS_REGION: fn.region,
    AWS_DEFAULT_REGION: fn.region,
    AWS_LAMBDA_FUNCTION_NAME: fn.functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: input.logStreamName,
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    LAMBDA_TASK_ROOT: input.taskRoot,
    ...input.runtime.reserved,
    _HANDLER: fn.handler,
  };
}
