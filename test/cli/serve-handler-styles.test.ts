/**
 * Lambda's Node.js handler rules, per runtime, through the real server: up to Node.js 22 a handler
 * finishes through a returned promise, `context.succeed/fail/done` or its callback (which waits for
 * the invocation's event loop work unless `callbackWaitsForEmptyEventLoop` is false), and the
 * return value of a non-async handler is not the result; from Node.js 24 a handler that declares a
 * callback fails at init (`Runtime.CallbackHandlerDeprecated`) and the return value is the result.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, Running, serve, synth } from './local/support';

/** nodejs24.x (the aws-cdk-lib floor this repository builds with predates Runtime.NODEJS_24_X). */
const NODEJS_24 = new lambda.Runtime('nodejs24.x', lambda.RuntimeFamily.NODEJS, { supportsInlineCode: true });

const OK = (body: string) => `{ statusCode: 200, body: ${JSON.stringify(body)} }`;

/** Handler sources, by route: each a Lambda handler written in one of the styles. */
const HANDLERS: Record<string, readonly [lambda.Runtime, string]> = {
  // aws-serverless-express: a plain function that returns its server and answers through context.succeed.
  'succeed': [lambda.Runtime.NODEJS_22_X, `exports.handler = function (event, context) { setTimeout(() => context.succeed(${OK('succeeded')}), 20); return { server: true }; };`],
  'sync-return': [lambda.Runtime.NODEJS_20_X, `exports.handler = function (event) { return ${OK('returned')}; };`],
  'callback-waits': [lambda.Runtime.NODEJS_20_X, `exports.handler = function (event, context, callback) { setTimeout(() => console.log('timer done'), 400); callback(null, ${OK('called back')}); };`],
  'callback-no-wait': [lambda.Runtime.NODEJS_20_X, `exports.handler = function (event, context, callback) { context.callbackWaitsForEmptyEventLoop = false; setTimeout(() => undefined, 400); callback(null, ${OK('at once')}); };`],
  'fail': [lambda.Runtime.NODEJS_20_X, 'exports.handler = function (event, context) { context.fail(); };'],
  'async': [lambda.Runtime.NODEJS_20_X, `exports.handler = async function () { return ${OK('async')}; };`],
  'node24-callback': [NODEJS_24, `exports.handler = function (event, context, callback) { callback(null, ${OK('never')}); };`],
  'node24-sync': [NODEJS_24, `exports.handler = function (event) { return ${OK('node 24 return value')}; };`],
  // A streaming handler's third parameter is its context, not a callback; a buffered caller gets its bytes as one payload.
  'node24-streaming': [NODEJS_24, `exports.handler = awslambda.streamifyResponse(async (event, responseStream, context) => {
    responseStream.write('{"statusCode":200,');
    responseStream.end(JSON.stringify({ body: typeof context.getRemainingTimeInMillis }).slice(1));
  });`],
};

let running: Running;

beforeAll(async () => {
  const assembly = synth((stack: Stack) => {
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'dev' } });
    for (const [route, [runtime, source]] of Object.entries(HANDLERS)) {
      const fn = new lambda.Function(stack, route.replace(/-/g, ''), { runtime, handler: 'index.handler', code: lambda.Code.fromInline(source) });
      api.root.addResource(route).addMethod('GET', new apigw.LambdaIntegration(fn));
    }
    // A TOKEN authorizer written with a callback, moved to nodejs24.x.
    const authorizerFn = new lambda.Function(stack, 'CallbackAuthorizer', {
      runtime: NODEJS_24,
      handler: 'index.handler',
      code: lambda.Code.fromInline("exports.handler = function (event, context, callback) { callback(null, { principalId: 'u', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: '*' }] } }); };"),
    });
    const guarded = new lambda.Function(stack, 'Guarded', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(`exports.handler = async () => (${OK('inside')});`) });
    api.root.addResource('guarded').addMethod('GET', new apigw.LambdaIntegration(guarded), {
      authorizer: new apigw.TokenAuthorizer(stack, 'Token', { handler: authorizerFn, resultsCacheTtl: Duration.seconds(0) }),
    });
  }, { stackName: 'HandlerStyles' });
  running = await serve(assembly, { quiet: true });
});

afterAll(async () => {
  await running?.close();
});

async function get(route: string): Promise<{ status: number; body: string; ms: number; requestId: string }> {
  const started = performance.now();
  const result = await curl(['-i', `${running.url}${route}`]);
  const response = parseCurlResponse(result.stdout);
  return { status: response.status, body: response.body, ms: performance.now() - started, requestId: response.headers['x-amzn-requestid'] };
}

function linesOf(requestId: string): string {
  return running.lines.filter((l) => l.startsWith(requestId)).join('\n');
}

test('up to Node.js 22, a non-async handler that answers through context.succeed is answered with that value, not its return value', async () => {
  expect(await get('succeed')).toMatchObject({ status: 200, body: 'succeeded' });
});

test("up to Node.js 22, a non-async handler's return value is not its result: null, a malformed proxy response (502)", async () => {
  const response = await get('sync-return');
  expect(response).toMatchObject({ status: 502, body: '{"message":"Internal server error"}' });
});

test("a callback waits for the invocation's event loop work (a timer) before the answer; with callbackWaitsForEmptyEventLoop false it does not", async () => {
  const waits = await get('callback-waits');
  expect(waits).toMatchObject({ status: 200, body: 'called back' });
  expect(waits.ms).toBeGreaterThanOrEqual(380);
  expect(linesOf(waits.requestId)).toContain('INFO timer done');
  const noWait = await get('callback-no-wait');
  expect(noWait).toMatchObject({ status: 200, body: 'at once' });
  expect(noWait.ms).toBeLessThan(300);
});

test('context.fail() with no error fails the invocation (502); an async handler answers with its value', async () => {
  expect(await get('fail')).toMatchObject({ status: 502 });
  expect(await get('async')).toMatchObject({ status: 200, body: 'async' });
});

test('on nodejs24.x a handler that declares a callback fails at init with Runtime.CallbackHandlerDeprecated (502), and a return value is the result', async () => {
  const refused = await get('node24-callback');
  expect(refused).toMatchObject({ status: 502, body: '{"message":"Internal server error"}' });
  expect(running.lines.join('\n')).toContain('Runtime.CallbackHandlerDeprecated: ERROR: AWS Lambda has removed support for callback-based function handlers starting with Node.js 24.');
  expect(await get('node24-sync')).toMatchObject({ status: 200, body: 'node 24 return value' });
});

test('on nodejs24.x a streaming handler (event, responseStream, context) is not refused as a callback handler; a buffered REST method gets its bytes as one payload', async () => {
  expect(await get('node24-streaming')).toMatchObject({ status: 200, body: 'function' });
});

test('a callback TOKEN authorizer on nodejs24.x fails at init: the gateway answers 500 {"message":null} and the method does not run', async () => {
  const result = await curl(['-i', '-H', 'Authorization: allow', `${running.url}guarded`]);
  const response = parseCurlResponse(result.stdout);
  expect(response.status).toBe(500);
  expect(response.body).toBe('{"message":null}');
  expect(response.headers['x-amzn-errortype']).toBe('AuthorizerConfigurationException');
});
