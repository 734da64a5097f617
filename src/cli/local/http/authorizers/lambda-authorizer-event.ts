/**
 * The event of a Lambda authorizer of an HTTP API ("Working with AWS Lambda authorizers for HTTP
 * APIs"): payload 2.0 is the integration's 2.0 event without the body, with `type: "REQUEST"`,
 * `routeArn` and `identitySource` (a list); payload 1.0 is the 1.0 event without the body, with
 * `type`, `methodArn`, and `identitySource` and `authorizationToken` (the values joined by commas).
 */
import { routeArnOf } from './route-arn';
import type { HttpLambdaAuthorizerSpec } from '../../model/http-authorizer';
import { payloadV1Event } from '../payload-v1-event';
import { payloadV2Event } from '../payload-v2-event';
import type { RoutedHttpRequest } from '../routed-request';

export function lambdaAuthorizerEvent(
  routed: RoutedHttpRequest, authorizer: HttpLambdaAuthorizerSpec, identity: readonly string[],
): Record<string, unknown> {
  const routeArn = routeArnOf(routed);
  if (authorizer.payloadFormatVersion === '2.0') {
    const { body: _body, isBase64Encoded: _base64, version, ...request } = payloadV2Event(routed);
    return { version, type: 'REQUEST', routeArn, identitySource: [...identity], ...request };
  }
  const { body: _body, isBase64Encoded: _base64, version, ...request } = payloadV1Event(routed);
  const joined = identity.join(',');
  return { version, type: 'REQUEST', methodArn: routeArn, identitySource: joined, authorizationToken: joined, ...request };
}
