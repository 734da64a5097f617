import { parseRouteKey } from '../../../../src/cli/local/http/reader/route-key';
import { matchRoute } from '../../../../src/cli/local/http/router';
import type { HttpRouteSpec } from '../../../../src/cli/local/model/http-api';

function routes(...keys: string[]): HttpRouteSpec[] {
  return keys.map((routeKey) => {
    const key = parseRouteKey(routeKey);
    if ('problem' in key) {
      throw new Error(key.problem);
    }
    return { logicalId: routeKey, routeKey, ...key, authorizationType: 'NONE', integration: { type: 'UNSUPPORTED', description: '' } };
  });
}

/** The priority "Routing API requests" gives (a full match, then a greedy variable, then $default), on literal, variable and ANY routes. */
const TABLE = routes('GET /pets/dog/1', 'GET /pets/dog/{id}', 'GET /pets/{proxy+}', 'ANY /{proxy+}', '$default');

test.each([
  ['GET', '/pets/dog/1', 'GET /pets/dog/1', {}],
  ['GET', '/pets/dog/2', 'GET /pets/dog/{id}', { id: '2' }],
  ['GET', '/pets/cat/1', 'GET /pets/{proxy+}', { proxy: 'cat/1' }],
  ['POST', '/pets/cat/1', 'ANY /{proxy+}', { proxy: 'pets/cat/1' }],
  ['GET', '/', '$default', {}],
])('%s %s goes to %s', (method, path, routeKey, pathParameters) => {
  const match = matchRoute(TABLE, method, path.split('/').filter((s) => s !== ''));
  expect(match?.route.routeKey).toBe(routeKey);
  expect(match?.pathParameters).toEqual(pathParameters);
});

test("the request's method before ANY on the same path; no match and no $default: undefined", () => {
  const table = routes('ANY /items', 'GET /items');
  expect(matchRoute(table, 'GET', ['items'])?.route.routeKey).toBe('GET /items');
  expect(matchRoute(table, 'PUT', ['items'])?.route.routeKey).toBe('ANY /items');
  expect(matchRoute(table, 'GET', ['other'])).toBeUndefined();
  expect(matchRoute(table, 'GET', ['items', 'more'])).toBeUndefined();
});

test('a greedy variable needs one segment or more; variables are decoded', () => {
  const table = routes('GET /files/{proxy+}', 'GET /names/{name}');
  expect(matchRoute(table, 'GET', ['files'])).toBeUndefined();
  expect(matchRoute(table, 'GET', ['names', 'a%20b'])?.pathParameters).toEqual({ name: 'a b' });
});
