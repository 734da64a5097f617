/**
 * One Node.js function's execution environments: worker threads inside a runtime host process
 * (runtime-host.ts), the first in the host's own thread. That one cannot be stopped alone: stopping
 * it ends the host, and the next environment starts in a new one; so does its own exit. When a
 * host dies, every environment in it is reported ended together.
 */
import { handlerStyleOf } from './handler-style';
import { nodeBinaryFor, nodeMajorOf } from './node-binaries';
import { RuntimeHost } from './runtime-host';
import type { EnvironmentEvents, FunctionRuntimeInput, InvokeContext, RunningFunction, RuntimeEnvironment } from '../runtime-family';

/** Where an environment runs. */
interface Placement {
  readonly host: RuntimeHost;
  /** In the host's own thread. */
  readonly inline: boolean;
}

export class NodeFunction implements RunningFunction {
  /** The host new environments start in (undefined: start a new one). */
  private host: RuntimeHost | undefined;
  /** Every host not known to have exited. */
  private readonly hosts = new Set<RuntimeHost>();
  /** Environments not known to have ended, by id. */
  private readonly placements = new Map<number, Placement>();

  constructor(private readonly input: FunctionRuntimeInput, private readonly events: EnvironmentEvents) {}

  startEnvironment(id: number): RuntimeEnvironment {
    const host = this.host ??= this.startHost();
    const placement: Placement = { host, inline: host.start(id) };
    this.placements.set(id, placement);
    return {
      retirable: !placement.inline,
      invoke: (event: unknown, context: InvokeContext) => host.invoke(id, context.awsRequestId, event),
      stop: () => this.stop(id, placement),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.hosts].map((host) => host.close()));
  }

  private stop(id: number, placement: Placement): void {
    this.forget(id, placement);
    placement.host.stop(id);
  }

  /** An environment is gone: when it ran in the host's own thread, so is (or soon will be) the host. */
  private forget(id: number, placement: Placement): void {
    this.placements.delete(id);
    if (placement.inline && this.host === placement.host) {
      this.host = undefined;
    }
  }

  private startHost(): RuntimeHost {
    const { fn, taskRoot, environment, context } = this.input;
    const host = new RuntimeHost({
      node: nodeBinaryFor(nodeMajorOf(fn.runtime)).path,
      environment: { ...environment },
      config: {
        directory: taskRoot,
        handler: fn.handler,
        timeoutMs: fn.timeoutSeconds * 1000,
        memoryMb: fn.memoryMb,
        handlerStyle: handlerStyleOf(fn.runtime),
        context,
      },
      onReady: (id) => this.events.ready(id),
      onInitError: (id, error) => {
        this.placements.delete(id);
        this.events.initError(id, error);
      },
      onLog: (id, requestId, level, text) => this.events.log(id, requestId, level, text),
      onResult: (id, requestId, payload, error, ms) => this.events.result(id, requestId, payload, error, ms),
      onExit: (id, reason, outOfMemory) => this.onEnvironmentExit(id, reason, outOfMemory),
      onHostExit: (exited, reason, outOfMemory) => this.onHostExit(exited, reason, outOfMemory),
    });
    this.hosts.add(host);
    return host;
  }

  private onEnvironmentExit(id: number, reason: string, outOfMemory: boolean): void {
    const placement = this.placements.get(id);
    if (placement !== undefined) {
      this.forget(id, placement);
    }
    this.events.exited([id], reason, outOfMemory, true);
  }

  /** Every environment of the host ended with it; a host that never got one ready failed to start them. */
  private onHostExit(host: RuntimeHost, reason: string, outOfMemory: boolean): void {
    this.hosts.delete(host);
    if (this.host === host) {
      this.host = undefined;
    }
    const ended: number[] = [];
    for (const [id, placement] of this.placements) {
      if (placement.host === host) {
        ended.push(id);
        this.placements.delete(id);
      }
    }
    this.events.exited(ended, reason, outOfMemory, !host.everReady);
  }
}
