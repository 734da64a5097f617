/**
 * The server's side of the template host processes (template-host.ts): templates are evaluated
 * there, off the server's thread, each within a deadline. A host evaluates one template at a time;
 * up to {@link MAX_TEMPLATE_HOSTS} run at once and further templates wait their turn; when a
 * template runs long and no host is free, a spare one is started ahead of need. A host past
 * its deadline (a JavaScript method that does not return, such as `$s.search(pattern)` backtracking) is
 * killed and its template fails; a host that dies (V8 aborts a process whose heap runs out) fails
 * its template too. Either way the next template gets a new host.
 *
 * Why processes and not worker threads: a worker's `resourceLimits` do not contain a heap that
 * runs out (`#foreach` loops adding to a list abort the whole process), and the server must outlive
 * any template.
 */
import { ChildProcess, fork } from 'child_process';
import type { TemplateInput, TemplateOutput } from './evaluate-template';
import { pastDeadline, TemplateError } from './template-error';
import { MAX_TEMPLATE_HOSTS, TEMPLATE_DEADLINE_MS, TEMPLATE_HOST_HEAP_MB } from './template-limits';
import type { EvaluateRequest, HostMessage } from './template-protocol';
import { entryFileIn } from '../../common/entry-file';

/** A template running this long (once its host is ready) may spin: a spare host is started for the templates after it. */
const SLOW_TEMPLATE_MS = 100;

/** Time a host gets past the deadline it checks itself before it is killed. */
const KILL_GRACE_MS = 1000;

/** What V8 prints before aborting a process whose heap ran out. */
const FATAL_MEMORY = /heap out of memory|Allocation failed|invalid size error|invalid table size|invalid array length/i;

interface Job {
  readonly request: EvaluateRequest;
  readonly resolve: (output: TemplateOutput) => void;
  readonly reject: (error: TemplateError) => void;
}

class TemplateHost {
  private readonly child: ChildProcess;
  private job: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  private slowTimer: NodeJS.Timeout | undefined;
  /** The end of what the host wrote to stderr so far, enough to find {@link FATAL_MEMORY} across two chunks. */
  private stderrTail = '';
  /** V8 reported the heap out of memory (its native stack trace follows, 2.5 KB on Node.js 22: longer than any tail kept). */
  private outOfMemory = false;
  /** The host loaded its engine: from then on, a template's time is its own. */
  private ready = false;
  private ended = false;

