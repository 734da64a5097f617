import { readV2Result } from '../../../../src/cli/local/http/payload-v2-response';

test.each([
  ['"text"', 'text'],
  ['{"a":1}', '{"a":1}'],
  ['[1,2]', '[1,2]'],
  ['42', '42'],
  ['null', 'null'],
])('%s without statusCode is a 200 application/json answer with body %s', (payload, body) => {
  expect(readV2Result(payload)).toEqual({ ok: true, statusCode: 200, headers: [['Content-Type', 'application/json']], body });
});

test('a function that returned nothing is answered as null', () => {
  expect(readV2Result(undefined)).toMatchObject({ ok: true, statusCode: 200, body: 'null' });
});

test('statusCode (a number or digits), headers, cookies and a body', () => {
  expect(readV2Result(JSON.stringify({ statusCode: '204', headers: { a: 1, b: 'x' }, cookies: ['c=1'], body: 'b' }))).toEqual({
    ok: true, statusCode: 204, headers: [['a', '1'], ['b', 'x'], ['Set-Cookie', 'c=1']], body: 'b',
  });
  expect(readV2Result(JSON.stringify({ statusCode: 200 }))).toEqual({ ok: true, statusCode: 200, headers: [], body: '' });
  expect(readV2Result(JSON.stringify({ statusCode: 200, body: 'AP8=', isBase64Encoded: true }))).toEqual({ ok: true, statusCode: 200, headers: [], body: Buffer.from([0, 255]) });
});

test.each([
  ['not json', 'the response is not JSON'],
  [JSON.stringify({ statusCode: 99 }), 'statusCode must be an integer HTTP status (got 99)'],
  [JSON.stringify({ statusCode: 600 }), 'statusCode must be an integer HTTP status (got 600)'],
  [JSON.stringify({ statusCode: 200.5 }), 'statusCode must be an integer HTTP status (got 200.5)'],
  [JSON.stringify({ statusCode: 200, headers: ['a'] }), 'headers must be an object'],
  [JSON.stringify({ statusCode: 200, cookies: 'a=1' }), 'cookies must be an array of strings'],
  [JSON.stringify({ statusCode: 200, cookies: [1] }), 'cookies must be an array of strings'],
  [JSON.stringify({ statusCode: 200, body: { a: 1 } }), 'body must be a string (got object)'],
  [JSON.stringify({ statusCode: 200, body: [1] }), 'body must be a string (got an array)'],
  [JSON.stringify({ statusCode: 200, body: '%%', isBase64Encoded: true }), 'isBase64Encoded is true but the body is not base64'],
])('%s is malformed: %s', (payload, reason) => {
  expect(readV2Result(payload)).toEqual({ ok: false, reason });
});
