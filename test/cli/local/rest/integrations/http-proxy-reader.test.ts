/**
 * Reading an HTTP_PROXY integration from a template: what is served, and what is announced as not
 * served (with the reason) instead.
 */
import { readHttpProxyIntegration } from '../../../../../src/cli/local/rest/integrations/http-proxy-reader';

/** Literal strings only, as a template without intrinsics evaluates. */
const literal = (expression: unknown) => (typeof expression === 'string' ? expression : undefined);

test('a public endpoint: URI, method, parameters and timeout as written', () => {
  expect(readHttpProxyIntegration({
    Type: 'HTTP_PROXY',
    Uri: 'https://api.example.com/{proxy}',
    IntegrationHttpMethod: 'any',
    RequestParameters: { 'integration.request.path.proxy': 'method.request.path.proxy' },
    TimeoutInMillis: 1500,
  }, literal)).toEqual({
    integration: {
      type: 'HTTP_PROXY',
      uri: 'https://api.example.com/{proxy}',
      httpMethod: 'ANY',
      requestParameters: { 'integration.request.path.proxy': 'method.request.path.proxy' },
      timeoutMs: 1500,
      description: 'HTTP_PROXY ANY https://api.example.com/{proxy}',
    },
    warning: undefined,
  });
});

test.each([
  [undefined, 29_000],
  [29_000, 29_000],
  [29_001, 29_000],
  [50, 50],
  [0, 29_000],
  ['soon', 29_000],
])('TimeoutInMillis %p gives %p ms (at most 29 s)', (timeout, expected) => {
  const read = readHttpProxyIntegration({ Uri: 'http://h/x', IntegrationHttpMethod: 'GET', TimeoutInMillis: timeout }, literal);
  expect(read.integration).toMatchObject({ type: 'HTTP_PROXY', timeoutMs: expected });
});

test('a VPC link is not emulated', () => {
  expect(readHttpProxyIntegration({ Uri: 'http://nlb.internal/x', ConnectionType: 'VPC_LINK', ConnectionId: 'abc' }, literal)).toEqual({
    integration: { type: 'UNSUPPORTED', description: 'HTTP_PROXY integration through a VPC link' },
    warning: 'HTTP_PROXY integration through a VPC link (ConnectionType VPC_LINK) is not emulated: the VPC is not reachable locally; answered 500',
  });
});

test('a URI known only after deploy (a load balancer\'s DNS name) is announced', () => {
  const uri = { 'Fn::Join': ['', ['http://', { 'Fn::GetAtt': ['Lb', 'DNSName'] }, '/x']] };
  expect(readHttpProxyIntegration({ Uri: uri }, literal)).toEqual({
    integration: { type: 'UNSUPPORTED', description: 'HTTP_PROXY integration whose URI is known only after deploy' },
    warning: 'HTTP_PROXY integration URI refers to values known only after deploy; answered 500',
  });
});

test('a URI that is not an absolute http(s) URL is announced', () => {
  expect(readHttpProxyIntegration({ Uri: 'example.com/x' }, literal)).toEqual({
    integration: { type: 'UNSUPPORTED', description: 'HTTP_PROXY integration to example.com/x' },
    warning: 'HTTP_PROXY integration URI "example.com/x" is not an absolute http:// or https:// URL; answered 500',
  });
});

test('request parameters with a target API Gateway does not know are named in a warning, the others kept', () => {
  const read = readHttpProxyIntegration({
    Uri: 'http://h/x',
    RequestParameters: { 'integration.request.header.X-A': "'a'", 'integration.request.body.x': 'method.request.body', 'integration.request.header.X-B': true },
  }, literal);
  expect(read.integration).toMatchObject({ requestParameters: { 'integration.request.header.X-A': "'a'" }, httpMethod: 'ANY' });
  expect(read.warning).toBe('HTTP_PROXY integration: request parameters not applied locally: integration.request.body.x, integration.request.header.X-B');
});
