// The local API benchmark's own app, synthesized with aws-cdk-lib: stack BenchLocalApi, a RestApi
// with GET /items on an inline Lambda returning ITEMS_BODY and GET /slow on one that takes
// SLOW_MS; stack BenchChecks, the same function plain, behind a cached TOKEN authorizer and
// behind a required API key of a usage plan; stack BenchHttpApi, an HttpApi whose $default stage
// has GET /items on the same function (payload 2.0).
const fs = require('fs');
const os = require('os');
const path = require('path');

const ITEMS_BODY = JSON.stringify([{ id: '1', name: 'pen' }, { id: '2', name: 'ink' }, { id: '3', name: 'paper' }]);
const SLOW_MS = 200;
const API_KEY = 'bench-api-key-0123456789';
const TOKEN = 'allow-bench';

/** Synthesizes the app into a fresh temporary folder and returns it. */
function synthesizeLocalApiApp() {
  const cdk = require('aws-cdk-lib');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-local-api-'));
  const app = new cdk.App({ outdir });
  addServedStack(new cdk.Stack(app, 'BenchLocalApi'));
  // Served on its own so that the measurements of the first stack keep their app.
  addChecksStack(new cdk.Stack(app, 'BenchChecks'));
  addHttpApiStack(new cdk.Stack(app, 'BenchHttpApi'));
  app.synth();
  return outdir;
}

function inlineNodeFunction(scope, id, source) {
  const lambda = require('aws-cdk-lib/aws-lambda');
  return new lambda.Function(scope, id, { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(source) });
}

function itemsFunction(scope) {
  return inlineNodeFunction(scope, 'Items',
    `const body = ${JSON.stringify(ITEMS_BODY)};\nexports.handler = async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body });`);
}

function addServedStack(stack) {
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const slow = inlineNodeFunction(stack, 'Slow',
    `exports.handler = async () => { await new Promise((r) => setTimeout(r, ${SLOW_MS})); return { statusCode: 200, body: 'slow' }; };`);
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(itemsFunction(stack)));
  api.root.addResource('slow').addMethod('GET', new apigw.LambdaIntegration(slow));
}

function addChecksStack(stack) {
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const checked = itemsFunction(stack);
  const authorizerFn = inlineNodeFunction(stack, 'Authorizer',
    `exports.handler = async (event) => ({ principalId: 'bench', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: event.authorizationToken === ${JSON.stringify(TOKEN)} ? 'Allow' : 'Deny', Resource: event.methodArn }] } });`);
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(checked));
  // The default TTL (300 s): after the first request the authorizer's answer comes from the cache.
  const authorizer = new apigw.TokenAuthorizer(stack, 'Cached', { handler: authorizerFn });
  api.root.addResource('authorized').addMethod('GET', new apigw.LambdaIntegration(checked), { authorizer });
  api.root.addResource('keyed').addMethod('GET', new apigw.LambdaIntegration(checked), { apiKeyRequired: true });
  const plan = api.addUsagePlan('Plan', { apiStages: [{ api, stage: api.deploymentStage }] });
  plan.addApiKey(api.addApiKey('Key', { apiKeyName: 'bench', value: API_KEY }));
}

/** An HTTP API, `$default` stage at the root, GET /items on the items function (payload 2.0, the default). */
function addHttpApiStack(stack) {
  const apigwv2 = require('aws-cdk-lib/aws-apigatewayv2');
  const { HttpLambdaIntegration } = require('aws-cdk-lib/aws-apigatewayv2-integrations');
  const api = new apigwv2.HttpApi(stack, 'Api');
  api.addRoutes({ path: '/items', methods: [apigwv2.HttpMethod.GET], integration: new HttpLambdaIntegration('Items', itemsFunction(stack)) });
}

module.exports = { ITEMS_BODY, SLOW_MS, API_KEY, TOKEN, synthesizeLocalApiApp };
