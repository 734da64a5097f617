/**
 * How the listing names a route's authorization (its checks column): `NONE`, or
 * `JWT <name> (pool us-east-1_Pool, scopes a b)` / `JWT <name> (issuer https://..., scopes a b)`.
 */
import type { HttpRouteSpec } from '../../model/http-api';

export function describeAuthorization(route: HttpRouteSpec): string {
  const { authorizer } = route;
  if (authorizer === undefined) {
    return route.authorizationType;
  }
  const scopes = route.authorizationScopes ?? [];
  const details = [
    authorizer.pool !== undefined ? `pool ${authorizer.pool.poolId}` : `issuer ${authorizer.issuer ?? 'unknown before deploy'}`,
    scopes.length > 0 ? `scopes ${scopes.join(' ')}` : '',
  ].filter((d) => d !== '');
  return `${route.authorizationType} ${authorizer.name} (${details.join(', ')})`;
}
