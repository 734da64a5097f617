/**
 * `vendor-outputs test-invoke`: the console's TEST, run as a real CLI process from the sources.
 */
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { runCli } from '../support/cli';
import { FIXTURES, synth } from './local/support';

let assembly: string;
let twoApis: string;

beforeAll(() => {
  assembly = synth((stack: Stack) => {
    const behaviours = new lambda.Function(stack, 'Behaviours', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(path.join(FIXTURES, 'behaviours')),
    });
    const quiet = new lambda.Function(stack, 'Quiet', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify({ id: (e.pathParameters || {}).id || null }) });'),
    });
    const api = new apigw.RestApi(stack, 'Api', { restApiName: 'ItemsApi', deployOptions: { stageName: 'prod' } });
    const items = api.root.addResource('items');
    items.addMethod('GET', new apigw.LambdaIntegration(behaviours), { authorizationType: apigw.AuthorizationType.IAM });
    items.addMethod('POST', new apigw.LambdaIntegration(behaviours));
    items.addResource('{id}').addMethod('GET', new apigw.LambdaIntegration(quiet));
    const reflect = new lambda.Function(stack, 'Reflect', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline([
        'exports.handler = async (e) => {',
        '  const q = e.queryStringParameters || {};',
        "  if (q.v !== undefined) return { statusCode: 200, headers: { 'X-Echo': q.v }, body: 'x' };",
        "  return { statusCode: 200, headers: JSON.parse('{\"__proto__\":\"p\",\"constructor\":\"c\"}'), multiValueHeaders: JSON.parse('{\"toString\":[\"t1\",\"t2\"]}'),",
        '    body: JSON.stringify({ query: Object.keys(q).sort(), headers: Object.keys(e.headers || {}).sort() }) };',
        '};',
      ].join('\n')),
    });
    api.root.addResource('reflect').addMethod('GET', new apigw.LambdaIntegration(reflect));
  }, { stackName: 'InvokeTest' });
  twoApis = synth((stack: Stack) => {
    for (const id of ['First', 'Second']) {
      new apigw.RestApi(stack, id, { deployOptions: { stageName: 'prod' } }).root.addMethod('GET');
    }
  }, { stackName: 'TwoApis' });
});

const invoke = (...args: string[]) => runCli(['test-invoke', '--app', assembly, ...args]);

test('GET /items?limit=5 prints request, status, latency, body, headers and the execution log; exit 0', async () => {
  const run = await invoke('--method', 'GET', '--path', '/items', '--query', 'limit=5');
  expect(run.code).toBe(0);
  const out = run.stdout;
  expect(out).toMatch(/^Request: \/items\?limit=5\nStatus: 200\nLatency: \d+ ms\nResponse body:\n\{"event":/);
  const body = JSON.parse(out.split('\n')[4]);
  expect(body.event.requestContext.stage).toBe('test-invoke-stage');
  expect(body.event.queryStringParameters).toEqual({ limit: '5' });
  expect(out).toMatch(/\nResponse headers:\n\{Access-Control-Allow-Origin=\*, Content-Type=application\/json, x-amzn-RequestId=[0-9a-f-]{36}, x-amz-apigw-id=\S+, X-Amzn-Trace-Id=Root=1-[0-9a-f]{8}-[0-9a-f]{24}\}\nLogs:\nExecution log for request [0-9a-f-]{36}\n/);
  for (const line of [
    'HTTP Method: GET, Resource Path: /items',
    'Method request path: {}',
    'Method request query string: {limit=5}',
    'Method request headers: {}',
    'Endpoint request body after transformations: {"resource":"/items","path":"/items","httpMethod":"GET"',
    'Endpoint response body before transformations: {"statusCode":200',
    'Successfully completed execution',
    'Method completed with status: 200',
  ]) {
    expect(out).toMatch(new RegExp(`\\n[A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{2}:\\d{2}:\\d{2} UTC \\d{4} : ${line.replace(/[{}()[\]*+?.\\/^$|]/g, '\\$&')}`));
  }
  // The function's console output goes to stderr, tagged with the request id.
  expect(run.stderr).toMatch(/^[0-9a-f-]{36} INFO mode=echo path=\/items\n$/);
});

test('Authorization and X-Amz-Security-Token values are masked in the execution log', async () => {
  const secret = 'AWS4-HMAC-SHA256 Credential=AKIDSECRETVALUE/20260101/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=deadbeefcafe';
  const token = 'IQoJb3JpZ2luX2VjSECRETTOKENVALUE1234';
  const run = await invoke('--method', 'GET', '--path', '/items/42', '--header', `Authorization:${secret}`, '--header', `X-Amz-Security-Token:${token}`, '--header', 'X-Custom:visible');
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain('AKIDSECRETVALUE');
  expect(run.stdout).not.toContain('SECRETTOKENVALUE');
  expect(run.stdout).toContain(`Method request headers: {Authorization=${'*'.repeat(secret.length - 4)}cafe, X-Amz-Security-Token=${'*'.repeat(token.length - 4)}1234, X-Custom=visible}`);
  // The function's event shows the same masked values (a SigV4 Authorization is not passed on at all,
  // as API Gateway drops it); nothing the local run did not do is logged.
  expect(run.stdout).not.toContain('"Authorization":');
  expect(run.stdout).toContain(`"X-Amz-Security-Token":["${'*'.repeat(token.length - 4)}1234"]`);
  expect(run.stdout).not.toContain('Endpoint request headers');
  expect(run.stdout).toContain('Method request path: {id=42}');
  expect(run.stdout).toContain('Response body:\n{"id":"42"}\n');
});

test('--json prints one object with the same content', async () => {
  const run = await invoke('--method', 'POST', '--path', '/items', '--header', 'Content-Type:application/json', '--body', '{"name":"pen"}', '--json');
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(Object.keys(result)).toEqual(['request', 'status', 'latency', 'body', 'headers', 'multiValueHeaders', 'log']);
  expect(result).toMatchObject({ request: '/items', status: 200, headers: { 'Content-Type': 'application/json' } });
  expect(typeof result.latency).toBe('number');
  expect(JSON.parse(result.body).event.body).toBe('{"name":"pen"}');
  expect(result.log).toContain('Method request body before transformations: {"name":"pen"}');
  expect(result.log).toContain('Method completed with status: 200');
});

test('a function error still runs: Status 502 and the failure in the log, exit 0', async () => {
  const run = await invoke('--method', 'GET', '--path', '/items?mode=throw');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Request: \/items\?mode=throw\nStatus: 502\n/);
  expect(run.stdout).toContain('Response body:\n{"message":"Internal server error"}\n');
  expect(run.stdout).toContain('Lambda execution failed with status 200 due to customer function error: Error: boom from the handler.');
  expect(run.stdout).toContain('Method completed with status: 502');
});

