/**
 * Routing on the (resource, method) pair, as API Gateway answers it (each expectation was recorded on
 * API Gateway or is what it documents).
 */
import { MethodSpec, ResourceNode } from '../../../../src/cli/local/model/rest-api';
import { pathSegments, route } from '../../../../src/cli/local/rest/router';

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

  test.each(['PROPFIND', 'TRACE', 'CONNECT', 'MKCOL', 'LOCK'])('%s is a method the gateway does not have: no resource has it, not even ANY', (httpMethod) => {
    expect(match(httpMethod, '/things/real')).toBeUndefined();
    expect(match(httpMethod, '/things/anything')).toBeUndefined();
    expect(match(httpMethod, '/users/7')).toBeUndefined();
    expect(match(httpMethod, '/nowhere')).toBeUndefined();
  });

  test.each(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'])('ANY answers %s', (httpMethod) => {
    expect(match(httpMethod, '/things/anything')?.method).toBe('ANY');
  });

  test('a path of 20,000 segments through a tree with literal, {param} and {proxy+} at every level routes at once', () => {
    const deepRoot = node('/', 'root', []);
    let parent = deepRoot;
    for (let depth = 1; depth <= 30; depth++) {
      const literal = node(`${parent.path}/a`, 'literal', []);
      const param = node(`${parent.path}/{p${depth}}`, 'param', [], `p${depth}`);
      parent.literalChildren.set('a', literal);
      parent.paramChild = param;
      parent = literal;
    }
    deepRoot.greedyChild = node('/{proxy+}', 'greedy', ['GET'], 'proxy');
    const below = `/${'a/'.repeat(20_000)}b`;
    const started = process.hrtime.bigint();
    const found = route(deepRoot, 'GET', pathSegments(below));
    expect(found?.resource.path).toBe('/{proxy+}');
    expect(found?.rawPathParameters.proxy).toBe(below.slice(1));
    expect(route(deepRoot, 'POST', pathSegments(below))).toBeUndefined();
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });
});
