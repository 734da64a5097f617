/**
 * Base64 text as a strict decoder reads it (RFC 4648's alphabet, `A-Z a-z 0-9 + /`, as Java's
 * `Base64.getDecoder()`): `=` only as the last one or two characters completing a 4-character
 * group, padding optional, no whitespace, no URL-safe `-` or `_`, and never one character left
 * over in the last group. Node's `Buffer.from(text, 'base64')` skips what it cannot read instead.
 */
const ALPHABET_THEN_PADDING = /^[A-Za-z0-9+/]*={0,2}$/;

export function isStrictBase64(text: string): boolean {
  if (!ALPHABET_THEN_PADDING.test(text)) {
    return false;
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (padding > 0) {
    return text.length % 4 === 0;
  }
  return text.length % 4 !== 1;
}
