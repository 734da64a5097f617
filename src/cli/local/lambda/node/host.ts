/**
 * The runtime host of one function: a child process of the server whose worker threads are the
 * function's execution environments (runtime.ts). It starts, feeds and stops environments as the
 * server says and reports what they do. The first environment runs in the host's own thread
 * (no hop between threads for the requests it serves: most of a fast function's); it cannot be
 * stopped alone, so the server ends the whole host to stop it.
 *
 * Why a process: a worker's `resourceLimits` end it when its heap grows past the limit, but one
 * allocation far past it (`new Array(1e9).fill(0)`) aborts the whole process. Here that ends this
 * host only; the server notices, fails that function's running invocations and starts a new host.
 */
import { Worker } from 'worker_threads';
import { startRuntime } from './environment-runtime';
import { EnvironmentConfig, HostCommand, HostEvent, MAX_BATCH, RuntimeInvocation, RuntimeMessage } from './protocol';

let config: EnvironmentConfig | undefined;
let runtimeFile = '';
const environments = new Map<number, Environment>();

let outbox: HostEvent[] = [];
function emit(event: HostEvent): void {
  if (outbox.length === 0) {
    setImmediate(flush);
  }
  outbox.push(event);
  if (outbox.length >= MAX_BATCH) {
    flush();
  }
}
function flush(then?: () => void): void {
  const batch = outbox;
  outbox = [];
  if (process.connected && batch.length > 0) {
    process.send!(batch, undefined, {}, () => then?.());
  } else {
    then?.();
  }
}

class Environment {
  private readonly worker: Worker | undefined;
  /** Takes invocation batches when the environment runs in this thread. */
  private readonly inline: ((batch: RuntimeInvocation[]) => void) | undefined;
  /** Request ids sent, in order; the first is running (the environment runs one at a time). */
  private readonly sent: string[] = [];
  /** Invocations for a worker, sent as one message per turn of the event loop. */
  private inbox: RuntimeInvocation[] = [];
  private outOfMemory = false;
  private ended = false;

  constructor(private readonly id: number, settings: EnvironmentConfig, inline: boolean) {
    if (inline) {
      this.inline = startRuntime(settings, (batch) => this.onBatch(batch), (code) => {
        // The report must reach the server before the process ends.
        this.end(`exit status ${code}`);
        flush(() => process.exit(code));
      }, false);
      return;
    }
    this.worker = new Worker(runtimeFile, {
      workerData: settings,
      stdout: true,
      stderr: true,
      // As for the host's own thread: a small young generation (8 MB an environment, not 50).
      resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb, maxYoungGenerationSizeMb: 6 },
    });
    this.worker.on('message', (batch: RuntimeMessage[]) => this.onBatch(batch));
    this.worker.on('error', (error: Error & { code?: string }) => {
      if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.outOfMemory = true;
      }
      this.end(`${error?.name ?? 'Error'}: ${error?.message ?? error}`);
    });
    this.worker.on('exit', (code) => this.end(`exit status ${code}`));
    const forward = (level: string) => (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').replace(/\n$/, '').split('\n')) {
        emit(['log', this.id, this.sent[0] ?? null, level, line]);
      }
    };
    this.worker.stdout.on('data', forward('STDOUT'));
    this.worker.stderr.on('data', forward('STDERR'));
  }

  invoke(requestId: string, event: unknown): void {
    this.sent.push(requestId);
    if (this.inline !== undefined) {
      // This thread: straight into the environment's queue, no wait for the next turn.
      if (!this.ended) {
        this.inline([[requestId, event]]);
      }
      return;
    }
    if (this.inbox.length === 0) {
      setImmediate(() => this.flush());
    }
    this.inbox.push([requestId, event]);
  }

  private flush(): void {
    const batch = this.inbox;
    this.inbox = [];
    if (!this.ended && batch.length > 0) {
      this.worker!.postMessage(batch);
    }
  }

  private onBatch(batch: RuntimeMessage[]): void {
    for (const message of batch) {
      this.onMessage(message);
    }
  }

  stop(): void {
    this.ended = true;
    environments.delete(this.id);
    void this.worker?.terminate();
  }

  private onMessage(message: RuntimeMessage): void {
    switch (message.t) {
      case 'ready':
        emit(['ready', this.id]);
        return;
      case 'init-error':
        emit(['init-error', this.id, message.error]);
        this.stop();
        return;
      case 'log':
        for (const line of message.text.split('\n')) {
          emit(['log', this.id, message.id, message.level, line]);
        }
        return;
      case 'result':
        this.sent.shift();
        emit(['result', this.id, message.id, message.payload, message.error, message.ms]);
        return;
      case 'out-of-memory':
        this.outOfMemory = true;
        emit(['log', this.id, this.sent[0] ?? null, 'ERROR', `memory in use (${message.usedMb} MB) exceeded MemorySize (${config?.memoryMb} MB)`]);
        return;
    }
  }

  private end(reason: string): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    environments.delete(this.id);
    emit(['exit', this.id, reason, this.outOfMemory]);
  }
}

function onCommand(command: HostCommand): void {
  switch (command[0]) {
    case 'configure':
      config = command[1];
      runtimeFile = command[2];
      return;
    case 'start':
      environments.set(command[1], new Environment(command[1], config!, command[2]));
      return;
    case 'invoke':
      environments.get(command[1])?.invoke(command[2], command[3]);
      return;
    case 'stop':
      environments.get(command[1])?.stop();
      return;
  }
}

process.on('message', (batch: HostCommand[]) => {
  for (const command of batch) {
    onCommand(command);
  }
});
// The server went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));
