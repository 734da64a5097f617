/**
 * Mapping templates evaluated by the real velocityjs engine: `$input`, `$context`, `$stageVariables`,
 * the overrides a template sets, and the errors (a body that is not JSON, a template that does not
 * parse).
 */
import { BASE, captured, render } from './template-input';
import { evaluateTemplate } from '../../../../../src/cli/local/rest/mapping/evaluate-template';

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

describe('$context and $stageVariables', () => {
  test('request, resource, stage, identity and authorizer values', () => {
    const template = '$context.requestId $context.extendedRequestId $context.httpMethod $context.resourcePath $context.resourceId $context.stage $context.path '
      + '$context.protocol $context.requestTime $context.requestTimeEpoch $context.apiId $context.accountId $context.identity.sourceIp $context.identity.userAgent '
      + '$context.identity.caller $context.authorizer.principalId $context.authorizer.tier $stageVariables.env';
    expect(render(template)).toBe(`req-1 ext-1 POST /items/{id} abc123 prod /prod/items/7 HTTP/1.1 23/Nov/2026:04:05:06 +0000 ${BASE.context.requestTimeEpoch} Api1 123456789012 10.0.0.9 curl/8 AIDA user-1 gold dev`);
  });

  test('responseOverride and requestOverride set by the template are returned', () => {
    const output = evaluateTemplate('#set($context.responseOverride.status = 418)#set($context.responseOverride.header.X-Out = "o")#set($context.requestOverride.header.X-In = "i")#set($context.requestOverride.querystring.page = "2")', BASE);
    expect(output.text).toBe('');
    expect(output.context.responseOverride).toEqual({ status: 418, header: { 'X-Out': 'o' } });
    expect(output.context.requestOverride).toEqual({ header: { 'X-In': 'i' }, querystring: { page: '2' }, path: {} });
  });
});

test('a template that does not parse is a configuration error, every time it is used', () => {
  for (let i = 0; i < 2; i++) {
    const error = captured(() => render('#if($input.body'));
    expect(error.kind).toBe('configuration');
    expect(error.message).toMatch(/^the mapping template does not parse: Parse error/);
  }
});
