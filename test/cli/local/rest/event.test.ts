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

  test('an AWS_IAM method never passes Authorization on; another method passes it in its casing', () => {
    expect((buildEvent(input(['authorization', 'Bearer t', 'X-A', 'b'], true)) as any).headers).toEqual({ 'X-A': 'b' });
    expect((buildEvent(input(['authorization', 'Bearer t'], false)) as any).headers).toEqual({ Authorization: 'Bearer t' });
  });
});
