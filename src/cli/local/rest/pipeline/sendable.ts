/**
 * What HTTP (and so Node's http module, which throws otherwise) lets a response carry: a status
 * from 100 to 599, header names that are tokens, header values without CR, LF, other control
 * characters or characters outside Latin-1.
 */

/** A token (RFC 9110), as Node checks header names. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** What Node refuses in a header value: controls other than tab, and anything above U+00FF. */
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Why HTTP cannot carry the response (Node's own header rules), or undefined. */
export function unsendable(response: { readonly statusCode: number; readonly headers: Iterable<readonly [string, string]> }): string | undefined {
  if (!Number.isInteger(response.statusCode) || response.statusCode < 100 || response.statusCode > 599) {
    return `status ${response.statusCode} is not an HTTP status`;
  }
  for (const [name, value] of response.headers) {
    if (!TOKEN.test(name)) {
      return `header name ${JSON.stringify(name)} is not a valid HTTP header name`;
    }
    if (INVALID_VALUE_CHAR.test(value)) {
      return `header ${JSON.stringify(name)} has a value HTTP cannot carry (${JSON.stringify(value)}: CR, LF, other control characters and characters outside Latin-1 are not allowed)`;
    }
  }
  return undefined;
}
