/**
 * The user pools an app's authorizers trust, as each API kind reports them (the REST kind: its
 * Cognito authorizers), merged per pool.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { synth } from './support';
import { appPools, hasCognitoMethods } from '../../../src/cli/local/app-user-pools';
import { readLocalApp } from '../../../src/cli/local/read-local-app';

test('every pool of every Cognito authorizer, once, with its clients and the authorizers that trust it', () => {
  const assembly = synth((stack) => {
    const shared = new cognito.UserPool(stack, 'Shared');
    shared.addClient('Web');
    const other = new cognito.UserPool(stack, 'Other');
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    api.root.addMethod('GET', new apigw.MockIntegration(), {
      authorizer: new apigw.CognitoUserPoolsAuthorizer(stack, 'Users', { cognitoUserPools: [shared], authorizerName: 'Users' }),
    });
    api.root.addResource('admin').addMethod('GET', new apigw.MockIntegration(), {
      authorizer: new apigw.CognitoUserPoolsAuthorizer(stack, 'Admins', { cognitoUserPools: [shared, other], authorizerName: 'Admins' }),
    });
    api.root.addResource('open').addMethod('GET', new apigw.MockIntegration());
  }, { stackName: 'Pools', env: { region: 'eu-west-1', account: '111122223333' } });
  const app = readLocalApp(assembly);
  expect(hasCognitoMethods(app)).toBe(true);
  const pools = appPools(app);
  expect(pools).toHaveLength(2);
  const shared = pools.find((p) => p.poolId.endsWith('Shared') || p.poolId.includes('Shared'))!;
  expect(shared).toMatchObject({ region: 'eu-west-1', authorizers: ['Users', 'Admins'] });
  expect(shared.clientIds).toHaveLength(1);
  const other = pools.find((p) => p !== shared)!;
  expect(other).toMatchObject({ clientIds: [], authorizers: ['Admins'] });
});

test('an app without a Cognito-authorized route has no pool and needs no token check', () => {
  const assembly = synth((stack) => {
    new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } }).root.addMethod('GET', new apigw.MockIntegration());
  }, { stackName: 'NoPools' });
  const app = readLocalApp(assembly);
  expect(hasCognitoMethods(app)).toBe(false);
  expect(appPools(app)).toEqual([]);
});
