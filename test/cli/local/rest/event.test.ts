/**
 * The payload 1.0 event of a Lambda proxy integration: the request headers it passes on.
 */
import { buildEvent, EventInput } from '../../../../src/cli/local/rest/event';

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

  test('Content-Length is not in headers or multiValueHeaders (recorded: the event of a request with a body has none)', () => {
    const event = buildEvent({ ...input(['Content-Length', '5', 'content-type', 'text/plain'], false), httpMethod: 'POST', body: 'hello' }) as any;
    expect(event.headers).toEqual({ 'content-type': 'text/plain' });
    expect(event.multiValueHeaders).toEqual({ 'content-type': ['text/plain'] });
    expect(event.body).toBe('hello');
  });

  test('the trace header given in forward is the one the function sees', () => {
    const forward = { traceId: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=0123456789abcdef;Sampled=1', sourceIp: '10.0.0.1', port: 443 };
    const event = buildEvent({ ...input([], false), forward }) as any;
    expect(event.headers['X-Amzn-Trace-Id']).toBe(forward.traceId);
  });

  test('an AWS_IAM method never passes Authorization on; another method passes it in its casing', () => {
    expect((buildEvent(input(['authorization', 'Bearer t', 'X-A', 'b'], true)) as any).headers).toEqual({ 'X-A': 'b' });
    expect((buildEvent(input(['authorization', 'Bearer t'], false)) as any).headers).toEqual({ Authorization: 'Bearer t' });
  });
});
