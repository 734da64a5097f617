/**
 * A response sent to the client as it comes, within a front door's limits: a function's response
 * stream read by a function URL in `RESPONSE_STREAM` mode or a REST method with
 * `ResponseTransferMode: STREAM` (a Lambda proxy), or an endpoint's response relayed by a streaming
 * `HTTP_PROXY` method ({@link StreamedResponse.open}). A function's stream of content type
 * `application/vnd.awslambda.http-integration-response` starts with a JSON prelude (`statusCode`,
 * `headers`, `multiValueHeaders`, `cookies`) ended by 8 NUL bytes (`awslambda.HttpResponseStream.from`);
 * any other stream is a 200 with its content type where the front door takes one (function URLs; a
 * REST API requires the prelude). The bytes go to the client as they come (chunked), up to the
 * front door's limits; past one, or when the handler fails after the head was sent, the connection
 * is cut (the client sees a truncated body). Shared by the kinds, so it sits with their contract.
 */
import type { StreamedBody, StreamTarget } from './api-kind';
import type { InvokeOutcome } from '../lambda/invoke-outcome';
import { HTTP_INTEGRATION_RESPONSE, PRELUDE_DELIMITER_BYTES, ResponseSink } from '../lambda/response-sink';

/** What a front door allows of a stream. */
export interface StreamLimits {
  /** Most body bytes. */
  readonly maxBytes: number;
  /** A stream without a prelude is refused (REST APIs); else it is a 200 with its content type. */
  readonly requirePrelude?: boolean;
  /** The prelude must end within this many bytes. @default - no limit */
  readonly maxPreludeBytes?: number;
  /** The stream is cut after this long from its head. @default - no limit (the function's timeout) */
  readonly maxDurationMs?: number;
  /** The stream is cut when no byte came for this long. @default - no limit */
  readonly idleMs?: number;
  /** Past `freeBytes`, bytes go out at most `bytesPerSecond`. @default - no cap */
  readonly bandwidth?: BandwidthCap;
}

/** A documented bandwidth cap: the first bytes uncapped, the rest at a fixed rate. */
export interface BandwidthCap {
  readonly freeBytes: number;
  readonly bytesPerSecond: number;
}

/** Lambda's ("Bandwidth limits for response streaming"): the first 6 MB uncapped, then 2 MBps. */
export const LAMBDA_STREAM_BANDWIDTH: BandwidthCap = { freeBytes: 6 * 1024 * 1024, bytesPerSecond: 2 * 1024 * 1024 };

/** API Gateway's ("Stream the integration response"): the first 10 MB uncapped, then 2 MB/s. */
export const REST_STREAM_BANDWIDTH: BandwidthCap = { freeBytes: 10 * 1024 * 1024, bytesPerSecond: 2 * 1024 * 1024 };

/** The streamed response limit of a function ("Response streaming for Lambda functions": up to 200 MB). */
export const MAX_STREAMED_RESPONSE_BYTES = 200 * 1024 * 1024;

/** The prelude's place in a REST API's stream ("Lambda proxy integration format for response streaming": within the first 16 KB). */
export const REST_MAX_PRELUDE_BYTES = 16 * 1024;

const DELIMITER = Buffer.alloc(PRELUDE_DELIMITER_BYTES);

/** How the stream began: its status and headers, or the invocation ended before any stream (buffered answer, or failure). */
export type StreamHead =
  | { readonly kind: 'head'; readonly statusCode: number; readonly headers: Array<[string, string]> }
  | { readonly kind: 'ended'; readonly outcome: InvokeOutcome }
  | { readonly kind: 'bad-prelude'; readonly reason: string };