test('a path with no resource: Status 403 Missing Authentication Token, exit 0', async () => {
  const run = await invoke('--method', 'GET', '--path', '/nowhere');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Request: \/nowhere\nStatus: 403\nLatency: \d+ ms\nResponse body:\n\{"message":"Missing Authentication Token"\}\n/);
});

test.each([
  [['--path', '/items'], '--method is required (GET, POST, ...)'],
  [['--method', 'GET'], '--path is required, e.g. --path /items'],
  [['--method', 'GET', '--path', 'items'], "--path must start with '/' (got 'items')"],
  [['--method', 'GET', '--path', '/items', '--header', 'nocolon'], "--header must be NAME:VALUE (got 'nocolon')"],
  [['--method', 'GET', '--path', '/items', '--query', 'limit'], "--query must be NAME=VALUE (got 'limit')"],
])('usage error %j: exit 2', async (args, message) => {
  const run = await invoke(...args);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(`vendor-outputs test-invoke: ${message}\nRun 'vendor-outputs test-invoke --help' for usage.\n`);
});

test('several APIs need --api', async () => {
  const run = await runCli(['test-invoke', '--app', twoApis, '--method', 'GET', '--path', '/']);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^vendor-outputs test-invoke: the app has 2 REST APIs; pick one with --api: First \(First[0-9A-F]{8}\), Second \(Second[0-9A-F]{8}\)\n$/);
  const picked = await runCli(['test-invoke', '--app', twoApis, '--method', 'GET', '--path', '/', '--api', 'Second']);
  expect(picked.code).toBe(0);
  expect(picked.stdout).toMatch(/^Request: \/\nStatus: 500\n/);
});

test.each([
  ['%E2%82%AC', 'header \\"X-Echo\\" has a value HTTP cannot carry'],
  ['a%0D%0Ab', 'header \\"X-Echo\\" has a value HTTP cannot carry'],
])('a function header HTTP cannot carry (v=%s): Status 502 as the server answers, the header named in the log', async (value, problem) => {
  const run = await invoke('--method', 'GET', '--path', `/reflect?v=${value}`, '--json');
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  expect([result.status, result.body]).toEqual([502, '{"message":"Internal server error"}']);
  expect(result.log).toContain('Execution failed due to configuration error: Malformed Lambda proxy response (');
  expect(JSON.stringify(result.log)).toContain(problem);
  expect(result.log).toContain('Method completed with status: 502');
});

test('names that are Object.prototype members: as query, request header and response header names', async () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  const run = await invoke('--method', 'GET', '--path', '/reflect', ...names.flatMap((n) => ['--query', `${n}=1`, '--header', `${n}:h`]), '--json');
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.status).toBe(200);
  expect(JSON.parse(result.body)).toEqual({ query: [...names].sort(), headers: [...names].sort() });
  expect(Object.keys(result.headers)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString']));
  expect(result.multiValueHeaders.toString).toEqual(['t1', 't2']);
  expect(result.log).toContain('Method request query string: {__proto__=1, constructor=1, toString=1, hasOwnProperty=1}');
});
