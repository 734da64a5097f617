/**
 * The payload format 2.0 event of an HTTP API's Lambda proxy integration ("Create AWS Lambda proxy
 * integrations for HTTP APIs"): header names lower-cased, repeated headers and query parameters
 * joined with commas, the `Cookie` headers as `cookies`, the request context with `http`; fields
 * with nothing to say left out.
 */
import { v2EventAuthorizer } from './authorizers/event-authorizer';
import { payloadV2Headers, payloadV2Query } from './payload-v2-parts';
import { domainNameOf, isTextBody, RoutedHttpRequest, stageVariablesOf } from './routed-request';
import { requestTime } from '../common/dates';
import { ownGet } from '../common/own-record';

export function payloadV2Event(routed: RoutedHttpRequest): Record<string, unknown> {
  const { request, match } = routed;
  const { headers, cookies } = payloadV2Headers(request, routed.traceId, true);
  const query = payloadV2Query(routed.rawQueryString);
  const stageVariables = stageVariablesOf(routed);
  const domainName = domainNameOf(routed);
  const text = isTextBody(ownGet(headers, 'content-type'));
  return {
    version: '2.0',
    routeKey: match.route.routeKey,
    rawPath: routed.rawPath,
    rawQueryString: routed.rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(query !== undefined ? { queryStringParameters: query } : {}),
    ...(Object.keys(match.pathParameters).length > 0 ? { pathParameters: { ...match.pathParameters } } : {}),
    ...(stageVariables !== undefined ? { stageVariables: { ...stageVariables } } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: routed.api.apiId,
      ...v2EventAuthorizer(routed.authorization),
      domainName,
      domainPrefix: domainName.split('.')[0].split(':')[0],
      http: {
        method: request.method.toUpperCase(),
        path: routed.rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: ownGet(headers, 'user-agent') ?? '',
      },
      requestId: routed.requestId,
      routeKey: match.route.routeKey,
      stage: routed.stage,
      time: requestTime(routed.receivedAt),
      timeEpoch: routed.receivedAt,
    },
    ...(request.body.length > 0 ? { body: request.body.toString(text ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: request.body.length > 0 && !text,
  };
}
