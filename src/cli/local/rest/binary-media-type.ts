/**
 * Whether a payload is binary for an API: its media type (a request's `Content-Type`, or the first
 * media type of its `Accept`) is one of the API's binary media types.
 *
 * - Only the first `Accept` type counts, whatever its q-value ("When a request contains multiple
 *   media types in its Accept header, API Gateway only honors the first Accept media type":
 *   important notes for REST APIs).
 * - An entry of `binaryMediaTypes` (`~1` for `/`) is a media type, `type/*` or `*\/*`: the
 *   wildcard stands for a whole subtype, or for both parts. A star anywhere else (`*\/png`,
 *   `image/p*`) is no wildcard; such an entry matches only a media type spelled the same way.
 * - A media type the gateway cannot parse (not `type/subtype` made of HTTP token characters:
 *   `png`, `image/`, `a b/c`) is never binary, not even for `*\/*`: a base64 body then goes out as
 *   its base64 text, as the service was recorded sending it.
 *
 * Time is linear in the header: the first type is cut at `,` and `;`, then compared.
 */

/** `type/subtype`, each an HTTP token (RFC 9110), lower case. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

export function isBinaryType(mediaType: string | undefined, binaryMediaTypes: readonly string[]): boolean {
  if (mediaType === undefined || binaryMediaTypes.length === 0) {
    return false;
  }
  const first = firstMediaType(mediaType);
  if (first === undefined) {
    return false;
  }
  const type = first.slice(0, first.indexOf('/'));
  return binaryMediaTypes.some((entry) => {
    const pattern = entry.replace(/~1/g, '/').toLowerCase();
    return pattern === first || pattern === '*/*' || pattern === `${type}/*`;
  });
}

/** The first media type of a header value, without parameters, lower case; undefined when it does not parse. */
function firstMediaType(value: string): string | undefined {
  const comma = value.indexOf(',');
  const item = comma < 0 ? value : value.slice(0, comma);
  const semicolon = item.indexOf(';');
  const type = (semicolon < 0 ? item : item.slice(0, semicolon)).trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : undefined;
}
