/**
 * Query strings as API Gateway reads them for a Lambda proxy event, and as SigV4 reads them.
 */
import { parseQuery } from '../../../../src/cli/local/common/query-string';

describe('query strings', () => {
  test('a + is a space, %2B a plus, ; separates like &, a bad escape stays as sent', () => {
    const { single, multi, count } = parseQuery('q=a+b&e=a%2Bb&bad=%zz&s=1;t=2&t=3&flag');
    expect(single).toEqual({ q: 'a b', e: 'a+b', bad: '%zz', s: '1', t: '3', flag: '' });
    expect(multi.t).toEqual(['2', '3']);
    expect(count).toBe(7);
  });

  test('the SigV4 reading keeps + and ; as they are', () => {
    expect(parseQuery('q=a+b;c=d', false).single).toEqual({ q: 'a+b;c=d' });
  });
});
