/**
 * Identifiers shaped like the ones API Gateway and X-Ray hand out.
 */
import { randomBytes, randomUUID } from 'crypto';

/** Random bytes drawn in batches: one system call per few hundred requests. */
let pool = Buffer.alloc(0);
let offset = 0;
function bytes(n: number): Buffer {
  if (offset + n > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}

/** A request id (`x-amzn-RequestId`, `requestContext.requestId`): a UUID. */
export function requestId(): string {
  return randomUUID();
}

/** An extended request id (`x-amz-apigw-id`): 16 characters of base64, like `bvIHJFPGIAMF-Iw=`. */
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export function apigwId(): string {
  const b = bytes(15);
  let out = '';
  for (let i = 0; i < 15; i++) {
    out += URL_SAFE[b[i] % 64];
  }
  return `${out}=`;
}

/** An X-Ray segment id, as a trace header's `Parent`: 16 hex digits. */
export function segmentId(): string {
  return bytes(8).toString('hex');
}

/**
 * The trace header a client sent, as the gateway passes it on: a `Parent` field names the gateway's
 * own segment instead (recorded: the function saw the client's `Root` with a new `Parent`); every
 * other field (`Root`, `Sampled`, ...) stays as sent, in place.
 */
export function withGatewayParent(header: string): string {
  const parent = segmentId();
  return header.replace(/(^|;)(\s*Parent\s*=)[^;]*/gi, (_match, separator: string, key: string) => `${separator}${key}${parent}`);
}

/** An X-Ray trace header value: `Root=1-<8 hex digits of epoch seconds>-<24 hex digits>`. */
export function traceId(now = Date.now()): string {
  return `Root=1-${Math.floor(now / 1000).toString(16).padStart(8, '0')}-${bytes(12).toString('hex')}`;
}
