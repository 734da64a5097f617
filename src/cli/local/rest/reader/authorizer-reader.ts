/**
 * Reads a REST API's `AWS::ApiGateway::Authorizer`s: Lambda authorizers (`TOKEN`, `REQUEST`) with
 * their function, and Cognito user pool authorizers (`COGNITO_USER_POOLS`) with their pools.
 */
import { localPoolId, parsePoolArn, poolIssuer } from '../../auth/cognito/user-pool';
import { CognitoAuthorizerSpec, CognitoPoolSpec, LambdaAuthorizerSpec } from '../../model/local-app';
import { IntrinsicEnvironment, tryEvaluateString } from '../../template/intrinsics';
import type { StackArtifact } from '../../template/stack-template';
import { integrationFunctionId, referencedId } from '../../template/template-references';

/** An authorizer as its methods see it. */
export interface AuthorizerEntry {
  /** `Name` (the route listing shows it). */
  readonly name: string;
  readonly lambda?: LambdaAuthorizerSpec;
  readonly cognito?: CognitoAuthorizerSpec;
}

/** What reading the authorizers of one API needs from the stack being read. */
export interface AuthorizerScope {
  readonly artifact: StackArtifact;
  readonly resources: Record<string, any>;
  readonly apiId: string;
  readonly environment: IntrinsicEnvironment;
  readonly warnings: string[];
  /** Registers a function of the template to be run locally; returns its key. */
  readonly registerFunction: (logicalId: string) => string;
}

/** The API's authorizers by logical id. */
export function readAuthorizers(scope: AuthorizerScope): Map<string, AuthorizerEntry> {
  const out = new Map<string, AuthorizerEntry>();
  for (const [id, resource] of Object.entries<any>(scope.resources)) {
    const p = resource?.Properties ?? {};
    if (resource?.Type !== 'AWS::ApiGateway::Authorizer' || referencedId(p.RestApiId) !== scope.apiId) {
      continue;
    }
    out.set(id, readAuthorizer(scope, id, p));
  }
  return out;
}

/** One authorizer from `AWS::ApiGateway::Authorizer` Properties (or an OpenAPI document's, in that shape). */
export function readAuthorizer(scope: AuthorizerScope, id: string, p: Record<string, any>): AuthorizerEntry {
  const name = typeof p.Name === 'string' ? p.Name : id;
  const type = String(p.Type ?? '').toUpperCase();
  if (type === 'TOKEN' || type === 'REQUEST') {
    return { name, lambda: readLambdaAuthorizer(scope, id, name, type, p) };
  }
  if (type === 'COGNITO_USER_POOLS') {
    return { name, cognito: readCognitoAuthorizer(scope, id, name, p) };
  }
  return { name };
}

/** `AuthorizerResultTtlInSeconds`: default 300, 0 (or anything unusable) disables caching. */
function ttlOf(value: unknown): number {
  const ttl = Number(value ?? 300);
  return Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
}

function readLambdaAuthorizer(
  scope: AuthorizerScope, id: string, name: string, type: 'TOKEN' | 'REQUEST', p: Record<string, any>,
): LambdaAuthorizerSpec | undefined {
  const fnId = integrationFunctionId(p.AuthorizerUri, scope.resources);
  if (fnId === undefined) {
    scope.warnings.push(`${scope.artifact.stackName}/${id}: Lambda authorizer ${name} does not invoke a Lambda function of this template; its methods answer 500`);
    return undefined;
  }
  return {
    logicalId: id,
    name,
    type,
    functionKey: scope.registerFunction(fnId),
    identitySources: typeof p.IdentitySource === 'string' ? p.IdentitySource.split(',').map((x: string) => x.trim()).filter((x: string) => x !== '') : [],
    validationExpression: type === 'TOKEN' && typeof p.IdentityValidationExpression === 'string' ? p.IdentityValidationExpression : undefined,
    ttlSeconds: ttlOf(p.AuthorizerResultTtlInSeconds),
  };
}

function readCognitoAuthorizer(scope: AuthorizerScope, id: string, name: string, p: Record<string, any>): CognitoAuthorizerSpec {
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
  return { logicalId: id, name, identityHeader: header ? header[1] : 'Authorization', pools, ttlSeconds: ttlOf(p.AuthorizerResultTtlInSeconds) };
}

/** A literal pool ARN, or a pool of the template (`Fn::GetAtt [Pool, Arn]`), which gets a local id. */
function readPool(scope: AuthorizerScope, arn: unknown): CognitoPoolSpec | undefined {
  const text = tryEvaluateString(arn, scope.environment);
  const parsed = text === undefined ? undefined : parsePoolArn(text);
  if (parsed !== undefined) {
    return { ...parsed, issuer: poolIssuer(parsed.region, parsed.poolId), clientIds: clientsOf(scope, parsed.poolId, undefined) };
  }
  const poolLogicalId = referencedId(arn);
  if (poolLogicalId === undefined || scope.resources[poolLogicalId]?.Type !== 'AWS::Cognito::UserPool') {
    return undefined;
  }
  const region = scope.artifact.region;
  const poolId = localPoolId(region, poolLogicalId);
  return { poolId, region, issuer: poolIssuer(region, poolId), clientIds: clientsOf(scope, poolId, poolLogicalId) };
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
