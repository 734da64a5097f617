/**
 * What the Cognito authorizer kind reads from a template, and what it warns about (on a stack built with
 * aws-cdk-lib).
 */
import { CfnOutput, Fn } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { restApi } from '../../../../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../../../../src/cli/local/read-local-app';
import { synth } from '../../support';

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
  const spec = restApi(app.apis[0]).root.methods.get('GET')!.cognitoAuthorizer!;
  expect(spec.identityHeader).toBe('Authorization');
  expect(spec.ttlSeconds).toBe(0);
  expect(spec.pools.map((p) => p.poolId)).toEqual([expect.stringMatching(/^us-east-1_Pool[0-9A-F]{8}$/)]);
});

test('a pool of the template keeps its local id when deployed values give its ARN (vendor-outputs token mints for that id)', () => {
  const assembly = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    const pool = new cognito.UserPool(stack, 'Pool');
    api.root.addMethod('GET', new apigw.MockIntegration(), {
      authorizer: new apigw.CognitoUserPoolsAuthorizer(stack, 'Auth', { cognitoUserPools: [pool] }),
    });
    new CfnOutput(stack, 'PoolArn', { value: pool.userPoolArn });
  });
  const local = restApi(readLocalApp(assembly).apis[0]).root.methods.get('GET')!.cognitoAuthorizer!.pools.map((p) => p.poolId);
  const template = readLocalApp(assembly).stacks[0].template;
  const poolId = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::Cognito::UserPool')!;
  const deployed = {
    source: '--from-stack LocalTest',
    stacks: [{
      stackName: 'LocalTest',
      outputs: { PoolArn: 'arn:aws:cognito-idp:eu-west-1:210987654321:userpool/eu-west-1_REAL' },
      physicalIds: { [poolId]: 'eu-west-1_REAL' },
      pseudo: {},
    }],
  };
  const withDeployed = restApi(readLocalApp(assembly, [], deployed).apis[0]).root.methods.get('GET')!.cognitoAuthorizer!.pools.map((p) => p.poolId);
  expect(withDeployed).toEqual(local);
  expect(local).toEqual([expect.stringMatching(/^us-east-1_Pool[0-9A-F]{8}$/)]);
});
