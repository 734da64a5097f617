/**
 * The user pools of the app that an HTTP API's JWT authorizers name as issuer: `serve` then trusts
 * the local signing key, and `vendor-outputs token` signs for those pools with the authorizers'
 * audiences as app clients. A JWT route of any issuer makes `serve` load its keys (`--jwks` too).
 */
import type { UserPoolUse } from '../../api-kind/api-kind';
import type { HttpApiSpec } from '../../model/http-api';
import type { HttpJwtAuthorizerSpec } from '../../model/http-authorizer';

export function jwtUserPools(api: HttpApiSpec): { readonly uses: boolean; readonly pools: readonly UserPoolUse[] } {
  const authorizers = api.routes.filter((route) => route.authorizationType === 'JWT')
    .map((route) => route.authorizer)
    .filter((authorizer): authorizer is HttpJwtAuthorizerSpec => authorizer?.type === 'JWT');
  const pools: UserPoolUse[] = [];
  for (const { pool, name, audiences } of authorizers) {
    if (pool !== undefined && !pools.some((p) => p.authorizer === name && p.poolId === pool.poolId)) {
      pools.push({ ...pool, clientIds: audiences, authorizer: name });
    }
  }
  return { uses: authorizers.length > 0, pools };
}
