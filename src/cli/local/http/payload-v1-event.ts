/**
 * The payload format 1.0 event as HTTP APIs send it ("Create AWS Lambda proxy integrations for
 * HTTP APIs"): REST's proxy event with `version: "1.0"`, header names lower-cased, `path` and
 * `requestContext.path` as sent (the stage segment of a named stage included), `resource` and
 * `resourcePath` the route's path (the request's path for `$default`), `resourceId` the route key.
 */
import { v1EventAuthorizer, v1EventIdentity } from './authorizers/event-authorizer';
import { domainNameOf, isTextBody, RoutedHttpRequest, stageVariablesOf } from './routed-request';
import { requestTime } from '../common/dates';
import { appendValue, ownGet } from '../common/own-record';
import { parseQuery } from '../common/query-string';

export function payloadV1Event(routed: RoutedHttpRequest): Record<string, unknown> {
  const { request, match } = routed;
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of request.rawHeaders) {
    appendValue(headers, multiValueHeaders, name.toLowerCase(), value);
  }
  const query = parseQuery(routed.rawQueryString);
  const method = request.method.toUpperCase();
  const resource = match.route.method === undefined ? routed.pathBelowStage : `/${match.route.routeKey.split(' /')[1]}`;
  const domainName = domainNameOf(routed);
  const text = isTextBody(ownGet(headers, 'content-type'));
  const stageVariables = stageVariablesOf(routed);
  return {
    version: '1.0',
    resource,
    path: routed.rawPath,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: query.count > 0 ? query.single : null,
    multiValueQueryStringParameters: query.count > 0 ? query.multi : null,
    requestContext: {
      accountId: '123456789012',
      apiId: routed.api.apiId,
      ...v1EventAuthorizer(routed.authorization),
      domainName,
      domainPrefix: domainName.split('.')[0].split(':')[0],
      extendedRequestId: routed.requestId,
      httpMethod: method,
      identity: {
        accessKey: null,
        accountId: null,
        caller: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent: ownGet(headers, 'user-agent') ?? '',
        userArn: null,
        ...v1EventIdentity(routed.authorization),
      },
      path: routed.rawPath,
      protocol: 'HTTP/1.1',
      requestId: routed.requestId,
      requestTime: requestTime(routed.receivedAt),
      requestTimeEpoch: routed.receivedAt,
      resourceId: match.route.routeKey,
      resourcePath: resource,
      stage: routed.stage,
    },
    pathParameters: Object.keys(match.pathParameters).length > 0 ? { ...match.pathParameters } : null,
    stageVariables: stageVariables === undefined ? null : { ...stageVariables },
    body: request.body.length > 0 ? request.body.toString(text ? 'utf8' : 'base64') : null,
    isBase64Encoded: request.body.length > 0 && !text,
  };
}
