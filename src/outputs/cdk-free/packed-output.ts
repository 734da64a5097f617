/**
 * The value of one carriage stack output: up to {@link VALUES_PER_OUTPUT} deploy-time values, each
 * the Base64 of its UTF-8 bytes (what CloudFormation's `Fn::Base64` produces), joined with
 * {@link SLOT_SEPARATOR}. Base64 never contains the separator, so any value comes back byte for byte.
 *
 * Decoding is strict: a value that is not exactly that encoding (an output edited by hand, a raw
 * value pasted in, a stack from another tool) is refused rather than turned into mojibake.
 * Free of aws-cdk-lib.
 */

/** Separates the encoded values inside one output value. */
export const SLOT_SEPARATOR = ',';

/** How many pending values one stack output carries. */
export const VALUES_PER_OUTPUT = 8;

/** Canonical padded Base64 (RFC 4648 section 4): groups of four, `=` padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** One slot that is not the library's encoding. */
export interface BadSlot {
  /** Position of the slot in the output's list. */
  readonly index: number;
  /** What is wrong with it. */
  readonly reason: string;
}

/** The decoded slots of an output value, or the first slot that is not the library's encoding. */
export type DecodedOutput = { readonly values: string[] } | { readonly bad: BadSlot };

/** Encodes values as the deployed output value would hold them (for tests and local tools). */
export function encodePackedOutput(values: readonly string[]): string {
  return values.map((v) => Buffer.from(v, 'utf8').toString('base64')).join(SLOT_SEPARATOR);
}

/** Splits one output value into its decoded slots, refusing anything that is not the library's encoding. */
export function decodePackedOutput(value: string): DecodedOutput {
  const parts = value.split(SLOT_SEPARATOR);
  if (parts.length > VALUES_PER_OUTPUT) {
    return { bad: { index: VALUES_PER_OUTPUT, reason: `it holds ${parts.length} comma-separated values; the library writes at most ${VALUES_PER_OUTPUT}` } };
  }
  const values: string[] = [];
  for (const [index, part] of parts.entries()) {
    const decoded = decodeSlot(part);
    if (typeof decoded !== 'string') {
      return { bad: { index, reason: decoded.reason } };
    }
    values.push(decoded);
  }
  return { values };
}

function decodeSlot(part: string): string | { reason: string } {
  if (!BASE64.test(part)) {
    return { reason: `${preview(part)} is not Base64` };
  }
  const bytes = Buffer.from(part, 'base64');
  // Non-zero bits in the padding decode to the same bytes: only the canonical text is the library's.
  if (bytes.toString('base64') !== part) {
    return { reason: `${preview(part)} is not canonical Base64` };
  }
  try {
    // ignoreBOM keeps a leading U+FEFF as part of the value instead of dropping it silently.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { reason: `${preview(part)} decodes to bytes that are not UTF-8 text` };
  }
}

function preview(part: string): string {
  return JSON.stringify(part.length > 40 ? `${part.slice(0, 40)}...` : part);
}
