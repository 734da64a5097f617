/**
 * The small pure parts of the local REST API: intrinsic evaluation, URL localization, the MOCK
 * CORS origin check, proxy response checks, binary media types, masking, what HTTP can carry,
 * gateway error rendering.
 */
import { mask, maskedEvent } from '../../../src/cli/local/rest/pipeline/execution-log';
import { UNKNOWN_STAGE } from '../../../src/cli/local/rest/pipeline/gateway-errors';
import { renderError } from '../../../src/cli/local/rest/pipeline/render-error';
import { unsendable } from '../../../src/cli/local/rest/pipeline/sendable';
import { isBinaryType, parseProxyResult } from '../../../src/cli/local/rest/proxy-response';
import { localizeUrl, pendingExpression } from '../../../src/cli/local/server/local-outputs';
import { evaluate, IntrinsicEnvironment, pseudoParameters, tryEvaluateString, Unresolvable } from '../../../src/cli/local/template/intrinsics';

const env: IntrinsicEnvironment = {
  pseudo: pseudoParameters('eu-west-1', 'Backend'),
  ref: (id) => ({ Api1234: 'Api1234', Stage1: 'prod' } as Record<string, string>)[id],
  getAtt: (id, attr) => (id === 'Api1234' && attr === 'RootResourceId' ? 'root' : undefined),
};

describe('intrinsics', () => {
  test('the execute-api URL join of aws-cdk-lib', () => {
    const url = { 'Fn::Join': ['', ['https://', { Ref: 'Api1234' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: 'Stage1' }, '/']] };
    expect(evaluate(url, env)).toBe('https://Api1234.execute-api.eu-west-1.amazonaws.com/prod/');
  });

  test.each([
    [{ 'Fn::Sub': 'arn:${AWS::Partition}:x:${AWS::Region}:${AWS::AccountId}:${Api1234}' }, 'arn:aws:x:eu-west-1:123456789012:Api1234'],
    [{ 'Fn::Sub': ['${A}-${Api1234.RootResourceId}', { A: 'a' }] }, 'a-root'],
    [{ 'Fn::Select': [1, { 'Fn::Split': [',', 'a,b,c'] }] }, 'b'],
    [{ 'Fn::Base64': 'hi' }, 'aGk='],
    [{ 'Fn::GetAtt': ['Api1234', 'RootResourceId'] }, 'root'],
    ['literal', 'literal'],
  ])('%j evaluates to %j', (expression, value) => {
    expect(evaluate(expression, env)).toBe(value);
  });

  test.each([
    [{ Ref: 'Bucket' }, 'Ref Bucket is not known locally'],
    [{ 'Fn::GetAtt': ['Fn', 'Arn'] }, 'Fn::GetAtt Fn.Arn is not known locally'],
    [{ 'Fn::ImportValue': 'x' }, 'Fn::ImportValue is not evaluated locally'],
    [{ 'Fn::Select': [5, ['a']] }, 'Fn::Select index 5 is out of range'],
  ])('%j is unresolvable: %s', (expression, message) => {
    expect(() => evaluate(expression, env)).toThrow(Unresolvable);
    expect(() => evaluate(expression, env)).toThrow(message);
    expect(tryEvaluateString(expression, env)).toBeUndefined();
  });

  test('pseudo parameters follow the partition of the region', () => {
    expect(pseudoParameters('cn-north-1', 'S')).toMatchObject({ 'AWS::URLSuffix': 'amazonaws.com.cn', 'AWS::Partition': 'aws-cn' });
    expect(pseudoParameters('us-gov-west-1', 'S')['AWS::Partition']).toBe('aws-us-gov');
  });
});

describe('local outputs', () => {
  const apis = [{ apiId: 'Api1234', origin: 'http://127.0.0.1:3000' }];
  test.each([
    ['https://Api1234.execute-api.eu-west-1.amazonaws.com/prod/', 'http://127.0.0.1:3000/prod/'],
    ['https://Api1234.execute-api.cn-north-1.amazonaws.com.cn/prod/items', 'http://127.0.0.1:3000/prod/items'],
    ['https://Api1234.execute-api.eu-west-1.amazonaws.com', 'http://127.0.0.1:3000/'],
    ['https://Other99.execute-api.eu-west-1.amazonaws.com/prod/', 'https://Other99.execute-api.eu-west-1.amazonaws.com/prod/'],
    ['eu-west-1', 'eu-west-1'],
  ])('%s → %s', (value, local) => {
    expect(localizeUrl(value, apis)).toBe(local);
  });

  test('the expression of a pending slot is the Fn::Base64 argument at its index', () => {
    const template = { Outputs: { O: { Value: { 'Fn::Join': [',', [{ 'Fn::Base64': { Ref: 'A' } }, { 'Fn::Base64': { Ref: 'B' } }]] } } } };
    expect(pendingExpression(template, { pointer: '/x', output: 'O', index: 1 })).toEqual({ Ref: 'B' });
    expect(pendingExpression({ Outputs: { O: { Value: { 'Fn::Base64': { Ref: 'A' } } } } }, { pointer: '/x', output: 'O', index: 0 })).toEqual({ Ref: 'A' });
    expect(pendingExpression(template, { pointer: '/x', output: 'Missing', index: 0 })).toBeUndefined();
  });
});