export class StreamedResponse implements ResponseSink, StreamedBody {
  /** Resolves once the status and headers are known (or the invocation ended without them). */
  public readonly head: Promise<StreamHead>;
  private resolveHead!: (head: StreamHead) => void;
  private headKnown = false;
  /** Whether the function's stream started (its content type was set). */
  private started = false;
  /** Prelude bytes while its end is not found. */
  private prelude: Buffer | undefined;
  /** Body bytes not sent yet (before the server piped the stream, or held by the bandwidth cap), with when each may go. */
  private queue: Array<{ readonly chunk: Buffer; readonly at: number }> = [];
  private paceTimer: NodeJS.Timeout | undefined;
  /** When the bytes past the cap's free part began. */
  private paceStart: number | undefined;
  private target: StreamTarget | undefined;
  private sent = 0;
  /** How the stream ended, once it did ('ok', or cut). */
  private ended: 'ok' | 'cut' | undefined;
  private durationTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly limits: StreamLimits, private readonly onCut: (why: string) => void = () => undefined) {
    this.head = new Promise((resolve) => { this.resolveHead = resolve; });
  }

  /** A relayed response whose status and headers are known (an `HTTP_PROXY` endpoint's): its body follows through `write`. */
  open(statusCode: number, headers: Array<[string, string]>): void {
    this.setHead({ kind: 'head', statusCode, headers });
  }

  start(contentType: string): void {
    this.started = true;
    if (contentType === HTTP_INTEGRATION_RESPONSE) {
      this.prelude = Buffer.alloc(0);
    } else if (this.limits.requirePrelude === true) {
      this.ended = 'cut';
      this.setHead({ kind: 'bad-prelude', reason: `the stream's content type is ${contentType}, not ${HTTP_INTEGRATION_RESPONSE} (no metadata prelude)` });
    } else {
      this.setHead({ kind: 'head', statusCode: 200, headers: [['Content-Type', contentType]] });
    }
  }

  write(chunk: Buffer): void {
    if (this.ended !== undefined) {
      return;
    }
    if (this.prelude !== undefined) {
      this.readPrelude(chunk);
      return;
    }
    this.forward(chunk);
  }

  /** The invocation ended: the stream ends (ok) or is cut (the handler failed after the head). */
  finish(outcome: InvokeOutcome): void {
    if (!this.headKnown) {
      if (this.started && outcome.kind === 'ok' && (this.prelude?.length ?? 0) > 0) {
        // Bytes with no end of prelude (`end(chunk)` after `from`, which skips the prelude).
        this.setHead({ kind: 'bad-prelude', reason: 'the stream ended before the end of its metadata prelude (8 NUL bytes)' });
        return;
      }
      if (this.started && outcome.kind === 'ok') {
        // A stream that ended before any byte (`end()` after `from`: the runtime writes no prelude then): an empty 200.
        this.setHead({ kind: 'head', statusCode: 200, headers: [] });
      } else {
        this.setHead({ kind: 'ended', outcome });
        return;
      }
    }
    if (outcome.kind !== 'ok') {
      this.cut(`the function failed mid-stream (${outcome.kind})`);
      return;
    }
    if (this.ended === undefined) {
      this.ended = 'ok';
      this.stopTimers();
      // The end goes once what the bandwidth cap holds is sent.
      this.drain();
    }
  }

  pipe(target: StreamTarget): void {
    this.target = target;
    this.startTimers();
    if (this.ended === 'cut') {
      for (const { chunk } of this.queue) {
        target.write(chunk);
      }
      this.queue = [];
      target.abort();
      return;
    }
    this.drain();
  }

  private readPrelude(chunk: Buffer): void {
    const bytes = Buffer.concat([this.prelude!, chunk]);
    const end = bytes.indexOf(DELIMITER);
    const most = this.limits.maxPreludeBytes;
    if ((end < 0 && most !== undefined && bytes.length > most) || (end >= 0 && most !== undefined && end + DELIMITER.length > most)) {
      this.prelude = undefined;
      this.ended = 'cut';
      this.setHead({ kind: 'bad-prelude', reason: `the metadata prelude and its 8 NUL bytes did not come within the first ${most} bytes` });
      return;
    }
    if (end < 0) {
      this.prelude = bytes;
      return;
    }
    this.prelude = undefined;
    const head = parsePrelude(bytes.subarray(0, end).toString('utf8'));
    this.setHead(head);
    if (head.kind !== 'head') {
      this.ended = 'cut';
      return;
    }
    const rest = bytes.subarray(end + DELIMITER.length);
    if (rest.length > 0) {
      this.forward(rest);
    }
  }

  private forward(chunk: Buffer): void {
    this.sent += chunk.length;
    if (this.sent > this.limits.maxBytes) {
      this.cut(`the response passed ${this.limits.maxBytes} bytes, the streamed response limit`);
      return;
    }
    this.idleTimer?.refresh();
    this.queue.push({ chunk, at: this.pacedAt() });
    this.drain();
  }

  /** When the bytes sent so far may have gone out under the bandwidth cap (0: now). */
  private pacedAt(): number {
    const cap = this.limits.bandwidth;
    if (cap === undefined || this.sent <= cap.freeBytes) {
      return 0;
    }
    this.paceStart ??= performance.now();
    return this.paceStart + ((this.sent - cap.freeBytes) / cap.bytesPerSecond) * 1000;
  }

  /** Sends what may go now, in order; waits for the next paced chunk; ends after the last once the stream ended. */
  private drain(): void {
    const target = this.target;
    if (target === undefined || this.paceTimer !== undefined) {
      return;
    }
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0].at <= now) {
      target.write(this.queue.shift()!.chunk);
    }
    if (this.queue.length > 0) {
      this.paceTimer = setTimeout(() => {
        this.paceTimer = undefined;
        this.drain();
      }, Math.ceil(this.queue[0].at - now));
    } else if (this.ended === 'ok') {
      target.end();
    }
  }

  private cut(why: string): void {
    if (this.ended !== undefined) {
      return;
    }
    this.ended = 'cut';
    this.stopTimers();
    this.onCut(why);
    if (this.target !== undefined) {
      // What was sent stays sent; what the cap held is dropped with the connection.
      clearTimeout(this.paceTimer);
      this.queue = [];
      this.target.abort();
    }
  }

  /** The duration and idle limits run from the moment the client has the head. */
  private startTimers(): void {
    const { maxDurationMs, idleMs } = this.limits;
    if (this.ended !== undefined) {
      return;
    }
    if (maxDurationMs !== undefined) {
      this.durationTimer = setTimeout(() => this.cut(`the stream ran past ${maxDurationMs / 1000} s, the streaming duration limit`), maxDurationMs);
      this.durationTimer.unref();
    }
    if (idleMs !== undefined) {
      this.idleTimer = setTimeout(() => this.cut(`no byte came for ${idleMs / 1000} s, the streaming idle timeout`), idleMs);
      this.idleTimer.unref();
    }
  }

  private stopTimers(): void {
    clearTimeout(this.durationTimer);
    clearTimeout(this.idleTimer);
  }

  private setHead(head: StreamHead): void {
    if (!this.headKnown) {
      this.headKnown = true;
      this.resolveHead(head);
    }
  }
}

/** The prelude's status, headers and cookies; what cannot be read is a bad prelude (answered 502). */
function parsePrelude(text: string): StreamHead {
  let value: any;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'bad-prelude', reason: 'the metadata prelude is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'bad-prelude', reason: 'the metadata prelude is not an object' };
  }
  const statusCode = value.statusCode ?? 200;
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return { kind: 'bad-prelude', reason: `statusCode must be an integer HTTP status (got ${JSON.stringify(value.statusCode)})` };
  }
  const headers: Array<[string, string]> = [];
  if (value.headers !== null && typeof value.headers === 'object') {
    for (const [name, v] of Object.entries(value.headers)) {
      headers.push([name, String(v)]);
    }
  }
  if (value.multiValueHeaders !== null && typeof value.multiValueHeaders === 'object') {
    for (const [name, values] of Object.entries(value.multiValueHeaders)) {
      for (const v of Array.isArray(values) ? values : [values]) {
        headers.push([name, String(v)]);
      }
    }
  }
  if (Array.isArray(value.cookies)) {
    for (const cookie of value.cookies) {
      headers.push(['Set-Cookie', String(cookie)]);
    }
  }
  return { kind: 'head', statusCode, headers };
}
