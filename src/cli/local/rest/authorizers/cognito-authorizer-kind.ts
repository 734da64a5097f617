/**
 * Authorization `COGNITO_USER_POOLS` (`Type` `COGNITO_USER_POOLS`): a token of one of the
 * authorizer's user pools (cognito-authorizer.ts). Pools are read from `ProviderARNs`: a literal
 * ARN, or a pool of the template, which gets a local id.
 */
import type { AuthorizerKind, AuthorizerResource, AuthorizerScope } from './authorizer-kind';
import { authorizerTtlSeconds } from './authorizer-ttl';
import { authorizeCognito } from './cognito-authorizer';
import { authorizerNotRunnable } from './not-runnable';
import { localPoolId, parsePoolArn, poolIssuer } from '../../auth/cognito/user-pool';
import type { CognitoAuthorizerSpec, CognitoPoolSpec, MethodSpec } from '../../model/rest-api';
import { tryEvaluateString } from '../../template/intrinsics';
import { referencedId } from '../../template/template-references';

export const cognitoAuthorizerKind: AuthorizerKind = {
  authorizationType: 'COGNITO_USER_POOLS',
  authorizerTypes: ['COGNITO_USER_POOLS'],
  read: (scope, resource) => ({ name: resource.name, cognito: readCognitoAuthorizer(scope, resource) }),
  describe,
  authorize: (routed) => {
    const cognito = routed.route.method.cognitoAuthorizer;
    return cognito !== undefined ? authorizeCognito(routed, cognito) : authorizerNotRunnable(routed, 'it is not in the template');
  },
};

/** `COGNITO_USER_POOLS PoolCheck (pool us-east-1_AbC, scopes items/read)`. */
function describe(method: MethodSpec): string {
  const cognito = method.cognitoAuthorizer;
  const details = [
    cognito !== undefined && cognito.pools.length > 0 ? `pool ${cognito.pools.map((p) => p.poolId).join(', ')}` : '',
    method.authorizationScopes.length > 0 ? `scopes ${method.authorizationScopes.join(' ')}` : '',
  ].filter((x) => x !== '');
  return `COGNITO_USER_POOLS${method.authorizerName !== undefined ? ` ${method.authorizerName}` : ''}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

function readCognitoAuthorizer(scope: AuthorizerScope, { id, name, properties: p }: AuthorizerResource): CognitoAuthorizerSpec {
  const where = `${scope.artifact.stackName}/${id}`;
  const source = typeof p.IdentitySource === 'string' ? p.IdentitySource.trim() : 'method.request.header.Authorization';
  const header = /^method\.request\.header\.([^\s,]+)$/.exec(source);
  if (!header) {
    scope.warnings.push(`${where}: Cognito authorizer ${name}: IdentitySource ${source} is not a request header (method.request.header.NAME); the Authorization header is read instead`);
  }
  const arns: unknown[] = Array.isArray(p.ProviderARNs) ? p.ProviderARNs : [];
  const pools: CognitoPoolSpec[] = [];
  arns.forEach((arn, i) => {
    const pool = readPool(scope, arn);
    if (pool === undefined) {
      scope.warnings.push(`${where}: Cognito authorizer ${name}: ProviderARNs/${i} (${JSON.stringify(arn)}) names no user pool known before deploy; tokens of that pool are refused locally`);
    } else if (!pools.some((known) => known.poolId === pool.poolId)) {
      pools.push(pool);
    }
  });
  return { logicalId: id, name, identityHeader: header ? header[1] : 'Authorization', pools, ttlSeconds: authorizerTtlSeconds(p.AuthorizerResultTtlInSeconds) };
}

/**
 * A pool of the template (`Fn::GetAtt [Pool, Arn]`), which gets a local id whatever its deployed id
 * (`vendor-outputs token` mints tokens for that id), or a pool ARN the template spells out.
 */
function readPool(scope: AuthorizerScope, arn: unknown): CognitoPoolSpec | undefined {
  const poolLogicalId = referencedId(arn);
  if (poolLogicalId !== undefined && scope.resources[poolLogicalId]?.Type === 'AWS::Cognito::UserPool') {
    const region = scope.artifact.region;
    const poolId = localPoolId(region, poolLogicalId);
    return { poolId, region, issuer: poolIssuer(region, poolId), clientIds: clientsOf(scope, poolId, poolLogicalId) };
  }
  const text = tryEvaluateString(arn, scope.environment);
  const parsed = text === undefined ? undefined : parsePoolArn(text);
  if (parsed !== undefined) {
    return { ...parsed, issuer: poolIssuer(parsed.region, parsed.poolId), clientIds: clientsOf(scope, parsed.poolId, undefined) };
  }
  return undefined;
}

/** Logical ids of the template's app clients of a pool (named by its literal id or its logical id). */
function clientsOf(scope: AuthorizerScope, poolId: string, poolLogicalId: string | undefined): string[] {
  const clients: string[] = [];
  for (const [id, resource] of Object.entries<any>(scope.resources)) {
    const owner = resource?.Properties?.UserPoolId;
    if (resource?.Type === 'AWS::Cognito::UserPoolClient' && (owner === poolId || (poolLogicalId !== undefined && referencedId(owner) === poolLogicalId))) {
      clients.push(id);
    }
  }
  return clients;
}
