/**
 * Where a streamed invocation's response goes as the function writes it (a function URL in
 * `RESPONSE_STREAM` mode, a REST method with `ResponseTransferMode: STREAM`): the stream's content
 * type once it starts, then its bytes in order. The invocation's outcome (invoke-outcome.ts) still
 * tells how it ended: `ok` with no payload after a stream that ended, `error` for a handler that
 * threw (before or after writing), `timeout` or `crash`. A handler that does not stream (no
 * `awslambda.streamifyResponse`) never starts the sink: its outcome carries the payload.
 */
export interface ResponseSink {
  /** The first bytes are coming (or the stream ended without any): its content type. */
  start(contentType: string): void;
  write(chunk: Buffer): void;
}