describe('proxy response checks', () => {
  test.each([
    [undefined, 'the function returned no value'],
    ['"text"', 'the response is a string, not an object'],
    ['[1]', 'the response is an array, not an object'],
    ['null', 'the response is null, not an object'],
    ['{"statusCode":200,"cookies":[]}', "unexpected key 'cookies' (allowed: statusCode, headers, multiValueHeaders, body, isBase64Encoded)"],
    ['{"statusCode":null,"body":"x"}', 'statusCode must be an integer HTTP status (got null)'],
    ['{"statusCode":99}', 'statusCode must be an integer HTTP status (got 99)'],
    ['{"statusCode":200,"body":{}}', 'body must be a string'],
    ['{"statusCode":200,"headers":{"a":{}}}', 'headers.a must be a string'],
    ['{"statusCode":200,"multiValueHeaders":{"a":"b"}}', 'multiValueHeaders.a must be an array of strings'],
    ['{"statusCode":200,"isBase64Encoded":"yes"}', 'isBase64Encoded must be a boolean'],
  ])('%s is malformed: %s', (payload, reason) => {
    expect(parseProxyResult(payload)).toEqual({ ok: false, reason });
  });

  test('a string status code and scalar header values are accepted', () => {
    expect(parseProxyResult('{"statusCode":"201","headers":{"X-N":5,"Date":"d"},"body":"b"}')).toEqual({
      ok: true, statusCode: 201, headers: [['X-N', '5'], ['x-amzn-Remapped-Date', 'd']], body: 'b', isBase64Encoded: false,
    });
  });

  test.each([
    ['image/png', ['image/png'], true],
    ['image/png', ['image~1png'], true],
    ['image/jpeg, text/html', ['image/*'], true],
    ['application/json', ['*/*'], true],
    ['application/json', ['image/png'], false],
    [undefined, ['*/*'], false],
  ])('%s with binary media types %j: %s', (type, types, binary) => {
    expect(isBinaryType(type, types)).toBe(binary);
  });

  test.each([
    ['abc', '***'],
    ['12345678', '********'],
    ['123456789', '*****6789'],
  ])('mask(%s) = %s', (value, masked) => {
    expect(mask(value)).toBe(masked);
  });
});

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

  test.each([[99, false], [100, true], [599, true], [600, false], [200.5, false]])('status %d: sendable %s', (status, ok) => {
    expect(one('X', 'v', status) === undefined).toBe(ok);
  });
});

describe('gateway errors', () => {
  const ids = { requestId: 'r-1', apigwId: 'g-1=', traceId: 'Root=1-0-0' };
  const error = { type: 'MISSING_AUTHENTICATION_TOKEN' as const, status: 403, message: 'Missing Authentication Token', errorType: 'MissingAuthenticationTokenException' };
  const api = (gatewayResponses: any[]) => ({ gatewayResponses } as any);

  test('the default rendering', () => {
    expect(renderError(api([]), ids, error)).toEqual({
      statusCode: 403,
      headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', 'r-1'], ['x-amzn-ErrorType', 'MissingAuthenticationTokenException'], ['x-amz-apigw-id', 'g-1=']],
      body: '{"message":"Missing Authentication Token"}',
      requestId: 'r-1',
    });
  });

  test('the API\'s gateway response for the type wins over DEFAULT_4XX; its headers replace same-named ones', () => {
    const rendered = renderError(api([
      { responseType: 'DEFAULT_4XX', statusCode: 400, headers: { 'X-Default': 'd' } },
      { responseType: 'MISSING_AUTHENTICATION_TOKEN', statusCode: 404, headers: { 'content-type': 'text/plain', 'Access-Control-Allow-Origin': '*' } },
    ]), ids, error);
    expect(rendered.statusCode).toBe(404);
    expect(rendered.headers).toContainEqual(['Content-Type', 'text/plain']);
    expect(rendered.headers).toContainEqual(['Access-Control-Allow-Origin', '*']);
    expect(rendered.headers).not.toContainEqual(['X-Default', 'd']);
  });

  test('an unknown stage names no deployment: no gateway response of the API applies to its 403 Forbidden', () => {
    const rendered = renderError(api([
      { responseType: 'DEFAULT_4XX', statusCode: 400, headers: { 'Access-Control-Allow-Origin': '*' } },
      { responseType: 'UNKNOWN_STAGE', statusCode: 404, headers: {} },
    ]), ids, UNKNOWN_STAGE);
    expect(rendered).toEqual({
      statusCode: 403,
      headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', 'r-1'], ['x-amzn-ErrorType', 'ForbiddenException'], ['x-amz-apigw-id', 'g-1=']],
      body: '{"message":"Forbidden"}',
      requestId: 'r-1',
    });
  });
});

test('the event in the execution log masks Authorization and X-Amz-Security-Token values only', () => {
  const event = {
    headers: { 'authorization': 'AWS4-HMAC-SHA256 secret-1234', 'X-Amz-Security-Token': 'token-value-abcd', 'x-other': 'visible' },
    multiValueHeaders: { Authorization: ['AWS4-HMAC-SHA256 secret-1234'] },
    body: '{"authorization":"in the body stays"}',
  };
  const shown = JSON.parse(maskedEvent(event));
  expect(shown.headers).toEqual({ 'authorization': `${'*'.repeat(24)}1234`, 'X-Amz-Security-Token': `${'*'.repeat(12)}abcd`, 'x-other': 'visible' });
  expect(shown.multiValueHeaders.Authorization).toEqual([`${'*'.repeat(24)}1234`]);
  expect(shown.body).toBe(event.body);
});
