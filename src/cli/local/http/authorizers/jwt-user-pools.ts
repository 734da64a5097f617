/**
 * The user pools of the app that an HTTP API's JWT authorizers name as issuer: `serve` then trusts
 * the local signing key, and `vendor-outputs token` signs for those pools with the authorizers'
 * audiences as app clients. A JWT route of any issuer makes `serve` load its keys (`--jwks` too).
 */
import type { UserPoolUse } from '../../api-kind/api-kind';
import type { HttpApiSpec } from '../../model/http-api';

export function jwtUserPools(api: HttpApiSpec): { readonly uses: boolean; readonly pools: readonly UserPoolUse[] } {
  const jwtRoutes = api.routes.filter((route) => route.authorizationType === 'JWT' && route.authorizer?.type === 'JWT');
  const pools: UserPoolUse[] = [];
  for (const { authorizer } of jwtRoutes) {
    if (authorizer?.pool !== undefined && !pools.some((p) => p.authorizer === authorizer.name && p.poolId === authorizer.pool!.poolId)) {
      pools.push({ ...authorizer.pool, clientIds: authorizer.audiences, authorizer: authorizer.name });
    }
  }
  return { uses: jwtRoutes.length > 0, pools };
}
