/**
 * The service's frame quota (32 KB; a larger frame closes the connection with 1009) beside its
 * message quota (128 KB, which `ws`'s `maxPayload` enforces). `ws` has one limit for both, so the
 * frame check wraps the step of its receiver that reads a frame's length (`haveLength`, private to
 * `ws` 8, which lib/vendor pins): a data frame over the quota fails as `ws` fails an oversized
 * message. When a `ws` without that step is bundled, the frame quota is not applied (false).
 */
import type { WebSocket } from 'ws';

interface FrameReceiver {
  _opcode: number;
  _payloadLength: number;
  haveLength(cb: (error?: Error) => void): void;
  createError(ctor: ErrorConstructor, message: string, prefix: boolean, statusCode: number, errorCode: string): Error;
}

export function limitFrameSize(socket: WebSocket, maxFrameBytes: number): boolean {
  const receiver = (socket as unknown as { _receiver?: FrameReceiver })._receiver;
  if (receiver === undefined || typeof receiver.haveLength !== 'function' || typeof receiver.createError !== 'function') {
    return false;
  }
  const readLength = receiver.haveLength;
  receiver.haveLength = function checkedLength(this: FrameReceiver, cb: (error?: Error) => void) {
    // Control frames (opcode 8 and above) are at most 125 bytes by the protocol.
    if (this._opcode < 0x08 && this._payloadLength > maxFrameBytes) {
      cb(this.createError(RangeError, 'Max frame size exceeded', false, 1009, 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'));
      return;
    }
    readLength.call(this, cb);
  };
  return true;
}
