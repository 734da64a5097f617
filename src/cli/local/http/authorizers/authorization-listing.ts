/**
 * How the listing names a route's authorization (its checks column): `NONE`, or
 * `JWT <name> (pool us-east-1_Pool, scopes a b)` / `JWT <name> (issuer https://..., scopes a b)`,
 * `CUSTOM <name> (payload 2.0, simple responses, cached 300 s)`.
 */
import type { HttpRouteSpec } from '../../model/http-api';

export function describeAuthorization(route: HttpRouteSpec): string {
  const { authorizer } = route;
  if (authorizer === undefined) {
    return route.authorizationType;
  }
  if (authorizer.type === 'REQUEST') {
    const details = [
      `payload ${authorizer.payloadFormatVersion}`,
      authorizer.simpleResponses ? 'simple responses' : 'IAM policy responses',
      authorizer.ttlSeconds > 0 ? `cached ${authorizer.ttlSeconds} s` : 'not cached',
    ];
    return `${route.authorizationType} ${authorizer.name} (${details.join(', ')})`;
  }
  const scopes = route.authorizationScopes ?? [];
  const details = [
    authorizer.pool !== undefined ? `pool ${authorizer.pool.poolId}` : `issuer ${authorizer.issuer ?? 'unknown before deploy'}`,
    scopes.length > 0 ? `scopes ${scopes.join(' ')}` : '',
  ].filter((d) => d !== '');
  return `${route.authorizationType} ${authorizer.name} (${details.join(', ')})`;
}
