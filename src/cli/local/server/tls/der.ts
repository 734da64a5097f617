/**
 * The few DER (ASN.1 Distinguished Encoding Rules) elements an X.509 certificate is built of, as
 * bytes: enough for the local API's own certificate (local-certificate.ts), nothing more.
 */

/** A tag, its length and its contents. */
export function element(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: Buffer[]): Buffer => element(0x30, ...items);
export const set = (...items: Buffer[]): Buffer => element(0x31, ...items);
export const octetString = (bytes: Buffer): Buffer => element(0x04, bytes);
export const utf8String = (text: string): Buffer => element(0x0c, Buffer.from(text, 'utf8'));
export const booleanTrue = (): Buffer => element(0x01, Buffer.from([0xff]));
/** `[n] EXPLICIT`: a constructed context-specific tag around one element. */
export const explicit = (n: number, inner: Buffer): Buffer => element(0xa0 + n, inner);
/** `[n] IMPLICIT` of a primitive (an IP address or a DNS name in a subjectAltName). */
export const implicit = (n: number, bytes: Buffer): Buffer => element(0x80 + n, bytes);

/** A BIT STRING of whole bytes, or with `unusedBits` left over in its last byte. */
export function bitString(bytes: Buffer, unusedBits = 0): Buffer {
  return element(0x03, Buffer.from([unusedBits]), bytes);
}

/** A non-negative INTEGER from its big-endian bytes (a leading 0 keeps it positive). */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && bytes[start + 1] < 0x80) {
    start++;
  }
  const trimmed = bytes.subarray(start);
  return element(0x02, trimmed[0] >= 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const bytes = [40 * arcs[0] + arcs[1]];
  for (const arc of arcs.slice(2)) {
    // Base 128, most significant first, every byte but the last with its high bit set.
    const base128 = [arc % 128];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) {
      base128.unshift(0x80 + (rest % 128));
    }
    bytes.push(...base128);
  }
  return element(0x06, Buffer.from(bytes));
}

/** UTCTime (`YYMMDDHHMMSSZ`), for dates from 1950 to 2049. */
export function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return element(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

function length(n: number): Buffer {
  if (n < 0x80) {
    return Buffer.from([n]);
  }
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) {
    bytes.unshift(rest % 256);
  }
  return Buffer.from([0x80 + bytes.length, ...bytes]);
}
