/**
 * User pool ARNs and ids: the region a pool id starts with, the local id of a template pool, the issuer.
 */
import { localPoolId, parsePoolArn, poolIdRegion, poolIssuer } from '../../../../../src/cli/local/auth/cognito/user-pool';

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
