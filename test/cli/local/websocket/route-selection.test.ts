/**
 * The route of a WebSocket message: the selection expression's value on the JSON body, else `$default`.
 */
import type { WebSocketApiSpec, WebSocketRouteSpec } from '../../../../src/cli/local/model/websocket-api';
import { selectionValue, selectRoute } from '../../../../src/cli/local/websocket/route-selection';

function route(routeKey: string): WebSocketRouteSpec {
  return { logicalId: routeKey, routeKey, authorizationType: 'NONE', integration: { type: 'UNSUPPORTED', description: 'x' }, twoWay: false };
}

function api(expression: string, keys: string[]): WebSocketApiSpec {
  return {
    kind: 'WEBSOCKET',
    logicalId: 'Api',
    apiId: 'Api',
    name: 'Api',
    stackName: 'S',
    region: 'us-east-1',
    stages: ['dev'],
    stageVariables: {},
    routeSelectionExpression: expression,
    routes: keys.map(route),
  };
}

test.each([
  ['$request.body.action', '{"action":"send"}', 'send'],
  ['${request.body.action}', '{"action":"send"}', 'send'],
  ['$request.body.meta.kind', '{"meta":{"kind":"join"}}', 'join'],
  ['$request.body.n', '{"n":7}', '7'],
  ['$request.body.action', '{"other":1}', undefined],
  ['$request.body.action', 'not json', undefined],
  ['$request.body.action', '{"action":{"nested":true}}', undefined],
  ['$request.body.toString', '{}', undefined],
  ['$context.routeKey', '{"action":"send"}', undefined],
])('%s on %s is %s', (expression, message, value) => {
  expect(selectionValue(expression, message)).toBe(value);
});

test('a matching custom route wins; no match or a $-key goes to $default; without $default there is no route', () => {
  const withDefault = api('$request.body.action', ['$connect', '$default', 'send']);
  expect(selectRoute(withDefault, '{"action":"send"}')?.routeKey).toBe('send');
  expect(selectRoute(withDefault, '{"action":"other"}')?.routeKey).toBe('$default');
  expect(selectRoute(withDefault, '{"action":"$connect"}')?.routeKey).toBe('$default');
  expect(selectRoute(withDefault, 'plain text')?.routeKey).toBe('$default');
  const without = api('$request.body.action', ['send']);
  expect(selectRoute(without, '{"action":"other"}')).toBeUndefined();
});
