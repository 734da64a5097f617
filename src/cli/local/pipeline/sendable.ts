/**
 * What HTTP (and so Node's http module, which throws otherwise) lets a response carry: a status
 * from 100 to 599, header names that are tokens, header values without CR, LF, other control
 * characters or characters outside Latin-1.
 */
import { validateHeaderName, validateHeaderValue } from 'http';

/** Why HTTP cannot carry the response (Node's own header rules), or undefined. */
export function unsendable(response: { readonly statusCode: number; readonly headers: Iterable<readonly [string, string]> }): string | undefined {
  if (!Number.isInteger(response.statusCode) || response.statusCode < 100 || response.statusCode > 599) {
    return `status ${response.statusCode} is not an HTTP status`;
  }
  for (const [name, value] of response.headers) {
    try {
      validateHeaderName(name);
    } catch {
      return `header name ${JSON.stringify(name)} is not a valid HTTP header name`;
    }
    try {
      validateHeaderValue(name, value);
    } catch {
      return `header ${JSON.stringify(name)} has a value HTTP cannot carry (${JSON.stringify(value)}: CR, LF, other control characters and characters outside Latin-1 are not allowed)`;
    }
  }
  return undefined;
}
