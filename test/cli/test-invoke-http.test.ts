/**
 * `vendor-outputs test-invoke` on HTTP APIs (a real CDK `HttpApi`), as a real CLI process:
 * `--api`, `--route "GET /items"` or `--method` and `--path`, `--stage`, the printed status,
 * headers, body and log, and each refusal with its exit status.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { runCli } from '../support/cli';
import { inlineFunction, synth } from './local/support';

const ECHO = 'exports.handler = async (e) => ({ statusCode: 200, headers: { "x-route": e.routeKey }, body: JSON.stringify({ routeKey: e.routeKey, stage: e.requestContext.stage, path: e.rawPath, q: e.rawQueryString, mapped: e.headers["x-mapped"] || null, body: e.body || null }) });';

let assembly: string;

beforeAll(() => {
  assembly = synth((stack: Stack) => {
    const echo = inlineFunction(stack, 'Echo', ECHO);
    const api = new apigwv2.HttpApi(stack, 'Http', { apiName: 'Items' });
    api.addRoutes({
      path: '/items',
      methods: [apigwv2.HttpMethod.GET, apigwv2.HttpMethod.POST],
      integration: new HttpLambdaIntegration('Items', echo, {
        parameterMapping: new apigwv2.ParameterMapping().overwriteHeader('x-mapped', apigwv2.MappingValue.custom('yes')),
      }),
    });
    api.addRoutes({ path: '/items/{id}', methods: [apigwv2.HttpMethod.GET], integration: new HttpLambdaIntegration('Item', echo) });
    api.addStage('Beta', { stageName: 'beta', autoDeploy: true, throttle: { burstLimit: 0, rateLimit: 0 } });
    new apigw.RestApi(stack, 'Rest', { restApiName: 'Legacy', deployOptions: { stageName: 'prod' } }).root.addMethod('GET');
  }, { stackName: 'InvokeHttp' });
});

const invoke = (...args: string[]) => runCli(['test-invoke', '--app', assembly, ...args]);

test('--route "GET /items" on the $default stage: the request line, status, body, headers and the route in the log', async () => {
  const run = await invoke('--api', 'Items', '--route', 'GET /items', '--query', 'a=1', '--json');
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.request).toBe('GET /items?a=1');
  expect(result.status).toBe(200);
  expect(JSON.parse(result.body)).toEqual({ routeKey: 'GET /items', stage: '$default', path: '/items', q: 'a=1', mapped: 'yes', body: null });
  expect(result.headers['x-route']).toBe('GET /items');
  expect(result.headers['apigw-requestid']).toMatch(/^[A-Za-z0-9_-]{15}=$/);
  expect(result.log).toMatch(/^Request \S+: stage \$default, route GET \/items$/);
});

test('--method and --path pick a route with a path variable; the text output has the REST shape', async () => {
  const run = await invoke('--api', 'Items', '--method', 'GET', '--path', '/items/42');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Request: GET \/items\/42\nStatus: 200\nLatency: \d+ ms\nResponse body:\n\{"routeKey":"GET \/items\/\{id\}"/);
  expect(run.stdout).toMatch(/\nResponse headers:\n\{.*x-route=GET \/items\/\{id\}.*\}\nLogs:\nRequest \S+: stage \$default, route GET \/items\/\{id\}\n$/);
});

test('--route with --method POST and --body: the method given wins', async () => {
  const run = await invoke('--api', 'Items', '--route', 'GET /items', '--method', 'POST', '--body', 'hi', '--json');
  const body = JSON.parse(JSON.parse(run.stdout).body);
  expect([body.routeKey, body.body]).toEqual(['POST /items', 'aGk=']);
});

test('--stage: the named stage, with its throttling (a burst of 0 is 429) and the gateway note in the log', async () => {
  const run = await invoke('--api', 'Items', '--route', 'GET /items', '--stage', 'beta', '--json');
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.request).toBe('GET /beta/items');
  expect([result.status, result.body]).toEqual([429, '{"message":"Too Many Requests"}']);
  expect(result.log).toContain("GET /items: over the stage beta's route throttle (rate 0, burst 0); answered 429");
});

test('a path no route takes: 404 {"message":"Not Found"}, "no route matches" in the log', async () => {
  const result = JSON.parse((await invoke('--api', 'Items', '--method', 'GET', '--path', '/nowhere', '--json')).stdout);
  expect([result.status, result.body]).toEqual([404, '{"message":"Not Found"}']);
  expect(result.log).toMatch(/stage \$default, no route matches$/);
});

test.each([
  [['--api', 'Items', '--route', 'DELETE /items'], 1, "no route 'DELETE /items' in HTTP API Items; routes: GET /items, POST /items, GET /items/{id}"],
  [['--api', 'Items', '--route', 'GET /items/{id}'], 2, '--path is required, e.g. --path /items'],
  [['--api', 'Items', '--route', 'GET /items', '--stage', 'gamma'], 1, "HTTP API Items has no stage 'gamma'; stages: $default, beta"],
  [['--api', 'Items', '--route', 'GET /items', '--authorize'], 2, "--authorize runs REST authorizers; an HTTP API's request goes through its routes as `serve` handles it"],
  [['--api', 'Legacy', '--route', 'GET /items'], 2, '--route and --stage are for HTTP APIs; Legacy is a REST API (use --method and --path)'],
  [['--method', 'GET', '--path', '/'], 1, 'the app has 2 APIs; pick one with --api: Legacy (Rest'],
])('refused %j: exit %d', async (args, code, message) => {
  const run = await invoke(...args);
  expect(run.code).toBe(code);
  expect(run.stderr).toContain(`vendor-outputs test-invoke: ${message}`);
});

test('--help lists the HTTP API with --api and each route as --route takes it', async () => {
  const help = await runCli(['test-invoke', '--help', '--app', assembly]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('  --route KEY       HTTP APIs: the route key');
  expect(help.stdout).toMatch(/\n {2}HTTP API {2}Items \(InvokeHttp\/Http, --api Http\w+\): stages \$default, beta\n {4}--route "GET \/items"\n {4}--route "POST \/items"\n {4}--route "GET \/items\/\{id\}"\n/);
});
