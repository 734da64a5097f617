/**
 * A function URL in `RESPONSE_STREAM` mode reading its function's response stream: a stream of
 * content type `application/vnd.awslambda.http-integration-response` starts with a JSON prelude
 * (`statusCode`, `headers`, `cookies`) ended by 8 NUL bytes (`awslambda.HttpResponseStream.from`);
 * any other stream is a 200 with its content type. The bytes go to the client as they come (chunked),
 * up to the documented 200 MB ("Response streaming for Lambda functions"); past it, or when the
 * handler fails after the head was sent, the connection is cut (the client sees a truncated body).
 */
import type { StreamedBody, StreamTarget } from '../api-kind/api-kind';
import type { InvokeOutcome } from '../lambda/invoke-outcome';
import type { ResponseSink } from '../lambda/response-sink';

/** The streamed response limit of a function ("Response streaming for Lambda functions": up to 200 MB). */
export const MAX_STREAMED_RESPONSE_BYTES = 200 * 1024 * 1024;

const HTTP_INTEGRATION_RESPONSE = 'application/vnd.awslambda.http-integration-response';
const DELIMITER = Buffer.alloc(8);

/** How the stream began: its status and headers, or the invocation ended before any stream (buffered answer, or failure). */
export type StreamHead =
  | { readonly kind: 'head'; readonly statusCode: number; readonly headers: Array<[string, string]> }
  | { readonly kind: 'ended'; readonly outcome: InvokeOutcome }
  | { readonly kind: 'bad-prelude'; readonly reason: string };

export class UrlResponseStream implements ResponseSink, StreamedBody {
  /** Resolves once the status and headers are known (or the invocation ended without them). */
  public readonly head: Promise<StreamHead>;
  private resolveHead!: (head: StreamHead) => void;
  private headKnown = false;
  /** The content type the function's stream started with (undefined: not started). */
  private contentType: string | undefined;
  /** Prelude bytes while its end is not found. */
  private prelude: Buffer | undefined;
  /** Body bytes before the server piped the stream. */
  private pending: Buffer[] = [];
  private target: StreamTarget | undefined;
  private sent = 0;
  /** How the stream ended, once it did ('ok', or cut). */
  private ended: 'ok' | 'cut' | undefined;

  constructor(private readonly limitBytes = MAX_STREAMED_RESPONSE_BYTES, private readonly onCut: (why: string) => void = () => undefined) {
    this.head = new Promise((resolve) => { this.resolveHead = resolve; });
  }

  start(contentType: string): void {
    this.contentType = contentType;
    if (contentType === HTTP_INTEGRATION_RESPONSE) {
      this.prelude = Buffer.alloc(0);
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
      if (this.contentType !== undefined && outcome.kind === 'ok' && (this.prelude?.length ?? 0) > 0) {
        // Bytes with no end of prelude (`end(chunk)` after `from`, which skips the prelude).
        this.setHead({ kind: 'bad-prelude', reason: 'the stream ended before the end of its metadata prelude (8 NUL bytes)' });
        return;
      }
      if (this.contentType !== undefined && outcome.kind === 'ok') {
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
    this.ended ??= 'ok';
    this.target?.end();
  }

  pipe(target: StreamTarget): void {
    this.target = target;
    for (const chunk of this.pending) {
      target.write(chunk);
    }
    this.pending = [];
    if (this.ended === 'ok') {
      target.end();
    } else if (this.ended === 'cut') {
      target.abort();
    }
  }

  private readPrelude(chunk: Buffer): void {
    const bytes = Buffer.concat([this.prelude!, chunk]);
    const end = bytes.indexOf(DELIMITER);
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
    if (this.sent > this.limitBytes) {
      this.cut(`the response passed ${this.limitBytes} bytes, the streamed response limit`);
      return;
    }
    if (this.target !== undefined) {
      this.target.write(chunk);
    } else {
      this.pending.push(chunk);
    }
  }

  private cut(why: string): void {
    if (this.ended !== undefined) {
      return;
    }
    this.ended = 'cut';
    this.onCut(why);
    this.target?.abort();
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
  if (Array.isArray(value.cookies)) {
    for (const cookie of value.cookies) {
      headers.push(['Set-Cookie', String(cookie)]);
    }
  }
  return { kind: 'head', statusCode, headers };
}
