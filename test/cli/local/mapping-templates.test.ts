/**
 * Mapping template variables, evaluated by the real velocityjs engine: `$input`, `$util`,
 * `$context`, `$stageVariables`, the overrides a template sets, Java string methods, and the
 * errors (a body that is not JSON, a template that does not parse). Also the integration response
 * selection by SelectionPattern.
 */
import type { IntegrationResponseSpec } from '../../../src/cli/local/model/rest-api';
import { selectIntegrationResponse } from '../../../src/cli/local/rest/integrations/non-proxy/response-mapping';
import { selectPath } from '../../../src/cli/local/rest/mapping/json-path';
import { renderTemplate, TemplateInput } from '../../../src/cli/local/rest/mapping/render-template';
import { TemplateError } from '../../../src/cli/local/rest/mapping/template-error';
import { escapeJavaScript, urlDecode, urlEncode } from '../../../src/cli/local/rest/mapping/util-variable';

const BASE: TemplateInput = {
  body: '{"name":"Ann","tags":["a","b"],"n":3,"nested":{"k":[{"v":1},{"v":2}]}}',
  parameters: { path: { id: '7', dup: 'from-path' }, querystring: { q: 'z', dup: 'from-query' }, header: { 'X-Trace': 't1', 'dup': 'from-header', 'Origin': 'https://a.example' } },
  context: {
    apiId: 'Api1',
    accountId: '123456789012',
    requestId: 'req-1',
    extendedRequestId: 'ext-1',
    httpMethod: 'POST',
    resourcePath: '/items/{id}',
    resourceId: 'abc123',
    stage: 'prod',
    path: '/prod/items/7',
    requestTimeEpoch: Date.UTC(2026, 10, 23, 4, 5, 6),
    domainName: '127.0.0.1:3000',
    sourceIp: '10.0.0.9',
    userAgent: 'curl/8',
    identity: { caller: 'AIDA' },
    authorizer: { principalId: 'user-1', tier: 'gold' },
  },
  stageVariables: { env: 'dev' },
};

const render = (template: string, input: Partial<TemplateInput> = {}) => renderTemplate(template, { ...BASE, ...input }).text;

describe('$input', () => {
  test('$input.body is the payload as it is', () => {
    expect(render('$input.body')).toBe(BASE.body);
  });

  test.each([
    ["$input.json('$.name')", '"Ann"'],
    ["$input.json('$.tags')", '["a","b"]'],
    ["$input.json('$.n')", '3'],
    ["$input.json('$.nested.k[1].v')", '2'],
    ["$input.json('$.nested.k[*].v')", '[1,2]'],
    ["$input.json('$..v')", '[1,2]'],
    ["$input.json('$.missing')", '""'],
  ])('%s → %s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  test('$input.path gives objects the template can navigate', () => {
    expect(render("$input.path('$.name')|$input.path('$.tags').size()|$input.path('$.tags').get(1)|$input.path('$.nested').k[0].v")).toBe('Ann|2|b|1');
  });

  test("an empty body is {} for $input.json('$') and $input.path('$')", () => {
    expect(render("$input.json('$')|$input.path('$').size()", { body: '' })).toBe('{}|0');
  });

  test('a body that is not JSON fails a template that reads it as JSON, as the client\'s error', () => {
    expect(render('[$input.body]', { body: 'a=1&b=2' })).toBe('[a=1&b=2]');
    const error = captured(() => render("$input.json('$')", { body: 'a=1&b=2' }));
    expect(error.kind).toBe('body-not-json');
    expect(error.reason).toMatch(/JSON/);
  });

  test('$input.params(name) looks in the path, then the query string, then the headers (any case); empty when absent', () => {
    expect(render("$input.params('dup')|$input.params('q')|$input.params('x-trace')|[$input.params('nothing')]")).toBe('from-path|z|t1|[]');
  });

  test('$input.params() has path, querystring and header maps', () => {
    const template = '#set($all = $input.params())#foreach($type in $all.keySet())$type:#foreach($name in $all.get($type).keySet())$name=$util.escapeJavaScript($all.get($type).get($name))#if($foreach.hasNext),#end#end;#end';
    expect(render(template)).toBe('path:id=7,dup=from-path;querystring:q=z,dup=from-query;header:X-Trace=t1,dup=from-header,Origin=https:\\/\\/a.example;');
    expect(render('$input.params().header.get("Origin")|$input.params().path.id')).toBe('https://a.example|7');
  });
});

describe('$util', () => {
  test('escapeJavaScript escapes quotes (single ones too, as documented), backslashes, slashes and control characters', () => {
    expect(escapeJavaScript('a"b\'c\\d/e\nf\tg\u0001h\u00e9')).toBe('a\\"b\\\'c\\\\d\\/e\\nf\\tg\\u0001h\\u00E9');
  });

  test.each([
    ['a b&c/é~', 'a+b%26c%2F%C3%A9%7E'],
    ['A-z_0.9*', 'A-z_0.9*'],
  ])('urlEncode(%j) = %j', (text, encoded) => {
    expect(urlEncode(text)).toBe(encoded);
    expect(urlDecode(encoded)).toBe(text);
  });

  test('urlDecode refuses a malformed escape', () => {
    expect(() => urlDecode('100%')).toThrow(TemplateError);
    expect(() => urlDecode('%zz')).toThrow(/malformed escape/);
  });

  test('the functions inside a template', () => {
    expect(render("$util.base64Encode('héllo')|$util.base64Decode('aMOpbGxv')|$util.urlEncode('a b')|$util.urlDecode('a+b%21')|$util.parseJson($input.json('$.nested')).k.size()"))
      .toBe('aMOpbGxv|héllo|a+b|a b!|2');
  });

  test('parseJson of text that is not JSON is a configuration error', () => {
    expect(captured(() => render("$util.parseJson('nope')")).kind).toBe('configuration');
  });
});

