import { parseRouteKey } from '../../../../../src/cli/local/http/reader/route-key';

test('$default is the catch-all: no method, no segments', () => {
  expect(parseRouteKey('$default')).toEqual({ segments: [] });
});

test('METHOD /path: literal segments, variables and a greedy variable at the end', () => {
  expect(parseRouteKey('GET /items/{id}/{proxy+}')).toEqual({
    method: 'GET',
    segments: [{ kind: 'literal', text: 'items' }, { kind: 'param', name: 'id' }, { kind: 'greedy', name: 'proxy' }],
  });
  expect(parseRouteKey('ANY /')).toEqual({ method: 'ANY', segments: [] });
});

test.each([
  ['GET /{proxy+}/more', 'route key "GET /{proxy+}/more": a greedy path variable must end the path'],
  ['FETCH /items', 'route key "FETCH /items" is not \'$default\' or \'METHOD /path\' (METHOD one of ANY, GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)'],
  ['GET items', 'route key "GET items" is not \'$default\' or \'METHOD /path\' (METHOD one of ANY, GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)'],
])('%s is refused', (key, problem) => {
  expect(parseRouteKey(key)).toEqual({ problem });
});
