/**
 * One Node.js function's execution environments, all in one runtime host process (host.ts). When
 * the host dies, every environment in it is reported ended together and the next environment
 * starts in a new host.
 */
import { handlerStyleOf } from './handler-style';
import { nodeBinaryFor, nodeMajorOf } from './node-binaries';
import { RuntimeHost } from './runtime-host';
import type { EnvironmentEvents, FunctionRuntimeInput, InvokeContext, RunningFunction, RuntimeEnvironment } from '../runtime-family';

export class NodeFunction implements RunningFunction {
  /** The host new environments start in (undefined: start a new one). */
  private host: RuntimeHost | undefined;
  /** Every host not known to have exited. */
  private readonly hosts = new Set<RuntimeHost>();
  /** Environments not known to have ended, with their host. */
  private readonly placements = new Map<number, RuntimeHost>();

  constructor(private readonly input: FunctionRuntimeInput, private readonly events: EnvironmentEvents) {}

  startEnvironment(id: number): RuntimeEnvironment {
    const host = this.host ??= this.startHost();
    this.placements.set(id, host);
    host.start(id);
    return {
      retirable: true,
      invoke: (event: unknown, context: InvokeContext) => host.invoke(id, context.awsRequestId, event, context.streamed === true),
      stop: (timedOut?: boolean) => {
        this.placements.delete(id);
        host.stop(id, timedOut === true);
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.hosts].map((host) => host.close()));
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
      onChunk: (id, requestId, data, contentType) => this.events.chunk(id, requestId, data, contentType),
      onExit: (id, reason, outOfMemory) => this.onEnvironmentExit(id, reason, outOfMemory),
      onHostExit: (exited, reason, outOfMemory, unstarted) => this.onHostExit(exited, reason, outOfMemory, unstarted),
    });
    this.hosts.add(host);
    return host;
  }

  private onEnvironmentExit(id: number, reason: string, outOfMemory: boolean): void {
    this.placements.delete(id);
    this.events.exited([id], reason, outOfMemory, true);
  }

  /**
   * Every environment of the host ended with it; a host that never got one ready failed to start
   * them. Invocations the host never reached go back to the function's queue.
   */
  private onHostExit(host: RuntimeHost, reason: string, outOfMemory: boolean, unstarted: ReadonlySet<number>): void {
    this.hosts.delete(host);
    if (this.host === host) {
      this.host = undefined;
    }
    const ended: number[] = [];
    for (const [id, placement] of this.placements) {
      if (placement === host) {
        this.placements.delete(id);
        if (!unstarted.has(id)) {
          ended.push(id);
        }
      }
    }
    if (unstarted.size > 0) {
      this.events.unstarted([...unstarted]);
    }
    this.events.exited(ended, reason, outOfMemory, !host.everReady);
  }
}
