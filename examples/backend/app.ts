/**
 * Example backend: one stack in eu-west-1 composing every construct of cdk-vendor-outputs.
 *
 *   node scripts/synth-example.js        # writes examples/backend/cdk.out/<stack>.vendor_outputs.json
 *
 * Tests and benchmarks build it in-process with `buildExampleApp(outdir)`.
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { IdentityPool, UserPoolAuthenticationProvider } from 'aws-cdk-lib/aws-cognito-identitypool';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { addExampleNagSuppressions } from './nag-suppressions';
import {
  AuthOutputsProducer, DataOutputsProducer, GeoResources, Notifications, RestItemsApi, StorageOutputsProducer,
} from '../../src';

/** Name of the example stack (and of its artifact in the cloud assembly). */
export const EXAMPLE_STACK_NAME = 'VendorOutputsExample';

/** The example's resources, for tests that look at them. */
export interface ExampleBackend {
  readonly app: App;
  readonly stack: Stack;
  readonly api: RestItemsApi;
}

/** Builds the example app; `outdir` is where `app.synth()` writes the cloud assembly. */
export function buildExampleApp(outdir?: string): ExampleBackend {
  const app = new App(outdir !== undefined ? { outdir } : {});
  const stack = new Stack(app, EXAMPLE_STACK_NAME, {
    env: { region: 'eu-west-1' },
    description: 'cdk-vendor-outputs example backend: auth, data, storage, geo, notifications and a REST API',
  });

  // auth: user pool + client + hosted UI domain + identity pool (guests allowed)
  const userPool = new cognito.UserPool(stack, 'UserPool', {
    selfSignUpEnabled: true,
    signInAliases: { email: true },
    autoVerify: { email: true },
    standardAttributes: { email: { required: true, mutable: true } },
    passwordPolicy: { minLength: 10, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: true },
    mfa: cognito.Mfa.OPTIONAL,
    mfaSecondFactor: { sms: false, otp: true },
    accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const userPoolClient = userPool.addClient('WebClient', {
    oAuth: {
      flows: { authorizationCodeGrant: true },
      scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
      callbackUrls: ['http://localhost:5173/'],
      logoutUrls: ['http://localhost:5173/signed-out'],
    },
  });
  const domain = userPool.addDomain('HostedUi', { cognitoDomain: { domainPrefix: 'vendor-outputs-example' } });
  const identityPool = new IdentityPool(stack, 'IdentityPool', {
    allowUnauthenticatedIdentities: true,
    authenticationProviders: { userPools: [new UserPoolAuthenticationProvider({ userPool, userPoolClient })] },
  });
  new AuthOutputsProducer(stack, 'Auth', { userPool, userPoolClient, identityPool, domain });

  // data: an AppSync API with an API key by default, user pools and IAM as well
  const graphql = new appsync.GraphqlApi(stack, 'DataApi', {
    name: 'vendor-outputs-example',
    definition: appsync.Definition.fromSchema(appsync.SchemaFile.fromAsset(path.join(__dirname, 'schema.graphql'))),
    authorizationConfig: {
      defaultAuthorization: { authorizationType: appsync.AuthorizationType.API_KEY },
      additionalAuthorizationModes: [
        { authorizationType: appsync.AuthorizationType.USER_POOL, userPoolConfig: { userPool } },
        { authorizationType: appsync.AuthorizationType.IAM },
      ],
    },
    logConfig: { fieldLogLevel: appsync.FieldLogLevel.ERROR, retention: logs.RetentionDays.ONE_MONTH },
    xrayEnabled: true,
  });
  new DataOutputsProducer(stack, 'Data', { api: graphql });

  // storage: a bucket this backend owns
  const bucket = new s3.Bucket(stack, 'Files', {
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: false,
    cors: [{ allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.PUT], allowedOrigins: ['http://localhost:5173'], allowedHeaders: ['*'], maxAge: Duration.hours(1).toSeconds() }],
  });
  bucket.grantReadWrite(identityPool.authenticatedRole, 'public/*');
  new StorageOutputsProducer(stack, 'Storage', { bucket });

  // geo: a map, a place index and a geofence collection
  const geo = new GeoResources(stack, 'Geo', {
    maps: [{ name: 'example-streets', style: 'VectorEsriStreets' }],
    searchIndices: [{ name: 'example-places' }],
    geofenceCollections: [{ name: 'example-zones' }],
  });
  geo.grantMapRendering(identityPool.authenticatedRole);
  geo.grantMapRendering(identityPool.unauthenticatedRole);
  geo.grantSearch(identityPool.authenticatedRole);
  geo.grantGeofenceRead(identityPool.authenticatedRole);

  // notifications (+ analytics.vendor_messaging): in-app messaging and SMS
  new Notifications(stack, 'Notifications', { appName: 'vendor-outputs-example', inAppMessaging: true, sms: {} });

  // custom: a REST API with guest access (the terminal tests of the spec), stage 'dev'
  const api = new RestItemsApi(stack, 'ItemsApi', { apiName: 'itemsApi', stageName: 'dev' });
  // The example's own function (handlers/hello.js), on the same API: the sandbox's edit-and-see loop.
  const hello = new lambda.Function(stack, 'Hello', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'hello.handler',
    code: lambda.Code.fromAsset(path.join(__dirname, 'handlers')),
  });
  const helloMethod = api.api.root.addResource('hello').addMethod('GET', new apigw.LambdaIntegration(hello));

  addExampleNagSuppressions({ stack, userPool, identityPool, graphql, bucket, api, hello, helloMethod });
  return { app, stack, api };
}

if (require.main === module) {
  const outdir = process.env.CDK_OUTDIR ?? path.join(__dirname, 'cdk.out');
  const { app } = buildExampleApp(outdir);
  app.synth();
}
