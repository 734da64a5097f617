/**
 * What HTTP can carry: header names and values and statuses Node refuses (and would throw on).
 */
import { unsendable } from '../../../../../src/cli/local/rest/pipeline/sendable';

describe('what HTTP can carry (Node refuses the rest and would throw)', () => {
  const one = (name: string, value: string, statusCode = 200) => unsendable({ statusCode, headers: [[name, value]] });

  test.each([
    ['X-Ok', 'plain'],
    ['X-Tab', 'a\tb'],
    ['X-Latin', 'caf\u00e9 \u00ff'],
    ["!#$%&'*+-.^_`|~09azAZ", 'v'],
    ['__proto__', 'v'],
  ])('%j: %j is sent', (name, value) => {
    expect(one(name, value)).toBeUndefined();
  });

  test.each([
    ['X-Bad', 'a\r\nb', 'header "X-Bad" has a value HTTP cannot carry'],
    ['X-Bad', 'a\u0000b', 'header "X-Bad" has a value HTTP cannot carry'],
    ['X-Bad', 'a\u007fb', 'header "X-Bad" has a value HTTP cannot carry'],
    ['X-Bad', '\u0100', 'header "X-Bad" has a value HTTP cannot carry'],
    ['X-Bad', '5 \u20ac', 'header "X-Bad" has a value HTTP cannot carry'],
    ['', 'v', 'header name "" is not a valid HTTP header name'],
    ['a b', 'v', 'header name "a b" is not a valid HTTP header name'],
    ['a:b', 'v', 'header name "a:b" is not a valid HTTP header name'],
    ['\u00e9', 'v', 'header name "\u00e9" is not a valid HTTP header name'],
  ])('%j: %j is refused', (name, value, problem) => {
    expect(one(name, value)).toMatch(problem);
  });

  test.each([[99, false], [100, false], [199, false], [200, true], [599, true], [600, false], [200.5, false]])('status %d: sendable %s (a response ends on a final status)', (status, ok) => {
    expect(one('X', 'v', status) === undefined).toBe(ok);
  });

  test.each([100, 101, 199])('status %d is named as interim', (status) => {
    expect(one('X', 'v', status)).toBe(`status ${status} is an interim (1xx) status, which cannot end an HTTP response`);
  });
});
