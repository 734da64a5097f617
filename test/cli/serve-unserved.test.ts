/**
 * Every API, function URL and function of the assembly is accounted for by the commands, run as
 * real CLI processes: `serve`'s listing and its refusal of an app with nothing to serve, the
 * console's API list, and `test-invoke`'s list (its `--help` and its refusals).
 */
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { runCli } from '../support/cli';
import { FIXTURES, inlineFunction, startCli, synth } from './local/support';

let mixed: string;
let chatOnly: string;

function httpApi(stack: Stack): void {
  const api = new apigwv2.HttpApi(stack, 'Http');
  api.addRoutes({ path: '/hello', integration: new HttpLambdaIntegration('Hello', inlineFunction(stack, 'HttpHello', 'exports.handler = async () => "hi"')) });
}

function webSocketApi(stack: Stack): void {
  const api = new apigwv2.WebSocketApi(stack, 'Chat');
  api.addRoute('send', { integration: new WebSocketLambdaIntegration('Send', inlineFunction(stack, 'ChatSend', 'exports.handler = async () => ({})')) });
}

beforeAll(() => {
  mixed = synth((stack) => {
    const rest = new apigw.RestApi(stack, 'Rest', { restApiName: 'Items', deployOptions: { stageName: 'dev' } });
    rest.root.addMethod('GET', new apigw.LambdaIntegration(inlineFunction(stack, 'Node', 'exports.handler = async () => ({ statusCode: 200, body: "ok" })')));
    const ruby = new lambda.Function(stack, 'Ruby', { runtime: lambda.Runtime.RUBY_3_3, handler: 'index.handler', code: lambda.Code.fromAsset(path.join(FIXTURES, 'ruby')) });
    rest.root.addResource('rb').addMethod('GET', new apigw.LambdaIntegration(ruby));
    httpApi(stack);
    inlineFunction(stack, 'Linked', 'exports.handler = async () => "url"').addFunctionUrl();
    // Not served: an AppSync API, and the function only its resolver's data source invokes.
    const graph = new appsync.CfnGraphQLApi(stack, 'Graph', { name: 'Graph', authenticationType: 'API_KEY' });
    const resolverFn = inlineFunction(stack, 'Resolver', 'exports.handler = async () => ({})');
    new appsync.CfnDataSource(stack, 'Source', { apiId: graph.attrApiId, name: 'Source', type: 'AWS_LAMBDA', lambdaConfig: { lambdaFunctionArn: resolverFn.functionArn } });
  }, { stackName: 'Mixed' });
  chatOnly = synth(webSocketApi, { stackName: 'ChatOnly' });
});

test('serve lists what it does not serve, each with its kind and why, after the routes; the console gets the same list and marks a method whose function cannot run', async () => {
  const serve = startCli(['serve', '--app', mixed, '--port', '0']);
  try {
    const out = await serve.waitFor('Press Ctrl+C');
    const lines = out.split('\n');
    // Function URLs are served (issue 24): the URL on its own port, its function runs.
    expect(out).toContain(`Serving 1 REST API(s), 1 HTTP API(s) and 1 function URL(s) from ${mixed}:`);
    expect(lines.some((l) => /ANY\s+http:\/\/127\.0\.0\.1:\d+\/\s+-> Mixed\/Linked\s+\[function URL AWS_IAM; BUFFERED\]/.test(l))).toBe(true);
    const start = lines.indexOf('Not served (2):');
    expect(start).toBeGreaterThan(lines.findIndex((l) => l.includes('/dev/rb')));
    // The HTTP API is served (its routes are listed), so neither it nor its function is in the list.
    expect(lines.some((l) => /ANY\s+http:\/\/127\.0\.0\.1:\d+\/hello\s+-> Mixed\/HttpHello/.test(l))).toBe(true);
    expect(lines.slice(start + 1, start + 3).sort()).toEqual([
      '  GraphQL API  Mixed/Graph: AppSync GraphQL APIs are not served locally',
      '  function     Mixed/Resolver: invoked by an AppSync data source (Source), which the local API does not serve',
    ]);
    const origin = /http:\/\/127\.0\.0\.1:(\d+)\/dev\//.exec(out)![0].replace('/dev/', '');
    const answer = await (await fetch(`${origin}/@console/api/apis`)).json() as any;
    expect(answer.unserved.map((p: any) => p.kind).sort()).toEqual(['GraphQL API', 'function']);
    const methods = answer.apis[0].root.children.find((c: any) => c.path === '/rb').methods;
    expect(methods[0].notRunnable).toMatch(/ruby3\.3/);
    expect(answer.apis[0].root.methods[0].notRunnable).toBeUndefined();
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

test('serve refuses an app whose only API is a WebSocket API without a stage, naming it with its kind and why; exit 1', async () => {
  const run = await runCli(['serve', '--app', chatOnly, '--port', '0']);
  expect(run.code).toBe(1);
  expect(run.stderr.split('\n')).toEqual([
    expect.stringMatching(/^vendor-outputs serve: warning: ChatOnly\/Chat\w+: WebSocket API has no stage; not served$/),
    `vendor-outputs serve: no REST, HTTP or WebSocket API with a stage in ${chatOnly}; nothing to serve`,
    'Not served (1):',
    '  WebSocket API  ChatOnly/Chat: it has no stage',
    '',
  ]);
});

test("test-invoke --help lists the app's APIs and functions, served or not; without an assembly it says so and still exits 0", async () => {
  const help = await runCli(['test-invoke', '--help', '--app', mixed]);
  expect(help.code).toBe(0);
  const tail = help.stdout.slice(help.stdout.indexOf(`APIs and functions of the app in ${mixed}:`)).split('\n');
  expect(tail[1]).toBe('Served (3):');
  expect(tail[2]).toMatch(/^ {2}REST API {2}Items \(Mixed\/Rest, --api Rest\w+\): stages dev$/);
  // test-invoke runs HTTP APIs too (issue 23): the API with what --api takes, then each route as --route takes it.
  expect(tail[3]).toMatch(/^ {2}HTTP API {2}Http \(Mixed\/Http, --api Http\w+\): stages \$default$/);
  expect(tail[4]).toBe('    --route "ANY /hello"');
  expect(tail[5]).toBe('  function URL  Mixed/Linked/FunctionUrl: AWS_IAM, BUFFERED (call its URL under serve; test-invoke does not)');
  expect(tail[6]).toBe('Not served (2):');

  const none = await runCli(['test-invoke', '--help', '--app', '/nonexistent/cdk.out']);
  expect(none.code).toBe(0);
  expect(none.stdout).toMatch(/APIs and functions of the app in \/nonexistent\/cdk\.out:\n {2}\(.*\/nonexistent\/cdk\.out.*; run 'npx cdk synth' first, or pass --app DIR\)\n$/);
});

test('test-invoke on an app with no REST or HTTP API names the APIs it has and why they cannot be tested; exit 1', async () => {
  const run = await runCli(['test-invoke', '--app', chatOnly, '--method', 'GET', '--path', '/hello']);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('vendor-outputs test-invoke: no REST or HTTP API in the cloud assembly\nNot served (1):\n  WebSocket API  ChatOnly/Chat: it has no stage\n');
});
