/**
 * The framing between the server and a Python execution environment (bootstrap.py): each message
 * is 4 bytes of big-endian length, then that many bytes of UTF-8 JSON.
 */

/** Server → environment. */
export type PythonCommand = readonly ['invoke', string, unknown];

/** Environment → server (the error as {@link ErrorReport}). */
export type PythonEvent =
  | readonly ['ready']
  | readonly ['init-error', { errorType: string; errorMessage: string; trace: string[] }]
  | readonly ['log', string | null, string, string]
  /** Request id, payload JSON text (null on error), error (null on success), ms the handler took. */
  | readonly ['result', string, string | null, { errorType: string; errorMessage: string; trace: string[] } | null, number]
  /** The environment went past its MemorySize and ends. */
  | readonly ['out-of-memory'];

const HEADER_BYTES = 4;

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

/** Collects chunks of a byte stream and hands out each complete frame's message. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onMessage: (message: unknown) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= HEADER_BYTES) {
      const length = this.buffer.readUInt32BE(0);
      if (this.buffer.length < HEADER_BYTES + length) {
        return;
      }
      const body = this.buffer.subarray(HEADER_BYTES, HEADER_BYTES + length);
      this.buffer = this.buffer.subarray(HEADER_BYTES + length);
      this.onMessage(JSON.parse(body.toString('utf8')));
    }
  }
}
