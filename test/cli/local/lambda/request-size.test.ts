/**
 * Lambda's request payload limit, measured without serializing what is clearly within or over it.
 */
import { MAX_REQUEST_PAYLOAD_BYTES } from '../../../../src/cli/local/lambda/limits';
import { roughCharacters, requestTooLarge } from '../../../../src/cli/local/lambda/request-size';

describe('requestTooLarge', () => {
  test('an event within 6 MB passes without being serialized; one over is refused with 413', () => {
    expect(requestTooLarge({ body: 'x'.repeat(1000), headers: { A: 'b' } })).toBeUndefined();
    const body = 'x'.repeat(MAX_REQUEST_PAYLOAD_BYTES);
    const bytes = Buffer.byteLength(JSON.stringify({ body }));
    expect(requestTooLarge({ body })).toEqual({
      kind: 'rejected',
      statusCode: 413,
      errorType: 'RequestEntityTooLargeException',
      errorMessage: `Request must be smaller than ${MAX_REQUEST_PAYLOAD_BYTES} bytes for the InvokeFunction operation (the event is ${bytes} bytes)`,
    });
  });

  test('an event near the bound is measured exactly: just under the limit passes', () => {
    const body = 'x'.repeat(MAX_REQUEST_PAYLOAD_BYTES - JSON.stringify({ body: '' }).length);
    expect(Buffer.byteLength(JSON.stringify({ body }))).toBe(MAX_REQUEST_PAYLOAD_BYTES);
    expect(requestTooLarge({ body })).toBeUndefined();
  });

  test.each([
    ['escaped characters', { text: '"\\\n\u0001'.repeat(50) }],
    ['non-ASCII text', { text: 'é€😀'.repeat(50) }],
    ['numbers, booleans and nulls', { list: [1.7976931348623157e308, -5e-324, true, false, null, 0], nested: { a: [[], {}] } }],
    ['a proxy event', { headers: { 'User-Agent': 'curl/8' }, multiValueHeaders: { 'User-Agent': ['curl/8'] }, requestContext: { identity: { sourceIp: '127.0.0.1', user: null } }, isBase64Encoded: false }],
  ])('the rough count bounds the JSON bytes (six per character): %s', (_name, event) => {
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThanOrEqual(roughCharacters(event) * 6);
  });

  test('a deeply nested event is not counted (it is measured exactly), and a shallow one is', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) {
      deep = [deep];
    }
    expect(roughCharacters(deep)).toBe(Infinity);
    expect(requestTooLarge(deep)).toBeUndefined();
    expect(roughCharacters([['leaf']])).toBe(2 + 2 + 4 + 3);
  });
});
