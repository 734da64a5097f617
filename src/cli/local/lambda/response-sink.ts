/**
 * Where a streamed invocation's response goes as the function writes it (a function URL in
 * `RESPONSE_STREAM` mode, a REST method with `ResponseTransferMode: STREAM`): the stream's content
 * type once it starts, then its bytes in order. The invocation's outcome (invoke-outcome.ts) still
 * tells how it ended: `ok` with no payload after a stream that ended, `error` for a handler that
 * threw (before or after writing), `timeout` or `crash`. A handler that does not stream (no
 * `awslambda.streamifyResponse`) never starts the sink: its outcome carries the payload.
 */

/** The content type of a stream that starts with a metadata prelude (`HttpResponseStream.from`): JSON, then 8 NUL bytes, then the body. */
export const HTTP_INTEGRATION_RESPONSE = 'application/vnd.awslambda.http-integration-response';

/** Bytes between the prelude and the body (all NUL). */
export const PRELUDE_DELIMITER_BYTES = 8;

export interface ResponseSink {
  /** The first bytes are coming (or the stream ended without any): its content type. */
  start(contentType: string): void;
  write(chunk: Buffer): void;
}