  constructor(
    script: string,
    private readonly onFree: (host: TemplateHost) => void,
    private readonly onEnd: (host: TemplateHost) => void,
    private readonly onSlow: () => void,
  ) {
    this.child = fork(script, [], {
      execArgv: [`--max-old-space-size=${TEMPLATE_HOST_HEAP_MB}`],
      // JSON costs less than the structured clone of 'advanced' for these messages (plain data).
      serialization: 'json',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // Idle hosts do not keep the server's process alive; a job's timer does while it runs.
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.child.stderr!.on('data', (chunk: Buffer) => {
      const text = this.stderrTail + chunk.toString('utf8');
      this.outOfMemory ||= FATAL_MEMORY.test(text);
      this.stderrTail = text.slice(-2048);
    });
    (this.child.stderr as { unref?: () => void }).unref?.();
    this.child.on('message', (message: HostMessage) => this.onMessage(message));
    this.child.on('error', () => this.end(undefined));
    // 'close', not 'exit': by then stderr is read to its end (V8's out-of-memory report).
    this.child.on('close', (code, signal) => this.end(code ?? signal));
  }

  run(job: Job): void {
    this.job = job;
    this.timer = setTimeout(() => {
      this.fail(pastDeadline());
      this.kill();
    }, TEMPLATE_DEADLINE_MS + KILL_GRACE_MS);
    if (this.ready) {
      this.watchSlow();
    }
    this.child.send(job.request);
  }

  kill(): void {
    if (!this.ended) {
      this.child.kill('SIGKILL');
    }
    this.end('SIGKILL');
  }

  /** Past {@link SLOW_TEMPLATE_MS} of the running template, the pool is told (it may start a spare host). */
  private watchSlow(): void {
    this.slowTimer = setTimeout(this.onSlow, SLOW_TEMPLATE_MS);
    this.slowTimer.unref();
  }

  private onMessage(message: HostMessage): void {
    if ('ready' in message) {
      this.ready = true;
      if (this.job !== undefined) {
        this.watchSlow();
      }
      return;
    }
    const reply = message;
    const job = this.take();
    if (job === undefined || job.request.id !== reply.id) {
      return;
    }
    if ('output' in reply) {
      job.resolve(reply.output);
    } else {
      const error = new TemplateError(reply.failure.kind, reply.failure.reason);
      error.message = reply.failure.message;
      job.reject(error);
    }
    this.onFree(this);
  }

  /** The host stopped: its template (if any) failed; the pool forgets it. */
  private end(status: number | string | null | undefined): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    const reason = this.outOfMemory
      ? 'the template ran out of memory and its evaluation was stopped'
      : `the template's evaluation stopped (template host exited: ${status ?? 'unknown'})`;
    this.fail(new TemplateError('configuration', reason));
    this.onEnd(this);
  }

  private fail(error: TemplateError): void {
    this.take()?.reject(error);
  }

  private take(): Job | undefined {
    const job = this.job;
    this.job = undefined;
    clearTimeout(this.timer);
    clearTimeout(this.slowTimer);
    this.timer = undefined;
    this.slowTimer = undefined;
    return job;
  }
}

/** The pool of template hosts of this process. */
export class TemplateHosts {
  private readonly idle: TemplateHost[] = [];
  private readonly all = new Set<TemplateHost>();
  private readonly waiting: Job[] = [];
  private nextId = 0;
  private closing = false;

  constructor(private readonly script: string) {}

  /** Evaluates `template` in a host; rejects with a {@link TemplateError} when it fails or runs past its deadline. */
  evaluate(template: string, input: TemplateInput): Promise<TemplateOutput> {
    return new Promise<TemplateOutput>((resolve, reject) => {
      this.waiting.push({ request: { id: this.nextId++, template, input }, resolve, reject });
      this.dispatch();
    });
  }

  /** Kills every host and fails the templates waiting for one (the server stops). */
  close(): void {
    this.closing = true;
    for (const job of this.waiting.splice(0)) {
      job.reject(new TemplateError('configuration', 'the server stopped before the template was evaluated'));
    }
    for (const host of [...this.all]) {
      host.kill();
    }
    this.closing = false;
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const host = this.idle.pop() ?? (this.all.size < MAX_TEMPLATE_HOSTS ? this.start() : undefined);
      if (host === undefined) {
        return;
      }
      host.run(this.waiting.shift()!);
    }
  }

  /** A template runs long: a spare host is started ahead, so the next template does not wait for a start. */
  private startSpare(): void {
    if (!this.closing && this.idle.length === 0 && this.all.size < MAX_TEMPLATE_HOSTS) {
      this.idle.push(this.start());
    }
  }

  private start(): TemplateHost {
    const host = new TemplateHost(this.script, (free) => {
      this.idle.push(free);
      this.dispatch();
    }, (ended) => {
      this.all.delete(ended);
      const at = this.idle.indexOf(ended);
      if (at >= 0) {
        this.idle.splice(at, 1);
      }
      this.dispatch();
    }, () => this.startSpare());
    this.all.add(host);
    return host;
  }
}

let shared: TemplateHosts | undefined;

/** Kills the process's template hosts, if any were started (the server closes); later templates start new ones. */
export function closeTemplateHosts(): void {
  shared?.close();
}

/** The process's template hosts, started on first use; killed when the process exits. */
export function templateHosts(): TemplateHosts {
  if (shared === undefined) {
    const hosts = new TemplateHosts(entryFileIn(__dirname, 'template-host'));
    process.once('exit', () => hosts.close());
    shared = hosts;
  }
  return shared;
}
