/**
 * "Wait for the event loop to be empty", as Lambda's Node.js runtime does after a callback handler
 * calls back (`callbackWaitsForEmptyEventLoop`), for one invocation: the timers, sockets, file
 * requests and other handles the invocation created (tracked with async_hooks while it runs) must
 * all be gone, or unreferenced. What the environment itself holds (its channel to the server,
 * what the handler module opened at init) does not count: here the environment's thread never
 * empties, so only the invocation's own work can be waited for. Other environments share the
 * thread: only resources created from the invocation's own async scope (its descendants) count.
 */
import { AsyncResource, createHook, executionAsyncId } from 'async_hooks';

/** Resource types that never keep the event loop alive by themselves. */
const NOT_HANDLES = new Set(['PROMISE', 'TickObject', 'Microtask']);

/** How often a waiting invocation looks again. */
const POLL_MS = 2;

/** The live handles of one invocation, from its start until it is finished. */
export class InvocationHandles {
  private readonly live = new Map<number, object>();
  /** The invocation's async scope and every async id created from it. */
  private readonly scope = new AsyncResource('LambdaInvocation');
  private readonly owned = new Set<number>([this.scope.asyncId()]);
  private readonly hook = createHook({
    init: (asyncId, type, trigger, resource) => {
      if (!this.owned.has(trigger) && !this.owned.has(executionAsyncId())) {
        return;
      }
      this.owned.add(asyncId);
      if (!NOT_HANDLES.has(type)) {
        this.live.set(asyncId, resource);
      }
    },
    destroy: (asyncId) => {
      this.live.delete(asyncId);
    },
  });

  /** Starts tracking: call right before the handler runs. */
  start(): this {
    this.hook.enable();
    return this;
  }

  /** Runs the handler in the invocation's own async scope. */
  run<T>(call: () => T): T {
    return this.scope.runInAsyncScope(call);
  }

  /** Resolves once every handle the invocation created is closed or unreferenced; stops tracking. */
  async drained(): Promise<void> {
    while (this.holdsLoop()) {
      await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS).unref());
    }
    this.stop();
  }

  stop(): void {
    this.hook.disable();
    this.live.clear();
    this.owned.clear();
  }

  private holdsLoop(): boolean {
    for (const [asyncId, resource] of this.live) {
      if (!keepsLoopAlive(resource)) {
        this.live.delete(asyncId);
      } else {
        return true;
      }
    }
    return false;
  }
}

/** Whether a handle still keeps the loop alive: not closed, not destroyed, not unreferenced. */
function keepsLoopAlive(resource: object): boolean {
  const r = resource as { hasRef?: () => boolean; destroyed?: boolean; _destroyed?: boolean; closed?: boolean };
  if (typeof r.hasRef === 'function' && !r.hasRef()) {
    return false;
  }
  return r.destroyed !== true && r._destroyed !== true && r.closed !== true;
}
