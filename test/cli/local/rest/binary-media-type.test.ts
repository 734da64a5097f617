/**
 * Which media types are binary for an API: the first `Accept` type (or the `Content-Type`) against
 * the API's binary media types, wildcards as the gateway reads them.
 */
import { isBinaryType } from '../../../../src/cli/local/rest/binary-media-type';

describe('binary media types', () => {
  test.each([
    ['image/png', ['image/png'], true],
    ['image/png', ['image~1png'], true],
    ['IMAGE/PNG', ['image/png'], true],
    ['image/png; q=0.1, text/html', ['image/png'], true],
    ['text/html, image/png', ['image/png'], false],
    ['image/webp,image/*,*/*;q=0.8', ['image/webp'], true],
    ['image/webp,image/*,*/*;q=0.8', ['image/jpeg'], false],
    ['image/jpeg, text/html', ['image/*'], true],
    ['image/gif', ['image/*'], true],
    ['text/plain', ['*/*'], true],
    ['application/json', ['*/*'], true],
    ['application/json', ['image/png'], false],
    ['*/*', ['image/png'], false],
    ['application/octet-stream', ['application~1octet-stream'], true],
    ['', ['*/*'], false],
    [undefined, ['*/*'], false],
  ])('%j with %j: %s (only the first type counts)', (accept, types, binary) => {
    expect(isBinaryType(accept, types)).toBe(binary);
  });

  test.each([
    ['image/png', ['*/png'], false],
    ['image/png', ['*/*png'], false],
    ['image/png', ['image/p*'], false],
    ['*/png', ['*/png'], true],
  ])('a star that is not the whole subtype is no wildcard: %j with %j is %s', (accept, types, binary) => {
    expect(isBinaryType(accept, types)).toBe(binary);
  });

  test.each([
    'png',
    'image/',
    '/png',
    'a b/c',
    'image/png/x',
    'ima"ge/png',
    ', image/png',
  ])('%j does not parse as a media type: not binary, even for */*', (accept) => {
    expect(isBinaryType(accept, ['*/*', 'image/png'])).toBe(false);
  });

  test('a header of 100,000 characters is decided at once', () => {
    const started = process.hrtime.bigint();
    expect(isBinaryType(`image/png${';a=b'.repeat(25_000)}`, ['image/*'])).toBe(true);
    expect(isBinaryType(`${'a'.repeat(100_000)}/`, ['*/*'])).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(200);
  });
});
