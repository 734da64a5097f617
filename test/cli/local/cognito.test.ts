/**
 * The pieces of the Cognito authorizer emulation on their own: pool ARNs and ids, claims as the
 * gateway passes them, the `sub` of a user, and what the template reader warns about.
 */
import { Fn } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { synth } from './support';
import { gatewayClaims, javaDate } from '../../../src/cli/local/auth/cognito/gateway-claims';
import { userSub } from '../../../src/cli/local/auth/cognito/mint-token';
import { localPoolId, parsePoolArn, poolIdRegion, poolIssuer } from '../../../src/cli/local/auth/cognito/user-pool';
import { readLocalApp } from '../../../src/cli/local/read-local-app';

test.each([
  ['arn:aws:cognito-idp:eu-west-1:111122223333:userpool/eu-west-1_AbC123', { region: 'eu-west-1', poolId: 'eu-west-1_AbC123' }],
  ['arn:aws-us-gov:cognito-idp:us-gov-west-1:111122223333:userpool/us-gov-west-1_X1', { region: 'us-gov-west-1', poolId: 'us-gov-west-1_X1' }],
  ['arn:aws:cognito-idp:eu-west-1:111122223333:userpool/us-east-1_AbC123', undefined],
  ['arn:aws:cognito-identity:eu-west-1:111122223333:identitypool/eu-west-1:abc', undefined],
  ['arn:aws:cognito-idp:eu-west-1:1111:userpool/eu-west-1_AbC123', undefined],
  ['us-east-1_AbC123', undefined],
])('parsePoolArn(%s)', (arn, expected) => {
  expect(parsePoolArn(arn)).toEqual(expected);
});

test('pool ids: the region they start with, the local id of a template pool, the issuer', () => {
  expect(poolIdRegion('ap-southeast-2_Zz9')).toBe('ap-southeast-2');
  expect(poolIdRegion('us-east-1_')).toBeUndefined();
  expect(poolIdRegion('pool_abc')).toBeUndefined();
  expect(localPoolId('us-east-1', 'UserPool6BA7E5F2')).toBe('us-east-1_UserPool6BA7E5F2');
  expect(poolIdRegion(localPoolId('eu-central-1', 'My-Pool_1'))).toBe('eu-central-1');
  expect(poolIssuer('us-east-1', 'us-east-1_Abc')).toBe('https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Abc');
});

test('claims become strings as the gateway passes them: dates for exp and iat, digits, comma-joined lists, JSON objects', () => {
  const claims = gatewayClaims(JSON.parse('{"exp":1680633579,"iat":1680629979,"auth_time":1680629979,"cognito:groups":["team_manager","ops"],"email_verified":true,"address":{"country":"PT"},"nothing":null,"__proto__":"x"}'));
  // Entries, not an object literal: `__proto__` in a literal would set the prototype.
  expect(Object.entries(claims)).toEqual([
    ['exp', 'Tue Apr 04 18:39:39 UTC 2023'],
    ['iat', 'Tue Apr 04 17:39:39 UTC 2023'],
    ['auth_time', '1680629979'],
    ['cognito:groups', 'team_manager,ops'],
    ['email_verified', 'true'],
    ['address', '{"country":"PT"}'],
    ['nothing', 'null'],
    ['__proto__', 'x'],
  ]);
  expect(Object.getPrototypeOf(claims)).toBeNull();
  expect(javaDate(Date.UTC(2026, 0, 5, 3, 4, 5))).toBe('Mon Jan 05 03:04:05 UTC 2026');
});

test('a user\'s sub is a version-4-shaped UUID, the same for the same pool and name, different otherwise', () => {
  const sub = userSub('us-east-1_A', 'ana');
  expect(sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(userSub('us-east-1_A', 'ana')).toBe(sub);
  expect(userSub('us-east-1_B', 'ana')).not.toBe(sub);
  expect(userSub('us-east-1_A', 'bo')).not.toBe(sub);
});

test('the reader warns about a pool it cannot know before deploy and an identity source that is not a header', () => {
  const assembly = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    const pool = new cognito.UserPool(stack, 'Pool');
    const authorizer = new apigw.CfnAuthorizer(stack, 'Imported', {
      restApiId: api.restApiId,
      name: 'ImportedPools',
      type: 'COGNITO_USER_POOLS',
      identitySource: 'method.request.querystring.token',
      providerArns: [Fn.importValue('OtherStackPoolArn'), pool.userPoolArn],
      authorizerResultTtlInSeconds: 0,
    });
    api.root.addMethod('GET', new apigw.MockIntegration(), {
      authorizer: { authorizerId: authorizer.ref, authorizationType: apigw.AuthorizationType.COGNITO },
    });
  });
  const app = readLocalApp(assembly);
  expect(app.warnings).toEqual(expect.arrayContaining([
    'LocalTest/Imported: Cognito authorizer ImportedPools: IdentitySource method.request.querystring.token is not a request header (method.request.header.NAME); the Authorization header is read instead',
    'LocalTest/Imported: Cognito authorizer ImportedPools: ProviderARNs/0 ({"Fn::ImportValue":"OtherStackPoolArn"}) names no user pool known before deploy; tokens of that pool are refused locally',
  ]));
  const spec = app.apis[0].root.methods.get('GET')!.cognitoAuthorizer!;
  expect(spec.identityHeader).toBe('Authorization');
  expect(spec.ttlSeconds).toBe(0);
  expect(spec.pools.map((p) => p.poolId)).toEqual([expect.stringMatching(/^us-east-1_Pool[0-9A-F]{8}$/)]);
});
