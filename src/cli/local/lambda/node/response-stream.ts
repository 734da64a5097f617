/**
 * Response streaming as Lambda's Node.js runtime offers it to handlers, through the global
 * `awslambda`: `streamifyResponse(handler)` marks a handler as streaming (it is then called with
 * `(event, responseStream, context)`), and `HttpResponseStream.from(stream, prelude)` makes the
 * stream's content type `application/vnd.awslambda.http-integration-response` and writes the
 * prelude (JSON) and 8 NUL bytes before the first write, which a function URL or a REST API reads as
 * the status, headers and cookies. What the runtime does with the stream (aws-lambda-nodejs-runtime-
 * interface-client, Runtime.handleOnceStreaming and ResponseStream): chunks that are not text or
 * bytes are written as JSON; the content type is fixed by the first write (`setContentType` after it
 * throws `Runtime.InvalidStreamingOperation`, so `from` after a write does too); `end(chunk)`
 * without a write before it sends the chunk without the prelude (aws-lambda-nodejs-runtime-interface-
 * client issue #97: a 502 at a function URL; `end()` alone: a 200 without the prelude's status and
 * headers); the default is
 * `application/octet-stream`; a handler that does not return a promise fails ("Streaming does not
 * support non-async handlers."); its return value is ignored (with a warning) and the invocation
 * ends when the stream ends.
 */
import { Writable } from 'stream';
import { HTTP_INTEGRATION_RESPONSE, PRELUDE_DELIMITER_BYTES, ResponseSink } from '../response-sink';

/** A stream's content type until the handler sets one. */
export const DEFAULT_STREAM_CONTENT_TYPE = 'application/octet-stream';

/** How the runtime marks a streaming handler (a symbol of its own: handlers cannot forge it by accident). */
const STREAMING = Symbol.for('vendor-outputs.lambda.streamifyResponse');

/** Whether `handler` was wrapped in `awslambda.streamifyResponse`. */
export function isStreamingHandler(handler: unknown): boolean {
  return typeof handler === 'function' && (handler as unknown as Record<symbol, unknown>)[STREAMING] === true;
}

function streamingError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The stream a streaming handler writes its response to. */
export class ResponseStream extends Writable {
  /** Set by `HttpResponseStream.from`: writes the prelude before the first chunk. */
  public _onBeforeFirstWrite: ((write: (chunk: string | Uint8Array) => void) => void) | undefined;
  private contentType = DEFAULT_STREAM_CONTENT_TYPE;
  private started = false;

  constructor(private readonly output: ResponseSink) {
    super();
  }

  setContentType(contentType: string): void {
    if (this.started) {
      throw streamingError('Runtime.InvalidStreamingOperation', 'Cannot set content-type, too late.');
    }
    this.contentType = contentType;
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const data = typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk : JSON.stringify(chunk);
    if (!this.started) {
      this.begin();
      this._onBeforeFirstWrite?.((first) => super.write(first));
    }
    return super.write(data, encoding as BufferEncoding, callback as (error?: Error | null) => void);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // `end(chunk)` writes without `write` (as the runtime's stream does): no prelude before it.
    if (!this.started) {
      this.begin();
    }
    this.output.write(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.started) {
      this.begin();
    }
    callback();
  }

  private begin(): void {
    this.started = true;
    this.output.start(this.contentType);
  }
}

/** `awslambda.HttpResponseStream`. */
class HttpResponseStream {
  static from(stream: ResponseStream, prelude: unknown): ResponseStream {
    stream.setContentType(HTTP_INTEGRATION_RESPONSE);
    // JSON: a NUL byte in a value is escaped, so the first 8 NULs end the prelude.
    const text = JSON.stringify(prelude);
    stream._onBeforeFirstWrite = (write) => {
      write(text);
      write(new Uint8Array(PRELUDE_DELIMITER_BYTES));
    };
    return stream;
  }
}

/** Defines the global `awslambda` of this thread (once; an environment's modules see the thread's globals). */
export function installAwsLambdaGlobal(): void {
  const holder = globalThis as { awslambda?: unknown };
  if (holder.awslambda !== undefined) {
    return;
  }
  holder.awslambda = {
    streamifyResponse: <T extends object>(handler: T): T => {
      (handler as unknown as Record<symbol, unknown>)[STREAMING] = true;
      return handler;
    },
    HttpResponseStream,
  };
}

/**
 * Runs a streaming handler to the end of its stream: resolves once the stream ended, rejects with
 * what the handler threw (or the runtime's error for a handler that returns no promise).
 */
export async function runStreamingHandler(
  handler: (event: unknown, stream: ResponseStream, context: Record<string, unknown>) => unknown,
  event: unknown,
  context: Record<string, unknown>,
  output: ResponseSink,
  warn: (text: string) => void,
): Promise<void> {
  const stream = new ResponseStream(output);
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('finish', () => resolve());
    stream.once('error', reject);
  });
  // Awaited only once the handler returned: a failure before that is the handler's to report.
  ended.catch(() => undefined);
  try {
    const result = handler(event, stream, context) as { then?: unknown } | undefined;
    if (result === null || typeof result !== 'object' || typeof result.then !== 'function') {
      throw 'Streaming does not support non-async handlers.';
    }
    if (await result !== undefined) {
      warn('Streaming handlers ignore return values.');
    }
    await ended;
  } finally {
    stream.destroy();
  }
}
