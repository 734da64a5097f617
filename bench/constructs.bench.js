// Synth time of the example backend (every construct of the library, every section of
// vendor_outputs.json) vs the same resources built directly with aws-cdk-lib, without any
// addOutput: the cost of the outputs machinery (collector, conversion, merge, carriage, validation,
// writing the file). Runs against compiled lib/; medians over interleaved runs in one process.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { median } = require('./stats');

const ROOT = path.join(__dirname, '..');
const SCHEMA = path.join(ROOT, 'examples', 'backend', 'schema.graphql');
const RUNS = Number(process.env.BENCH_CONSTRUCTS_RUNS ?? 21);

function ensureAssets() {
  if (!fs.existsSync(path.join(ROOT, 'assets', 'constructs', 'rest-items-api.lambda', 'index.js'))) {
    const bundle = spawnSync('npx', ['projen', 'bundle'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (bundle.status !== 0) {
      throw new Error('bundling the REST function failed; run `npx projen bundle`');
    }
  }
}

/** The parts both variants share: auth, data and storage resources. */
function baseResources(cdk, stack) {
  const { Duration, RemovalPolicy } = cdk;
  const appsync = require('aws-cdk-lib/aws-appsync');
  const cognito = require('aws-cdk-lib/aws-cognito');
  const { IdentityPool, UserPoolAuthenticationProvider } = require('aws-cdk-lib/aws-cognito-identitypool');
  const logs = require('aws-cdk-lib/aws-logs');
  const s3 = require('aws-cdk-lib/aws-s3');

  const userPool = new cognito.UserPool(stack, 'UserPool', {
    selfSignUpEnabled: true,
    signInAliases: { email: true },
    autoVerify: { email: true },
    standardAttributes: { email: { required: true, mutable: true } },
    passwordPolicy: { minLength: 10, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: true },
    mfa: cognito.Mfa.OPTIONAL,
    mfaSecondFactor: { sms: false, otp: true },
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
  const graphql = new appsync.GraphqlApi(stack, 'DataApi', {
    name: 'vendor-outputs-example',
    definition: appsync.Definition.fromSchema(appsync.SchemaFile.fromAsset(SCHEMA)),
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
  const bucket = new s3.Bucket(stack, 'Files', {
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    removalPolicy: RemovalPolicy.DESTROY,
    cors: [{ allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.PUT], allowedOrigins: ['http://localhost:5173'], allowedHeaders: ['*'], maxAge: Duration.hours(1).toSeconds() }],
  });
  bucket.grantReadWrite(identityPool.authenticatedRole, 'public/*');
  return { userPool, userPoolClient, domain, identityPool, graphql, bucket };
}

/** The example backend with the library's constructs: every section written. */
function withOutputs(lib, cdk, stack) {
  const base = baseResources(cdk, stack);
  new lib.AuthOutputsProducer(stack, 'Auth', { userPool: base.userPool, userPoolClient: base.userPoolClient, identityPool: base.identityPool, domain: base.domain });
  new lib.DataOutputsProducer(stack, 'Data', { api: base.graphql });
  new lib.StorageOutputsProducer(stack, 'Storage', { bucket: base.bucket });
  const geo = new lib.GeoResources(stack, 'Geo', {
    maps: [{ name: 'example-streets', style: 'VectorEsriStreets' }],
    searchIndices: [{ name: 'example-places' }],
    geofenceCollections: [{ name: 'example-zones' }],
  });
  geo.grantMapRendering(base.identityPool.authenticatedRole);
  geo.grantMapRendering(base.identityPool.unauthenticatedRole);
  geo.grantSearch(base.identityPool.authenticatedRole);
  geo.grantGeofenceRead(base.identityPool.authenticatedRole);
  new lib.Notifications(stack, 'Notifications', { appName: 'vendor-outputs-example', inAppMessaging: true, sms: {} });
  new lib.RestItemsApi(stack, 'ItemsApi', { apiName: 'itemsApi', stageName: 'dev' });
}

/** The same resources built directly, without any addOutput. */
function withoutOutputs(lib, cdk, stack) {
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const iam = require('aws-cdk-lib/aws-iam');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const location = require('aws-cdk-lib/aws-location');
  const logs = require('aws-cdk-lib/aws-logs');
  const pinpoint = require('aws-cdk-lib/aws-pinpoint');
  const { Construct } = require('constructs');
  const base = baseResources(cdk, stack);

  const geo = new Construct(stack, 'Geo');
  const map = new location.CfnMap(geo, 'Map_example-streets', { mapName: 'example-streets', configuration: { style: 'VectorEsriStreets' } });
  const index = new location.CfnPlaceIndex(geo, 'PlaceIndex_example-places', { indexName: 'example-places', dataSource: 'Esri', dataSourceConfiguration: { intendedUse: 'SingleUse' } });
  const zones = new location.CfnGeofenceCollection(geo, 'GeofenceCollection_example-zones', { collectionName: 'example-zones' });
  const grant = (grantee, actions, arns) => iam.Grant.addToPrincipal({ grantee, actions, resourceArns: arns });
  const render = ['geo:GetMapStyleDescriptor', 'geo:GetMapTile', 'geo:GetMapSprites', 'geo:GetMapGlyphs'];
  grant(base.identityPool.authenticatedRole, render, [map.attrArn]);
  grant(base.identityPool.unauthenticatedRole, render, [map.attrArn]);
  grant(base.identityPool.authenticatedRole, ['geo:SearchPlaceIndexForText', 'geo:SearchPlaceIndexForPosition', 'geo:SearchPlaceIndexForSuggestions', 'geo:GetPlace'], [index.attrArn]);
  grant(base.identityPool.authenticatedRole, ['geo:GetGeofence', 'geo:ListGeofences'], [zones.attrArn]);

  const notifications = new Construct(stack, 'Notifications');
  const app = new pinpoint.CfnApp(notifications, 'Resource', { name: 'vendor-outputs-example' });
  new pinpoint.CfnSMSChannel(notifications, 'Sms', { applicationId: app.ref, enabled: true });

  const scope = new Construct(stack, 'ItemsApi');
  const handler = new lib.RestItemsApiFunction(scope, 'Handler', {
    description: 'Items function of a RestItemsApi (cdk-vendor-outputs)',
    tracing: lambda.Tracing.ACTIVE,
    environment: { CORS_ALLOW_ORIGINS: '["*"]' },
  });
  const accessLogs = new logs.LogGroup(scope, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
  const api = new apigw.RestApi(scope, 'Resource', {
    restApiName: 'itemsApi',
    description: 'Items REST API (cdk-vendor-outputs RestItemsApi)',
    cloudWatchRole: true,
    deployOptions: {
      stageName: 'dev',
      throttlingRateLimit: 100,
      throttlingBurstLimit: 200,
      tracingEnabled: true,
      metricsEnabled: true,
      loggingLevel: apigw.MethodLoggingLevel.ERROR,
      dataTraceEnabled: false,
      accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
      accessLogFormat: apigw.AccessLogFormat.jsonWithStandardFields(),
    },
  });
  const items = api.root.addResource('items', {
    defaultIntegration: new apigw.LambdaIntegration(handler, { proxy: true }),
    defaultCorsPreflightOptions: { allowOrigins: apigw.Cors.ALL_ORIGINS, allowMethods: apigw.Cors.ALL_METHODS, allowHeaders: apigw.Cors.DEFAULT_HEADERS },
  });
  const validator = api.addRequestValidator('RequestValidator', { validateRequestBody: true, validateRequestParameters: true });
  const model = api.addModel('NewItemModel', {
    contentType: 'application/json',
    schema: { schema: apigw.JsonSchemaVersion.DRAFT4, title: 'NewItem', type: apigw.JsonSchemaType.OBJECT, required: ['name'], properties: { name: { type: apigw.JsonSchemaType.STRING, minLength: 1 } } },
  });
  items.addMethod('GET', undefined, { requestParameters: { 'method.request.querystring.limit': false }, requestValidator: validator });
  items.addMethod('DELETE');
  items.addMethod('PUT');
  items.addMethod('POST', undefined, { requestValidator: validator, requestModels: { 'application/json': model } });
  items.addProxy({ anyMethod: true });
  const corsHeaders = { 'Access-Control-Allow-Origin': "'*'", 'Access-Control-Allow-Headers': "'*'" };
  api.addGatewayResponse('Default4xx', { type: apigw.ResponseType.DEFAULT_4XX, responseHeaders: corsHeaders });
  api.addGatewayResponse('Default5xx', { type: apigw.ResponseType.DEFAULT_5XX, responseHeaders: corsHeaders });
}

function synthOnce(build, lib, cdk, outdir) {
  const started = process.hrtime.bigint();
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'VendorOutputsExample', { env: { region: 'eu-west-1' } });
  build(lib, cdk, stack);
  app.synth();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function run(report) {
  ensureAssets();
  const lib = require('../lib');
  const cdk = require('aws-cdk-lib');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'constructs-bench-'));
  try {
    // Warm up both variants (module loading, JIT) before measuring.
    synthOnce(withOutputs, lib, cdk, path.join(tmp, 'warm-a'));
    synthOnce(withoutOutputs, lib, cdk, path.join(tmp, 'warm-b'));
    const a = [];
    const b = [];
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, alternating which goes first, so drift on a shared machine hits both alike.
      if (i % 2 === 0) {
        a.push(synthOnce(withOutputs, lib, cdk, path.join(tmp, `a${i}`)));
        b.push(synthOnce(withoutOutputs, lib, cdk, path.join(tmp, `b${i}`)));
      } else {
        b.push(synthOnce(withoutOutputs, lib, cdk, path.join(tmp, `b${i}`)));
        a.push(synthOnce(withOutputs, lib, cdk, path.join(tmp, `a${i}`)));
      }
    }
    report({
      name: `example backend synth: all outputs vs no addOutput (median of ${RUNS})`,
      value: median(a),
      baseline: median(b),
      unit: ' ms',
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { run, withOutputs, synthOnce, ensureAssets };
