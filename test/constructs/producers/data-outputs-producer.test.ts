import { Stack } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DataAuthorizationType, DataOutputsProducer, ModelIntrospection, VendorOutputs } from '../../../src';
import { newStack, synthOutputs } from '../support';

const PENDING = expect.stringMatching(/^<pending: /);
const EMPTY_INTROSPECTION = { version: 1, models: {}, enums: {}, nonModels: {} };
const SCHEMA = appsync.Definition.fromSchema(appsync.SchemaFile.fromAsset(`${__dirname}/../../../examples/backend/schema.graphql`));

function api(stack: Stack, defaultMode: appsync.AuthorizationMode, additional: appsync.AuthorizationMode[] = []): appsync.GraphqlApi {
  return new appsync.GraphqlApi(stack, 'Api', {
    name: 'items',
    definition: SCHEMA,
    authorizationConfig: { defaultAuthorization: defaultMode, additionalAuthorizationModes: additional },
  });
}

describe('DataOutputsProducer', () => {
  test('API key default with user pool and IAM modes: url, region, types in order, api key', () => {
    const { app, stack } = newStack();
    const userPool = new cognito.UserPool(stack, 'UserPool');
    const graphql = api(stack, { authorizationType: appsync.AuthorizationType.API_KEY }, [
      { authorizationType: appsync.AuthorizationType.USER_POOL, userPoolConfig: { userPool } },
      { authorizationType: appsync.AuthorizationType.IAM },
    ]);
    const producer = new DataOutputsProducer(stack, 'Data', { api: graphql, modelIntrospection: ModelIntrospection.fromDocument(EMPTY_INTROSPECTION) });
    expect(producer.outputs.defaultAuthorizationType).toBe(DataAuthorizationType.API_KEY);
    expect(stack.resolve(producer.outputs.url)).toEqual(stack.resolve(graphql.graphqlUrl));
    expect(stack.resolve(producer.outputs.apiKey)).toEqual(stack.resolve(graphql.apiKey));
    expect(synthOutputs(app, stack).data).toEqual({
      vendor_region: 'eu-west-1',
      url: PENDING,
      model_introspection: EMPTY_INTROSPECTION,
      api_key: PENDING,
      default_authorization_type: 'API_KEY',
      authorization_types: ['API_KEY', 'VENDOR_USER_POOLS', 'VENDOR_IAM'],
    });
  });

  test('IAM default with OIDC and Lambda: no api key', () => {
    const { app, stack } = newStack();
    const fn = new lambda.Function(stack, 'Authorizer', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ isAuthorized: true })'),
    });
    const graphql = api(stack, { authorizationType: appsync.AuthorizationType.IAM }, [
      { authorizationType: appsync.AuthorizationType.OIDC, openIdConnectConfig: { oidcProvider: 'https://issuer.example.com' } },
      { authorizationType: appsync.AuthorizationType.LAMBDA, lambdaAuthorizerConfig: { handler: fn } },
    ]);
    new DataOutputsProducer(stack, 'Data', { api: graphql });
    expect(synthOutputs(app, stack).data).toEqual({
      vendor_region: 'eu-west-1',
      url: PENDING,
      default_authorization_type: 'VENDOR_IAM',
      authorization_types: ['VENDOR_IAM', 'OPENID_CONNECT', 'VENDOR_LAMBDA'],
    });
  });

  test('owns data: addOutput into data is refused, and a second producer too', () => {
    const { stack } = newStack();
    const graphql = api(stack, { authorizationType: appsync.AuthorizationType.IAM });
    new DataOutputsProducer(stack, 'Data', { api: graphql });
    expect(() => VendorOutputs.of(stack).addOutput({ data: { vendorRegion: 'x', url: 'https://x', defaultAuthorizationType: DataAuthorizationType.API_KEY, authorizationTypes: [] } }))
      .toThrow(/section 'data' is generated from Backend\/Data and managed by cdk-vendor-outputs/);
    expect(() => new DataOutputsProducer(stack, 'Data2', { api: graphql })).toThrow("Section 'data' is already produced by Backend/Data");
  });

  test('a producer after an addOutput into data is refused', () => {
    const { stack } = newStack();
    const graphql = api(stack, { authorizationType: appsync.AuthorizationType.IAM });
    VendorOutputs.of(stack).addOutput({ data: { vendorRegion: 'eu-west-1', url: 'https://x', defaultAuthorizationType: DataAuthorizationType.API_KEY, authorizationTypes: [DataAuthorizationType.API_KEY] } });
    expect(() => new DataOutputsProducer(stack, 'Data', { api: graphql }))
      .toThrow("Backend/Data cannot produce section 'data': Backend already wrote into it.");
  });
});