describe('$context and $stageVariables', () => {
  test('request, resource, stage, identity and authorizer values', () => {
    const template = '$context.requestId $context.extendedRequestId $context.httpMethod $context.resourcePath $context.resourceId $context.stage $context.path '
      + '$context.protocol $context.requestTime $context.requestTimeEpoch $context.apiId $context.accountId $context.identity.sourceIp $context.identity.userAgent '
      + '$context.identity.caller $context.authorizer.principalId $context.authorizer.tier $stageVariables.env';
    expect(render(template)).toBe(`req-1 ext-1 POST /items/{id} abc123 prod /prod/items/7 HTTP/1.1 23/Nov/2026:04:05:06 +0000 ${BASE.context.requestTimeEpoch} Api1 123456789012 10.0.0.9 curl/8 AIDA user-1 gold dev`);
  });

  test('responseOverride and requestOverride set by the template are returned', () => {
    const output = renderTemplate('#set($context.responseOverride.status = 418)#set($context.responseOverride.header.X-Out = "o")#set($context.requestOverride.header.X-In = "i")#set($context.requestOverride.querystring.page = "2")', BASE);
    expect(output.text).toBe('');
    expect(output.context.responseOverride).toEqual({ status: 418, header: { 'X-Out': 'o' } });
    expect(output.context.requestOverride).toEqual({ header: { 'X-In': 'i' }, querystring: { page: '2' }, path: {} });
  });
});

describe('Java behaviour templates rely on', () => {
  test.each([
    ["$input.path('$.name').replaceAll('[aeiou]', '_')", 'Ann'.replace(/[aeiou]/g, '_')],
    ["$input.path('$.name').replaceAll('(?i)[aeiou]', '_')", '_nn'],
    ["$input.path('$.name').replace('n', 'N')", 'ANN'],
    ["$input.path('$.name').matches('A.*')", 'true'],
    ["$input.path('$.name').matches('n')", 'false'],
    ["$input.path('$.name').length()", '3'],
    ["$input.path('$.name').equalsIgnoreCase('ANN')", 'true'],
    ["$input.path('$.name').toUpperCase()", 'ANN'],
    ["#set($s = 'a,b,,')$s.split(',').size()", '2'],
    ['#foreach($t in $input.path(\'$.tags\'))$t#if($foreach.hasNext)+#end#end', 'a+b'],
    ['$input.path(\'$.nested\')', '{k=[{v=1}, {v=2}]}'],
  ])('%s → %s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

test('a template that does not parse is a configuration error, every time it is used', () => {
  for (let i = 0; i < 2; i++) {
    const error = captured(() => render('#if($input.body'));
    expect(error.kind).toBe('configuration');
    expect(error.message).toMatch(/^the mapping template does not parse: Parse error/);
  }
});

test('JSONPath: a definite path selects one value or nothing, an indefinite one a list', () => {
  const doc = { a: [{ b: 1 }, { b: 2 }] };
  expect(selectPath(doc, '$.a[0].b')).toBe(1);
  expect(selectPath(doc, '$.a[5].b')).toBeUndefined();
  expect(selectPath(doc, '$.a[*].b')).toEqual([1, 2]);
  expect(selectPath(doc, '$.zz[*]')).toEqual([]);
  expect(selectPath(doc, '')).toBe(doc);
});

describe('integration response selection', () => {
  const responses: IntegrationResponseSpec[] = [
    { statusCode: 400, selectionPattern: 'Bad.*', responseParameters: {}, responseTemplates: {} },
    { statusCode: 404, selectionPattern: '4\\d\\d', responseParameters: {}, responseTemplates: {} },
    { statusCode: 200, responseParameters: {}, responseTemplates: {} },
  ];

  test.each([
    ['Bad input: x', 400],
    ['404', 404],
    ['a Bad input', 200],
    ['4044', 200],
    [undefined, 200],
  ])('%j selects %d (the whole text must match; otherwise the default)', (input, status) => {
    expect(selectIntegrationResponse(responses, input)?.statusCode).toBe(status);
  });

  test('no match and no default: nothing', () => {
    expect(selectIntegrationResponse(responses.slice(0, 2), '500')).toBeUndefined();
  });

  test('an invalid pattern matches nothing', () => {
    expect(selectIntegrationResponse([{ statusCode: 400, selectionPattern: '(', responseParameters: {}, responseTemplates: {} }], '(')).toBeUndefined();
  });
});

function captured(action: () => unknown): TemplateError {
  try {
    action();
  } catch (e) {
    if (e instanceof TemplateError) {
      return e;
    }
    throw e;
  }
  throw new Error('expected a TemplateError');
}
