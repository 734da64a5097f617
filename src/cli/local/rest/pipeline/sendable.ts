/**
 * What HTTP (and so Node's http module, which throws otherwise) lets a response carry: a final
 * status, 200 to 599 (a 1xx is interim: `101` would switch the client's connection away and
 * `100` leaves it waiting for an answer that never comes), header names that are tokens, header
 * values without CR, LF, other control characters or characters outside Latin-1.
 */

/** A token (RFC 9110), as Node checks header names. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** What Node refuses in a header value: controls other than tab, and anything above U+00FF. */
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Why HTTP cannot carry the response (Node's own header rules), or undefined. */
export function unsendable(response: { readonly statusCode: number; readonly headers: Iterable<readonly [string, string]> }): string | undefined {
  if (!isFinalStatus(response.statusCode)) {
    return Number.isInteger(response.statusCode) && response.statusCode >= 100 && response.statusCode < 200
      ? `status ${response.statusCode} is an interim (1xx) status, which cannot end an HTTP response`
      : `status ${response.statusCode} is not an HTTP status`;
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

/** A status a response can end on: 200 to 599. */
export function isFinalStatus(statusCode: number): boolean {
  return Number.isInteger(statusCode) && statusCode >= 200 && statusCode <= 599;
}
