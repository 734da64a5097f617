/**
 * The keys of a WebSocket API's non-proxy integration: the template a template selection
 * expression names (a body property, the status code, a static key, `\$default`; else `$default`),
 * and the integration response whose key matches the status code (a pattern in slashes matching
 * the whole code, else `$default`).
 */
import type { WebSocketIntegrationResponseSpec } from '../../../../src/cli/local/model/websocket-api';
import { selectIntegrationResponse, selectTemplate } from '../../../../src/cli/local/websocket/template-selection';

const TEMPLATES = { $default: 'default', a: 'by a', static: 'by static', 404: 'by 404' };

test('a body property: ${request.body.x} and $request.body.x; a value no template has, or a message that is not JSON: $default', () => {
  expect(selectTemplate(TEMPLATES, '${request.body.kind}', { body: '{"kind":"a"}' })).toBe('by a');
  expect(selectTemplate(TEMPLATES, '$request.body.kind', { body: '{"kind":"a"}' })).toBe('by a');
  expect(selectTemplate(TEMPLATES, '${request.body.kind}', { body: '{"kind":"zzz"}' })).toBe('default');
  expect(selectTemplate(TEMPLATES, '${request.body.kind}', { body: 'not json' })).toBe('default');
});

test('a static key, \\$default, no expression, the status code', () => {
  expect(selectTemplate(TEMPLATES, 'static', { body: '' })).toBe('by static');
  expect(selectTemplate(TEMPLATES, '\\$default', { body: '{"kind":"a"}' })).toBe('default');
  expect(selectTemplate(TEMPLATES, undefined, { body: '{"kind":"a"}' })).toBe('default');
  expect(selectTemplate(TEMPLATES, '${integration.response.statuscode}', { body: '', statusCode: 404 })).toBe('by 404');
  expect(selectTemplate(TEMPLATES, '$integration.response.statuscode', { body: '', statusCode: 500 })).toBe('default');
});

test('no template for the key and no $default: none; a key inherited from Object.prototype is no template', () => {
  expect(selectTemplate({ a: 'by a' }, 'b', { body: '' })).toBeUndefined();
  expect(selectTemplate({}, 'constructor', { body: '' })).toBeUndefined();
});

test('integration responses: the first pattern matching the whole code, else $default; none without $default', () => {
  const responses: WebSocketIntegrationResponseSpec[] = [
    { key: '$default', responseTemplates: {} },
    { key: '/2\\d\\d/', responseTemplates: {} },
    { key: '/4\\d/', responseTemplates: {} },
    { key: '/4\\d\\d/', responseTemplates: {} },
  ];
  expect(selectIntegrationResponse(responses, 201)?.key).toBe('/2\\d\\d/');
  // `/4\d/` matches a part of 404 only: the whole code must match.
  expect(selectIntegrationResponse(responses, 404)?.key).toBe('/4\\d\\d/');
  expect(selectIntegrationResponse(responses, 500)?.key).toBe('$default');
  expect(selectIntegrationResponse(responses.slice(1), 500)).toBeUndefined();
});
