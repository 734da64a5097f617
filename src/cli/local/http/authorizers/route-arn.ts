/**
 * The ARN of the route a request takes, as a Lambda authorizer gets it (`routeArn`, payload 1.0
 * `methodArn`) and an IAM policy names it: `arn:aws:execute-api:{region}:{account}:{api id}/{stage}/{METHOD}/{path}`.
 */
import type { RoutedHttpRequest } from '../routed-request';

export function routeArnOf(routed: RoutedHttpRequest): string {
  const { api } = routed;
  const path = routed.pathBelowStage.replace(/^\//, '');
  return `arn:aws:execute-api:${api.region}:123456789012:${api.apiId}/${routed.stage}/${routed.request.method.toUpperCase()}/${path}`;
}
