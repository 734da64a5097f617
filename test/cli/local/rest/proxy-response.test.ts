/**
 * The Lambda proxy response: its shape, headers and status, as API Gateway documents them or was
 * recorded answering.
 */
import { parseProxyResult } from '../../../../src/cli/local/rest/proxy-response';

describe('the Lambda proxy response', () => {
  test('no statusCode is a 200 with an empty body', () => {
    expect(parseProxyResult('{}')).toEqual({ ok: true, statusCode: 200, headers: [], body: '', isBase64Encoded: false });
  });

  test('a null statusCode is still malformed', () => {
    expect(parseProxyResult('{"statusCode":null}')).toEqual({ ok: false, reason: 'statusCode must be an integer HTTP status (got null)' });
  });

  // Recorded: `headers: {"x-both": "value-solo"}, multiValueHeaders: {"X-Both": ["value-multi"]}`
  // came back as `value-multi, value-solo`.
  test('a name in both headers and multiValueHeaders sends the multi values, then the single one, in any case', () => {
    const result = parseProxyResult(JSON.stringify({
      statusCode: 200,
      headers: { 'x-both': 'value-solo', 'X-Two': 'single' },
      multiValueHeaders: { 'X-Both': ['value-multi'], 'X-Three': ['a', 'b'] },
    }));
    expect(result).toMatchObject({ ok: true, headers: [['x-both', 'value-multi'], ['x-both', 'value-solo'], ['X-Two', 'single'], ['X-Three', 'a'], ['X-Three', 'b']] });
  });

  test('the same name and value in both maps is sent once (the documented merge)', () => {
    const result = parseProxyResult(JSON.stringify({
      statusCode: 200,
      headers: { 'X-One': 'm2' },
      multiValueHeaders: { 'x-one': ['m1', 'm2'] },
    }));
    expect(result).toMatchObject({ ok: true, headers: [['X-One', 'm1'], ['X-One', 'm2']] });
  });

  test('reserved response headers are remapped or dropped as the gateway does for Lambda', () => {
    const result = parseProxyResult(JSON.stringify({
      statusCode: 200,
      headers: {
        'Date': 'd',
        'Server': 's',
        'Authorization': 'a',
        'Connection': 'close',
        'WWW-Authenticate': 'w',
        'Content-MD5': 'm',
        'Max-Forwards': '1',
        'User-Agent': 'u',
        'Via': 'v',
        'Transfer-Encoding': 'chunked',
        'Content-Length': '9',
        'Upgrade': 'x',
        'TE': 't',
        'Trailer': 't',
        'Expect': 'e',
        'Host': 'h',
        'Proxy-Authenticate': 'p',
        'Warn': '199 w',
        'Content-Encoding': 'identity',
      },
    }));
    expect(result).toMatchObject({
      ok: true,
      headers: [
        ['x-amzn-Remapped-Date', 'd'], ['x-amzn-Remapped-Server', 's'], ['x-amzn-Remapped-Authorization', 'a'],
        ['x-amzn-Remapped-Connection', 'close'], ['x-amzn-Remapped-WWW-Authenticate', 'w'], ['x-amzn-Remapped-Content-MD5', 'm'],
        ['x-amzn-Remapped-Max-Forwards', '1'], ['x-amzn-Remapped-User-Agent', 'u'], ['Warn', '199 w'], ['Content-Encoding', 'identity'],
      ],
    });
  });
});

describe('proxy response checks', () => {
  test.each([
    [undefined, 'the function returned no value'],
    ['"text"', 'the response is a string, not an object'],
    ['[1]', 'the response is an array, not an object'],
    ['null', 'the response is null, not an object'],
    ['{"statusCode":200,"cookies":[]}', "unexpected key 'cookies' (allowed: statusCode, headers, multiValueHeaders, body, isBase64Encoded)"],
    ['{"statusCode":null,"body":"x"}', 'statusCode must be an integer HTTP status (got null)'],
    ['{"statusCode":99}', 'statusCode must be an integer HTTP status (got 99)'],
    ['{"statusCode":200,"body":{}}', 'body must be a string'],
    ['{"statusCode":200,"headers":{"a":{}}}', 'headers.a must be a string'],
    ['{"statusCode":200,"multiValueHeaders":{"a":"b"}}', 'multiValueHeaders.a must be an array of strings'],
    ['{"statusCode":200,"isBase64Encoded":"yes"}', 'isBase64Encoded must be a boolean'],
  ])('%s is malformed: %s', (payload, reason) => {
    expect(parseProxyResult(payload)).toEqual({ ok: false, reason });
  });

  test('a string status code and scalar header values are accepted', () => {
    expect(parseProxyResult('{"statusCode":"201","headers":{"X-N":5,"Date":"d"},"body":"b"}')).toEqual({
      ok: true, statusCode: 201, headers: [['X-N', '5'], ['x-amzn-Remapped-Date', 'd']], body: 'b', isBase64Encoded: false,
    });
  });
});
