/**
 * The authorizer a route names (`AuthorizerId`, a `Ref` to an `AWS::ApiGatewayV2::Authorizer` of the
 * template). JWT authorizers: the issuer and audiences as known before deploy. An issuer that names a
 * user pool of the app (`HttpUserPoolAuthorizer` joins `https://cognito-idp.<region>.amazonaws.com/`
 * and the pool's `Ref`) becomes the issuer of that pool's local id, which `vendor-outputs token`
 * signs for; an audience that is an app client of the template becomes its logical id, the client
 * id `vendor-outputs token` puts in its tokens. Lambda (`REQUEST`) authorizers: the function of
 * `AuthorizerUri`, the payload version, simple responses, identity sources and the cache TTL.
 */
import { localPoolId, poolIssuer } from '../../auth/cognito/user-pool';
import type { HttpAuthorizerSpec, HttpJwtAuthorizerSpec, HttpLambdaAuthorizerSpec } from '../../model/http-authorizer';
import { tryEvaluateString } from '../../template/intrinsics';
import type { StackTemplate } from '../../template/stack-template';
import { integrationFunctionId, referencedId } from '../../template/template-references';

/** The route's authorizer; undefined (with a warning) when it names none of the template or one of a type not read. */
export function readRouteAuthorizer(stack: StackTemplate, routeId: string, authorizerId: unknown): HttpAuthorizerSpec | undefined {
  const id = referencedId(authorizerId);
  const resource = id === undefined ? undefined : stack.resources[id];
  if (id === undefined || resource?.Type !== 'AWS::ApiGatewayV2::Authorizer') {
    stack.warnings.push(`${stack.artifact.stackName}/${routeId}: the route's AuthorizerId names no authorizer of this template; its requests answer 500`);
    return undefined;
  }
  const props = resource.Properties ?? {};
  const type = String(props.AuthorizerType ?? '').toUpperCase();
  if (type === 'JWT') {
    return readJwtAuthorizer(stack, id, props);
  }
  if (type === 'REQUEST') {
    return readLambdaAuthorizer(stack, id, props);
  }
  return undefined;
}

export function readLambdaAuthorizer(stack: StackTemplate, logicalId: string, props: any): HttpLambdaAuthorizerSpec {
  const fnId = integrationFunctionId(props.AuthorizerUri, stack.resources);
  const name = typeof props.Name === 'string' ? props.Name : logicalId;
  if (fnId === undefined) {
    stack.warnings.push(`${stack.artifact.stackName}/${logicalId}: Lambda authorizer ${name}: AuthorizerUri names no function of this template; its routes answer 500`);
  }
  const ttl = Number(props.AuthorizerResultTtlInSeconds ?? 0);
  return {
    type: 'REQUEST',
    logicalId,
    name,
    ...(fnId !== undefined ? { functionKey: stack.registerFunction(fnId) } : {}),
    payloadFormatVersion: String(props.AuthorizerPayloadFormatVersion) === '1.0' ? '1.0' : '2.0',
    simpleResponses: props.EnableSimpleResponses === true || props.EnableSimpleResponses === 'true',
    identitySource: identitySources(props.IdentitySource),
    ttlSeconds: Number.isFinite(ttl) && ttl > 0 ? ttl : 0,
  };
}

export function readJwtAuthorizer(stack: StackTemplate, logicalId: string, props: any): HttpJwtAuthorizerSpec {
  const jwt = props.JwtConfiguration ?? {};
  const pool = poolOfIssuer(stack, jwt.Issuer);
  const issuer = pool !== undefined ? poolIssuer(pool.region, pool.poolId) : tryEvaluateString(jwt.Issuer, stack.environment);
  const name = typeof props.Name === 'string' ? props.Name : logicalId;
  if (issuer === undefined) {
    stack.warnings.push(`${stack.artifact.stackName}/${logicalId}: JWT authorizer ${name}: the issuer is not known before deploy; every token is refused locally`);
  }
  const audiences: unknown[] = Array.isArray(jwt.Audience) ? jwt.Audience : [];
  return {
    type: 'JWT',
    logicalId,
    name,
    identitySource: identitySources(props.IdentitySource),
    ...(issuer !== undefined ? { issuer } : {}),
    audiences: audiences.map((a) => audienceOf(stack, a)).filter((a): a is string => a !== undefined),
    ...(pool !== undefined ? { pool } : {}),
  };
}

/** `IdentitySource`: a list, or one comma-separated string. */
export function identitySources(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list.filter((s): s is string => typeof s === 'string').map((s) => s.trim()).filter((s) => s !== '');
}

/** The user pool of the template a `Ref` inside the issuer names, with its local id. */
function poolOfIssuer(stack: StackTemplate, issuer: unknown): { poolId: string; region: string } | undefined {
  const poolLogicalId = refsIn(issuer).find((id) => stack.resources[id]?.Type === 'AWS::Cognito::UserPool');
  if (poolLogicalId === undefined) {
    return undefined;
  }
  const region = stack.artifact.region;
  return { poolId: localPoolId(region, poolLogicalId), region };
}

function audienceOf(stack: StackTemplate, audience: unknown): string | undefined {
  const id = referencedId(audience);
  if (id !== undefined && stack.resources[id]?.Type === 'AWS::Cognito::UserPoolClient') {
    return id;
  }
  return tryEvaluateString(audience, stack.environment);
}

/** Every logical id a `Ref` in the expression names. */
function refsIn(expression: unknown): string[] {
  if (Array.isArray(expression)) {
    return expression.flatMap(refsIn);
  }
  if (expression === null || typeof expression !== 'object') {
    return [];
  }
  const ref = (expression as Record<string, unknown>).Ref;
  return typeof ref === 'string' ? [ref] : Object.values(expression).flatMap(refsIn);
}
