/**
 * One Python function's execution environments: each a process of its own (python-environment.ts),
 * so stopping one (timeout, retirement, reload) never touches another.
 */
import { PythonEnvironment } from './python-environment';
import { pythonFor } from './python-interpreter';
import { MAX_RESPONSE_PAYLOAD_BYTES } from '../limits';
import type { EnvironmentEvents, FunctionRuntimeInput, RunningFunction, RuntimeEnvironment } from '../runtime-family';

export class PythonFunction implements RunningFunction {
  private readonly environments = new Set<PythonEnvironment>();

  constructor(private readonly input: FunctionRuntimeInput, private readonly events: EnvironmentEvents) {}

  startEnvironment(id: number): RuntimeEnvironment {
    const { fn, taskRoot, environment, context } = this.input;
    const python = pythonFor(fn.runtime);
    if (python === undefined) {
      // The family is unavailable without Python, so this is only reached if Python went away since start.
      setImmediate(() => this.events.initError(id, { errorType: 'Runtime.Unavailable', errorMessage: 'no python3 found on PATH', trace: [] }));
      return { retirable: true, invoke: () => undefined, stop: () => undefined };
    }
    const env = new PythonEnvironment({
      id,
      python: python.command,
      taskRoot,
      environment,
      config: {
        handler: fn.handler, timeoutMs: fn.timeoutSeconds * 1000, memoryMb: fn.memoryMb, maxResponseBytes: MAX_RESPONSE_PAYLOAD_BYTES, context,
      },
      events: this.events,
      onEnd: () => this.environments.delete(env),
    });
    this.environments.add(env);
    return {
      retirable: true,
      invoke: (event, invokeContext) => env.invoke(event, invokeContext),
      stop: () => {
        this.environments.delete(env);
        env.stop();
      },
    };
  }

  async close(): Promise<void> {
    const all = [...this.environments];
    this.environments.clear();
    await Promise.all(all.map((env) => env.close()));
  }
}
