/**
 * The gateway's own request and response rules for Lambda proxy integrations, function by function:
 * query strings, binary media types, the proxy response's headers and status, and routing on the
 * (resource, method) pair. Each expectation is what API Gateway documents or was recorded answering.
 */
import { parseQuery } from '../../../src/cli/local/common/query-string';
import { MethodSpec, ResourceNode } from '../../../src/cli/local/model/rest-api';
import { buildEvent, EventInput } from '../../../src/cli/local/rest/event';
import { isBinaryType, parseProxyResult } from '../../../src/cli/local/rest/proxy-response';
import { pathSegments, route } from '../../../src/cli/local/rest/router';

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

describe('request headers in the event', () => {
  const input = (headers: string[], iamMethod: boolean): EventInput => ({
    resource: '/iam',
    path: '/iam',
    httpMethod: 'GET',
    headers,
    query: '',
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    iamMethod,
    context: { resourceId: 'r', stage: 'prod', path: '/prod/iam', requestId: 'id', extendedRequestId: 'x', requestTimeEpoch: 0, sourceIp: '127.0.0.1', domainName: 'h', apiId: 'a', identity: null },
  });

  test('an AWS_IAM method never passes Authorization on; another method passes it in its casing', () => {
    expect((buildEvent(input(['authorization', 'Bearer t', 'X-A', 'b'], true)) as any).headers).toEqual({ 'X-A': 'b' });
    expect((buildEvent(input(['authorization', 'Bearer t'], false)) as any).headers).toEqual({ Authorization: 'Bearer t' });
  });
});

describe('binary media types', () => {
  test.each([
    ['image/png', ['image/png'], true],
    ['image/png; q=0.1, text/html', ['image/png'], true],
    ['text/html, image/png', ['image/png'], false],
    ['image/webp,image/*,*/*;q=0.8', ['image/webp'], true],
    ['image/webp,image/*,*/*;q=0.8', ['image/jpeg'], false],
    ['image/gif', ['image/*'], true],
    ['text/plain', ['*/*'], true],
    ['*/*', ['image/png'], false],
    ['application/octet-stream', ['application~1octet-stream'], true],
    ['', ['*/*'], false],
  ])('Accept %j with %j: %s (only the first type counts)', (accept, types, binary) => {
    expect(isBinaryType(accept, types)).toBe(binary);
  });
});

describe('the Lambda proxy response', () => {
  test('no statusCode is a 200 with an empty body', () => {
    expect(parseProxyResult('{}')).toEqual({ ok: true, statusCode: 200, headers: [], body: '', isBase64Encoded: false });
  });

  test('a null statusCode is still malformed', () => {
    expect(parseProxyResult('{"statusCode":null}')).toEqual({ ok: false, reason: 'statusCode must be an integer HTTP status (got null)' });
  });

  test('a name in both headers and multiValueHeaders takes only the multiValueHeaders values, in any case', () => {
    const result = parseProxyResult(JSON.stringify({
      statusCode: 200,
      headers: { 'X-One': 'single', 'X-Two': 'single' },
      multiValueHeaders: { 'x-one': ['m1', 'm2'], 'X-Three': ['a', 'b'] },
    }));
    expect(result).toMatchObject({ ok: true, headers: [['X-One', 'm1'], ['X-One', 'm2'], ['X-Two', 'single'], ['X-Three', 'a'], ['X-Three', 'b']] });
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

describe('routing on the resource and method together', () => {
  const method = (httpMethod: string): MethodSpec => ({ logicalId: httpMethod, httpMethod, authorizationType: 'NONE', apiKeyRequired: false, integration: { type: 'UNSUPPORTED', description: 'test' } } as MethodSpec);
  const node = (path: string, kind: ResourceNode['kind'], methods: string[], paramName?: string): ResourceNode => ({
    path, pathPart: path.split('/').pop()!, kind, paramName, resourceId: path, literalChildren: new Map(), methods: new Map(methods.map((m) => [m, method(m)])),
  });
  // Measured on API Gateway: /users/me PATCH, /users/{userId} GET, /things/real GET, /things/{proxy+} ANY.
  const root = node('/', 'root', []);
  const users = node('/users', 'literal', []);
  const me = node('/users/me', 'literal', ['PATCH']);
  const userId = node('/users/{userId}', 'param', ['GET'], 'userId');
  const things = node('/things', 'literal', []);
  const real = node('/things/real', 'literal', ['GET']);
  const proxy = node('/things/{proxy+}', 'greedy', ['ANY'], 'proxy');
  root.literalChildren.set('users', users);
  users.literalChildren.set('me', me);
  users.paramChild = userId;
  root.literalChildren.set('things', things);
  things.literalChildren.set('real', real);
  things.greedyChild = proxy;
  const match = (httpMethod: string, below: string) => {
    const found = route(root, httpMethod, pathSegments(below));
    return found && { resource: found.resource.path, method: found.method.httpMethod, params: { ...found.rawPathParameters } };
  };

  test.each([
    ['GET', '/users/me', { resource: '/users/{userId}', method: 'GET', params: { userId: 'me' } }],
    ['PATCH', '/users/me', { resource: '/users/me', method: 'PATCH', params: {} }],
    ['POST', '/users/me', undefined],
    ['GET', '/things/real', { resource: '/things/real', method: 'GET', params: {} }],
    ['POST', '/things/real', { resource: '/things/{proxy+}', method: 'ANY', params: { proxy: 'real' } }],
    ['GET', '/things', undefined],
    ['GET', '/things/', undefined],
  ])('%s %s', (httpMethod, below, expected) => {
    expect(match(httpMethod, below)).toEqual(expected);
  });

  test.each([
    ['/users/me/', { userId: 'me' }],
    ['//users//a%2Fb', { userId: 'a%2Fb' }],
    ['/users/%6De', { userId: '%6De' }],
  ])('%s: empty segments do not count; values stay as sent', (below, params) => {
    expect(match('GET', below)?.params).toEqual(params);
  });

  test.each([
    ['/things/a//b/', 'a//b'],
    ['//things//a/', 'a'],
    ['/things/a%2Bb/c+d', 'a%2Bb/c+d'],
    ['/things/real/x', 'real/x'],
  ])('greedy %s: %s', (below, value) => {
    expect(match('DELETE', below)?.params).toEqual({ proxy: value });
  });

  test('mappings and non-proxy backends get the values decoded', () => {
    expect({ ...route(root, 'GET', pathSegments('/users/a%2Fb%20c'))!.pathParameters }).toEqual({ userId: 'a/b c' });
  });
});
