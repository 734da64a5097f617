/**
 * Authorization `CUSTOM` by a Lambda authorizer (`Type` `TOKEN` or `REQUEST`): its function runs
 * locally (lambda-authorizer.ts). An authorizer whose function is not in the template answers 500.
 */
import type { AuthorizerKind, AuthorizerResource, AuthorizerScope } from './authorizer-kind';
import { authorizerTtlSeconds } from './authorizer-ttl';
import { authorizeLambda } from './lambda-authorizer';
import { authorizerNotRunnable } from './not-runnable';
import type { LambdaAuthorizerSpec } from '../../model/rest-api';
import { integrationFunctionId } from '../../template/template-references';

export const lambdaAuthorizerKind: AuthorizerKind = {
  authorizationType: 'CUSTOM',
  authorizerTypes: ['TOKEN', 'REQUEST'],
  read: (scope, resource) => ({ name: resource.name, lambda: readLambdaAuthorizer(scope, resource) }),
  describe: (method) => (method.authorizerName !== undefined ? `CUSTOM ${method.authorizerName}` : 'CUSTOM'),
  authorize: (routed) => {
    const lambda = routed.route.method.authorizer;
    return lambda !== undefined ? authorizeLambda(routed, lambda) : authorizerNotRunnable(routed, 'its function is not in the template');
  },
};

function readLambdaAuthorizer(scope: AuthorizerScope, { id, name, type, properties: p }: AuthorizerResource): LambdaAuthorizerSpec | undefined {
  const fnId = integrationFunctionId(p.AuthorizerUri, scope.resources);
  if (fnId === undefined) {
    scope.warnings.push(`${scope.artifact.stackName}/${id}: Lambda authorizer ${name} does not invoke a Lambda function of this template; its methods answer 500`);
    return undefined;
  }
  return {
    logicalId: id,
    name,
    type: type === 'TOKEN' ? 'TOKEN' : 'REQUEST',
    functionKey: scope.registerFunction(fnId),
    identitySources: typeof p.IdentitySource === 'string' ? p.IdentitySource.split(',').map((x: string) => x.trim()).filter((x: string) => x !== '') : [],
    validationExpression: type === 'TOKEN' && typeof p.IdentityValidationExpression === 'string' ? p.IdentityValidationExpression : undefined,
    ttlSeconds: authorizerTtlSeconds(p.AuthorizerResultTtlInSeconds),
  };
}
