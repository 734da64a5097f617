/**
 * The start-up route listing of a real stack that uses every kind of method: for each, what answers
 * it (function, MOCK, endpoint, AWS service and its endpoint variable, or why it is not served) and
 * what the gateway checks first (authorization, API key, throttling, validator).
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LocalApp } from '../../../../src/cli/local/model/local-app';
import { restApi } from '../../../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { routeRows } from '../../../../src/cli/local/rest/route-listing';
import { formatRouteRows } from '../../../../src/cli/local/server/route-table';
import { synth } from '../support';

let app: LocalApp;

beforeAll(() => {
  app = readLocalApp(synth((stack) => {
    const fn = new lambda.Function(stack, 'Fn', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: "" });'),
    });
    const api = new apigw.RestApi(stack, 'Api', {
      deployOptions: { stageName: 'prod', methodOptions: { '/throttled/GET': { throttlingRateLimit: 5, throttlingBurstLimit: 2 } } },
    });
    const integration = new apigw.LambdaIntegration(fn);
    api.root.addResource('open').addMethod('GET', integration);
    api.root.addResource('signed').addMethod('GET', integration, { authorizationType: apigw.AuthorizationType.IAM });
    api.root.addResource('custom').addMethod('GET', integration, {
      authorizer: new apigw.TokenAuthorizer(stack, 'Token', { handler: fn, authorizerName: 'TokenCheck' }),
    });
    const pool = new cognito.UserPool(stack, 'Pool');
    api.root.addResource('cognito').addMethod('GET', integration, {
      authorizer: new apigw.CognitoUserPoolsAuthorizer(stack, 'PoolAuth', { cognitoUserPools: [pool], authorizerName: 'PoolCheck' }),
      authorizationScopes: ['items/read'],
    });
    api.root.addResource('keyed').addMethod('GET', integration, { apiKeyRequired: true });
    api.root.addResource('throttled').addMethod('GET', integration);
    api.addUsagePlan('Plan', { apiStages: [{ api, stage: api.deploymentStage }] }).addApiKey(api.addApiKey('Key', { value: 'listing-key-0123456789' }));
    api.root.addResource('validated').addMethod('POST', integration, {
      requestValidator: api.addRequestValidator('Both', { requestValidatorName: 'all', validateRequestBody: true, validateRequestParameters: true }),
      requestParameters: { 'method.request.querystring.q': true },
      requestModels: { 'application/json': apigw.Model.EMPTY_MODEL },
    });
    api.root.addResource('legacy').addMethod('POST', new apigw.LambdaIntegration(fn, { proxy: false, integrationResponses: [{ statusCode: '200' }] }), {
      methodResponses: [{ statusCode: '200' }],
    });
    api.root.addResource('mock').addMethod('GET', new apigw.MockIntegration({ requestTemplates: { 'application/json': '{"statusCode": 200}' }, integrationResponses: [{ statusCode: '200' }] }), {
      methodResponses: [{ statusCode: '200' }],
    });
    api.root.addResource('upstream').addMethod('GET', new apigw.HttpIntegration('http://127.0.0.1:9/things'));
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com') });
    api.root.addResource('table').addMethod('POST', new apigw.AwsIntegration({
      service: 'dynamodb',
      action: 'GetItem',
      options: { credentialsRole: role, integrationResponses: [{ statusCode: '200' }] },
    }), { methodResponses: [{ statusCode: '200' }] });
    const python = new lambda.Function(stack, 'Python', {
      runtime: lambda.Runtime.PYTHON_3_12,
      handler: 'index.handler',
      code: lambda.Code.fromInline('def handler(e, c): return {}'),
    });
    api.root.addResource('python').addMethod('GET', new apigw.LambdaIntegration(python));
  }, { stackName: 'Listing' }));
});

function listing(env: NodeJS.ProcessEnv = {}): string {
  const api = restApi(app.apis[0]);
  const label = (key: string) => app.functions.get(key)?.constructPath ?? key;
  return formatRouteRows(routeRows(api, 'prod', 'http://127.0.0.1:3000/prod/', label, env)).join('\n');
}

test('each method shows its authorization, NONE included', () => {
  const text = listing();
  expect(text).toMatch(/GET +http:\/\/127\.0\.0\.1:3000\/prod\/open +-> Listing\/Fn  \[NONE\]$/m);
  expect(text).toMatch(/\/signed +-> Listing\/Fn  \[AWS_IAM\]$/m);
  expect(text).toMatch(/\/custom +-> Listing\/Fn  \[CUSTOM TokenCheck\]$/m);
  expect(text).toMatch(/\/cognito +-> Listing\/Fn  \[COGNITO_USER_POOLS PoolCheck \(pool us-east-1_Pool[A-F0-9]+, scopes items\/read\)\]$/m);
});

test('API keys, stage throttling and validators are shown with the method', () => {
  const text = listing();
  expect(text).toMatch(/\/keyed +-> Listing\/Fn  \[NONE; API key\]$/m);
  expect(text).toMatch(/\/throttled +-> Listing\/Fn  \[NONE; throttle 5 rps, burst 2\]$/m);
  expect(text).toMatch(/POST +\S+\/validated +-> Listing\/Fn  \[NONE; validator all: body, params\]$/m);
});

test('non-proxy, MOCK, HTTP and AWS service integrations name what answers them', () => {
  const text = listing();
  expect(text).toMatch(/POST +\S+\/legacy +-> Listing\/Fn \(non-proxy\)  \[NONE\]$/m);
  expect(text).toMatch(/GET +\S+\/mock +-> MOCK  \[NONE\]$/m);
  expect(text).toMatch(/GET +\S+\/upstream +-> HTTP_PROXY GET http:\/\/127\.0\.0\.1:9\/things  \[NONE\]$/m);
  expect(text).toMatch(/POST +\S+\/table +-> .*dynamodb.*\(no endpoint: set AWS_ENDPOINT_URL_DYNAMODB or AWS_ENDPOINT_URL; answers 500\)  \[NONE\]$/m);
  expect(listing({ AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000' })).toMatch(/\/table +-> .*dynamodb.* at http:\/\/127\.0\.0\.1:8000  \[NONE\]$/m);
});

test('a key-required method on a stage no usage plan covers says it refuses every request', () => {
  const api = restApi(app.apis[0]);
  const text = formatRouteRows(routeRows({ ...api, stages: ['prod', 'beta'] }, 'beta', 'http://127.0.0.1:3000/beta/', (k) => k, {})).join('\n');
  expect(text).toMatch(/\/beta\/keyed +-> \S+  \[NONE; API key, but no usage plan covers stage beta: 403\]$/m);
});
