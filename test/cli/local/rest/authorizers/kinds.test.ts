/**
 * The list of authorizer kinds is what the authorizer reader, the authorize step and the route
 * listing ask: each kind reads its authorizer types, describes a method's authorization (the
 * listing's words, kept word for word), and no two kinds claim a type.
 */
import type { RestApiSpec, MethodSpec, ResourceNode } from '../../../../../src/cli/local/model/rest-api';
import type { AuthorizerScope } from '../../../../../src/cli/local/rest/authorizers/authorizer-kind';
import { AUTHORIZER_KINDS, authorizerKind, authorizerKindReading } from '../../../../../src/cli/local/rest/authorizers/kinds';
import { readAuthorizer } from '../../../../../src/cli/local/rest/reader/authorizer-reader';
import { routeRows } from '../../../../../src/cli/local/rest/route-listing';
import { pseudoParameters } from '../../../../../src/cli/local/template/intrinsics';

function scope(): AuthorizerScope {
  return {
    artifact: { stackName: 'Stack', region: 'eu-west-1' } as AuthorizerScope['artifact'],
    resources: {
      Fn: { Type: 'AWS::Lambda::Function' },
      Pool: { Type: 'AWS::Cognito::UserPool' },
      Client: { Type: 'AWS::Cognito::UserPoolClient', Properties: { UserPoolId: { Ref: 'Pool' } } },
    },
    apiId: 'Api',
    environment: { pseudo: pseudoParameters('eu-west-1', 'Stack'), ref: () => undefined, getAtt: () => undefined },
    warnings: [],
    registerFunction: (id) => `Stack/${id}`,
  };
}

const LAMBDA_URI = { 'Fn::Join': ['', ['arn:aws:apigateway:eu-west-1:lambda:path/2015-03-31/functions/', { 'Fn::GetAtt': ['Fn', 'Arn'] }, '/invocations']] };

test('no two kinds claim an authorization type or an authorizer type; each finds its kind', () => {
  const authorizationTypes = AUTHORIZER_KINDS.map((kind) => kind.authorizationType);
  const authorizerTypes = AUTHORIZER_KINDS.flatMap((kind) => kind.authorizerTypes);
  expect(new Set(authorizationTypes).size).toBe(authorizationTypes.length);
  expect(new Set(authorizerTypes).size).toBe(authorizerTypes.length);
  for (const kind of AUTHORIZER_KINDS) {
    expect(authorizerKind(kind.authorizationType)).toBe(kind);
    for (const type of kind.authorizerTypes) {
      expect(authorizerKindReading(type)).toBe(kind);
      expect(typeof kind.read).toBe('function');
    }
  }
  expect(authorizationTypes.sort()).toEqual(['AWS_IAM', 'COGNITO_USER_POOLS', 'CUSTOM', 'NONE']);
  // An authorization type no kind checks lets requests through, as NONE does, and is listed as the template names it.
  expect(authorizerKind('SOMETHING')).toBe(authorizerKind('NONE'));
  expect(authorizerKindReading('SOMETHING')).toBeUndefined();
});

test('the reader asks the kind of the authorizer type', () => {
  const s = scope();
  expect(readAuthorizer(s, 'Token', { Type: 'TOKEN', Name: 'TokenCheck', AuthorizerUri: LAMBDA_URI, IdentitySource: 'method.request.header.Authorization' })).toEqual({
    name: 'TokenCheck',
    lambda: { logicalId: 'Token', name: 'TokenCheck', type: 'TOKEN', functionKey: 'Stack/Fn', identitySources: ['method.request.header.Authorization'], validationExpression: undefined, ttlSeconds: 300 },
  });
  expect(readAuthorizer(s, 'Req', { Type: 'request', AuthorizerUri: LAMBDA_URI, AuthorizerResultTtlInSeconds: 0 }).lambda).toMatchObject({ name: 'Req', type: 'REQUEST', identitySources: [], ttlSeconds: 0 });
  expect(readAuthorizer(s, 'Users', { Type: 'COGNITO_USER_POOLS', ProviderARNs: [{ 'Fn::GetAtt': ['Pool', 'Arn'] }] }).cognito).toMatchObject({
    name: 'Users', identityHeader: 'Authorization', pools: [{ poolId: 'eu-west-1_Pool', clientIds: ['Client'] }],
  });
  expect(readAuthorizer(s, 'Other', { Type: 'SOMETHING' })).toEqual({ name: 'Other' });
  expect(s.warnings).toEqual([]);
});

test('the route listing shows what the kind of each method says', () => {
  const method = (authorizationType: string, extra: Partial<MethodSpec> = {}): MethodSpec => ({
    logicalId: authorizationType,
    httpMethod: 'GET',
    authorizationType,
    authorizationScopes: [],
    apiKeyRequired: false,
    integration: { type: 'UNSUPPORTED', description: 'test' },
    ...extra,
  });
  const cases: Array<[MethodSpec, string]> = [
    [method('NONE'), 'NONE'],
    [method('AWS_IAM'), 'AWS_IAM'],
    [method('CUSTOM', { authorizerName: 'TokenCheck' }), 'CUSTOM TokenCheck'],
    [method('CUSTOM'), 'CUSTOM'],
    [method('COGNITO_USER_POOLS', {
      authorizerName: 'PoolCheck',
      authorizationScopes: ['items/read'],
      cognitoAuthorizer: { logicalId: 'P', name: 'PoolCheck', identityHeader: 'Authorization', ttlSeconds: 300, pools: [{ poolId: 'us-east-1_Abc', region: 'us-east-1', issuer: 'x', clientIds: [] }] },
    }), 'COGNITO_USER_POOLS PoolCheck (pool us-east-1_Abc, scopes items/read)'],
    [method('COGNITO_USER_POOLS'), 'COGNITO_USER_POOLS'],
    [method('SOMETHING'), 'SOMETHING'],
  ];
  for (const [spec, expected] of cases) {
    expect(authorizerKind(spec.authorizationType).describe(spec)).toBe(expected);
    const root: ResourceNode = { path: '/', pathPart: '', kind: 'root', resourceId: 'root', literalChildren: new Map(), methods: new Map([['GET', spec]]) };
    const api = { logicalId: 'Api', apiId: 'Api', name: 'Api', stackName: 'Stack', region: 'eu-west-1', stages: ['prod'], stageVariables: {}, root, binaryMediaTypes: [], gatewayResponses: [] } as RestApiSpec;
    expect(routeRows(api, 'prod', 'http://127.0.0.1:3000/prod/', (key) => key, {})[0].checks[0]).toBe(expected);
  }
});
