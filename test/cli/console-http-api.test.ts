/**
 * HTTP APIs in the console page of a real `serve` process: the resource pane shows an HTTP API's
 * routes as a tree of their paths (the `$default` route at the root), and the TEST runs the form
 * through the HTTP API's gateway as `test-invoke` does.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { CliProcess, startCli, synth } from './local/support';

const HANDLER = 'exports.handler = async (e) => ({ route: e.routeKey, path: e.rawPath, id: (e.pathParameters || {}).id || null, q: e.rawQueryString, method: e.requestContext.http.method });';

let cli: CliProcess;
let consoleUrl: string;
let apiId: string;

beforeAll(async () => {
  const assembly = synth((stack: Stack) => {
    const fn = new lambda.Function(stack, 'RoutesFn', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(HANDLER) });
    const integration = new HttpLambdaIntegration('Routes', fn);
    const api = new apigwv2.HttpApi(stack, 'Shop', { apiName: 'Shop', defaultIntegration: integration });
    api.addRoutes({ path: '/items', methods: [apigwv2.HttpMethod.GET, apigwv2.HttpMethod.POST], integration });
    api.addRoutes({ path: '/items/{id}', methods: [apigwv2.HttpMethod.GET], integration });
    api.addRoutes({ path: '/files/{proxy+}', methods: [apigwv2.HttpMethod.ANY], integration });
  }, { stackName: 'ConsoleHttp' });
  cli = startCli(['serve', '--app', assembly, '--port', '0', '--quiet']);
  const out = await cli.waitFor('Press Ctrl+C to stop.');
  consoleUrl = /^Console \(the API Gateway console's TEST, in a browser\): (http:\/\/127\.0\.0\.1:\d+\/@console\/)$/m.exec(out)![1];
  const listed = await (await fetch(`${consoleUrl}api/apis`)).json() as { apis: Array<{ id: string }> };
  apiId = listed.apis[0].id;
});

afterAll(async () => {
  cli?.child.kill('SIGTERM');
  await cli?.exited;
});

const fnLabel = 'ConsoleHttp/RoutesFn (payload 2.0)';
const route = (httpMethod: string) => ({ httpMethod, authorizationType: 'NONE', apiKeyRequired: false, integration: fnLabel });

test("an HTTP API's routes as a tree of paths: literal before {param} before {proxy+}, the $default route at the root", async () => {
  const { apis } = await (await fetch(`${consoleUrl}api/apis`)).json() as { apis: any[] };
  expect(apis).toHaveLength(1);
  expect(apis[0]).toMatchObject({ kind: 'HTTP', name: 'Shop', stackName: 'ConsoleHttp', stages: ['$default'] });
  expect(apis[0].urls).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/)]);
  expect(apis[0].root).toEqual({
    path: '/',
    pathPart: '',
    methods: [route('$default')],
    children: [
      {
        path: '/files',
        pathPart: 'files',
        methods: [],
        children: [{ path: '/files/{proxy+}', pathPart: '{proxy+}', methods: [route('ANY')], children: [] }],
      },
      {
        path: '/items',
        pathPart: 'items',
        methods: [route('GET'), route('POST')],
        children: [{ path: '/items/{id}', pathPart: '{id}', methods: [route('GET')], children: [] }],
      },
    ],
  });
});

test('the TEST runs the form through the HTTP API: the route taken, its path parameters, the query', async () => {
  const response = await fetch(`${consoleUrl}api/test-invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api: apiId, method: 'GET', path: '/items/42', query: 'x=1', headers: '', body: '' }),
  });
  expect(response.status).toBe(200);
  const result = await response.json() as { status: number; body: string; log: string; request: string };
  expect(result.status).toBe(200);
  expect(JSON.parse(result.body)).toEqual({ route: 'GET /items/{id}', path: '/items/42', id: '42', q: 'x=1', method: 'GET' });
  expect(result.request).toBe('GET /items/42?x=1');
  expect(result.log).toContain('stage $default');
});

test('a form naming no served API is a 400 that lists the served ones', async () => {
  const response = await fetch(`${consoleUrl}api/test-invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api: 'Nope/Nope', method: 'GET', path: '/items', query: '', headers: '', body: '' }),
  });
  expect(response.status).toBe(400);
  expect(await response.text()).toContain(`no served API 'Nope/Nope' (served: ${apiId})`);
});
