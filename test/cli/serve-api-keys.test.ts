/**
 * `serve` with API keys and usage plans built by aws-cdk-lib's ApiKey, UsagePlan and stage
 * options: the key checked against the usage plans of the API and stage (403 Forbidden otherwise),
 * the key source AUTHORIZER, the key id in the proxy event, usage plan throttling and quotas and
 * stage method throttling (429), generated keys' local values and `--api-key`.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, Running, serve, startCli, synth } from './local/support';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { LocalGateway } from '../../src/cli/local/rest/gateway';
import { localKeyValue } from '../../src/cli/local/rest/reader/usage-plan-reader';
import { runCli } from '../support/cli';

const ALPHA = 'alpha-key-0123456789abcdef';
const DISABLED = 'disabled-key-0123456789abc';
const BETA_ONLY = 'beta-only-key-0123456789ab';
const QUOTA = 'quota-key-0123456789abcdefg';
const THROTTLE = 'throttle-key-0123456789abcd';
const METHOD = 'method-key-0123456789abcdef';

function echoFunction(stack: Stack): lambda.Function {
  return new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify({ identity: e.requestContext.identity, authorizer: e.requestContext.authorizer }) });'),
  });
}

/** An API whose keys come from the x-api-key header (the default source). */
function buildHeaderApi(stack: Stack): void {
  const echo = new apigw.LambdaIntegration(echoFunction(stack));
  const api = new apigw.RestApi(stack, 'Api', {
    restApiName: 'KeyedApi',
    deployOptions: { stageName: 'prod', methodOptions: { '/throttled/GET': { throttlingBurstLimit: 2, throttlingRateLimit: 1 } } },
  });
  const items = api.root.addResource('items');
  const itemsGet = items.addMethod('GET', echo, { apiKeyRequired: true });
  api.root.addResource('limited').addMethod('GET', echo, { apiKeyRequired: true });
  api.root.addResource('open').addMethod('GET', echo);
  api.root.addResource('throttled').addMethod('GET', echo);
  const beta = new apigw.Stage(stack, 'Beta', { deployment: new apigw.Deployment(stack, 'BetaDeployment', { api }), stageName: 'beta' });

  const main = api.addUsagePlan('Main', { name: 'Main' });
  main.addApiStage({ stage: api.deploymentStage });
  main.addApiKey(api.addApiKey('Alpha', { apiKeyName: 'alpha', value: ALPHA }));
  main.addApiKey(new apigw.ApiKey(stack, 'Generated', { apiKeyName: 'generated' }));
  main.addApiKey(new apigw.ApiKey(stack, 'Disabled', { value: DISABLED, enabled: false }));

  const betaPlan = new apigw.UsagePlan(stack, 'BetaPlan', { apiStages: [{ api, stage: beta }] });
  betaPlan.addApiKey(new apigw.ApiKey(stack, 'BetaOnly', { value: BETA_ONLY }));

  const quota = new apigw.UsagePlan(stack, 'QuotaPlan', { apiStages: [{ api, stage: api.deploymentStage }], quota: { limit: 3, period: apigw.Period.DAY } });
  quota.addApiKey(new apigw.ApiKey(stack, 'QuotaKey', { value: QUOTA }));

  const throttled = new apigw.UsagePlan(stack, 'ThrottlePlan', { apiStages: [{ api, stage: api.deploymentStage }], throttle: { rateLimit: 1, burstLimit: 2 } });
  throttled.addApiKey(new apigw.ApiKey(stack, 'ThrottleKey', { value: THROTTLE }));

  const perMethod = new apigw.UsagePlan(stack, 'MethodPlan', {
    apiStages: [{ api, stage: api.deploymentStage, throttle: [{ method: itemsGet, throttle: { rateLimit: 1, burstLimit: 1 } }] }],
    throttle: { rateLimit: 1, burstLimit: 3 },
  });
  perMethod.addApiKey(new apigw.ApiKey(stack, 'MethodKey', { value: METHOD }));

  // The API's own answer for a used-up quota (the gateway response type QUOTA_EXCEEDED).
  new apigw.GatewayResponse(stack, 'QuotaResponse', { restApi: api, type: apigw.ResponseType.QUOTA_EXCEEDED, responseHeaders: { 'x-quota': "'spent'" } });

  // A key in no usage plan of this API.
  new apigw.ApiKey(stack, 'Stray', { value: 'stray-key-0123456789abcdef' });
}

let running: Running;
let assembly: string;

beforeAll(async () => {
  assembly = synth(buildHeaderApi, { stackName: 'KeyStack' });
  running = await serve(assembly);
});

afterAll(async () => {
  await running?.close();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const args = ['-i'];
  for (const [name, value] of Object.entries(headers)) {
    args.push('-H', `${name}: ${value}`);
  }
  return parseCurlResponse((await curl([...args, url])).stdout);
}

const prod = (path: string) => `${running.url}${path}`;
const beta = (path: string) => `${running.server.endpoints[0].urls.find((u) => u.endsWith('/beta/'))}${path}`;

function expectForbidden(response: { status: number; body: string; headers: Record<string, string> }): void {
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"message":"Forbidden"}');
  expect(response.headers['x-amzn-errortype']).toBe('ForbiddenException');
}

test('a key of a usage plan for the stage is let through; its value and id reach requestContext.identity', async () => {
  const response = await get(prod('items'), { 'x-api-key': ALPHA });
  expect(response.status).toBe(200);
  const { identity } = JSON.parse(response.body);
  expect(identity.apiKey).toBe(ALPHA);
  expect(identity.apiKeyId).toMatch(/^ApiAlpha[0-9A-F]{8}$/);
});

test('a generated key answers to its local value, derived from the stack and logical id', async () => {
  const logicalId = restApi(running.server.endpoints[0].api).usage!.keys.find((k) => k.name === 'generated')!.logicalId;
  const value = localKeyValue('KeyStack', logicalId);
  expect(value).toMatch(/^[0-9a-f]{40}$/);
  expect((await get(prod('items'), { 'x-api-key': value })).status).toBe(200);
});

test.each([
  ['no x-api-key header', {}],
  ['a value that is no key', { 'x-api-key': 'wrong-key-0123456789abcdef' }],
  ['a disabled key', { 'x-api-key': DISABLED }],
  ['a key whose usage plan has another stage only', { 'x-api-key': BETA_ONLY }],
  ['a key in no usage plan of the API', { 'x-api-key': 'stray-key-0123456789abcdef' }],
])('%s is 403 Forbidden (INVALID_API_KEY), with a note on the terminal', async (_why, headers) => {
  const response = await get(prod('items'), headers);
  expectForbidden(response);
  expect(running.lines.some((l) => l.includes(`${response.headers['x-amzn-requestid']} GATEWAY GET /items requires an API key:`))).toBe(true);
});

test('the key of the other stage works on that stage; a method without ApiKeyRequired needs no key', async () => {
  expect((await get(beta('items'), { 'x-api-key': BETA_ONLY })).status).toBe(200);
  expectForbidden(await get(beta('items'), { 'x-api-key': ALPHA }));
  const open = await get(prod('open'));
  expect(open.status).toBe(200);
  expect(JSON.parse(open.body).identity.apiKey).toBeUndefined();
});

test('a used-up quota is 429 Limit Exceeded (QUOTA_EXCEEDED)', async () => {
  for (let i = 0; i < 3; i++) {
    expect((await get(prod('limited'), { 'x-api-key': QUOTA })).status).toBe(200);
  }
  const refused = await get(prod('limited'), { 'x-api-key': QUOTA });
  expect(refused.status).toBe(429);
  expect(refused.body).toBe('{"message":"Limit Exceeded"}');
  expect(refused.headers['x-amzn-errortype']).toBe('LimitExceededException');
  expect(refused.headers['x-quota']).toBe('spent');
  expect(running.lines.some((l) => l.includes('exceeded quota limit') && l.includes('Limit: 3 Period: DAY'))).toBe(true);
  // The quota is the key's: another key of another plan still passes.
  expect((await get(prod('limited'), { 'x-api-key': ALPHA })).status).toBe(200);
});

test('a usage plan throttle over its burst is 429 Too Many Requests (THROTTLED)', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    statuses.push((await get(prod('limited'), { 'x-api-key': THROTTLE })).status);
  }
  expect(statuses).toEqual([200, 200, 429]);
  const refused = await get(prod('limited'), { 'x-api-key': THROTTLE });
  expect(refused.body).toBe('{"message":"Too Many Requests"}');
  expect(refused.headers['x-amzn-errortype']).toBe('TooManyRequestsException');
  expect(refused.headers['x-quota']).toBeUndefined();
});

test('a usage plan method throttle limits that method, and the plan\'s throttle still counts its requests', async () => {
  // Plan: burst 3 for the key; GET /items: burst 1 of its own.
  const statuses: number[] = [];
  for (const path of ['items', 'items', 'limited', 'limited', 'limited']) {
    statuses.push((await get(prod(path), { 'x-api-key': METHOD })).status);
  }
  expect(statuses).toEqual([200, 429, 200, 200, 429]);
});

test('stage method throttling (methodOptions) applies without a key', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    statuses.push((await get(prod('throttled'))).status);
  }
  expect(statuses).toEqual([200, 200, 429]);
  expect(running.lines.some((l) => l.includes('Method throttle limit exceeded for Stage prod, Resource /throttled, HttpMethod GET. Limit: 1.00 Burst: 2'))).toBe(true);
  // Other methods of the stage are not throttled.
  for (let i = 0; i < 3; i++) {
    expect((await get(prod('open'))).status).toBe(200);
  }
});

test('test-invoke (the console\'s TEST) skips API keys and throttling', async () => {
  const app = readLocalApp(assembly);
  const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker: running.server.invoker, functions: app.functions, testInvoke: true });
  const send = (target: string) => gateway.handle({ method: 'GET', target, rawHeaders: [], body: Buffer.alloc(0), sourceIp: '127.0.0.1' });
  expect((await send('/items')).statusCode).toBe(200);
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push((await send('/throttled')).statusCode);
  }
  expect(statuses).toEqual([200, 200, 200, 200]);
});

describe('the key source AUTHORIZER', () => {
  const KEY = 'authorizer-key-0123456789ab';
  let authorized: Running;

  beforeAll(async () => {
    const dir = synth((stack) => {
      const authFn = new lambda.Function(stack, 'AuthFn', {
        runtime: lambda.Runtime.NODEJS_20_X,
        handler: 'index.handler',
        code: lambda.Code.fromInline(`exports.handler = async (event) => ({
          principalId: 'user',
          policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
          ...(event.authorizationToken === 'none' ? {} : { usageIdentifierKey: event.authorizationToken }),
        });`),
      });
      const authorizer = new apigw.TokenAuthorizer(stack, 'Authorizer', { handler: authFn });
      const api = new apigw.RestApi(stack, 'Api', { apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER, deployOptions: { stageName: 'prod' } });
      api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(echoFunction(stack)), { apiKeyRequired: true, authorizer });
      const plan = api.addUsagePlan('Plan');
      plan.addApiStage({ stage: api.deploymentStage });
      plan.addApiKey(api.addApiKey('Key', { value: KEY }));
    });
    authorized = await serve(dir);
  });

  afterAll(async () => {
    await authorized?.close();
  });

  test('the authorizer\'s usageIdentifierKey is the key; an x-api-key header is not read', async () => {
    const ok = await get(`${authorized.url}items`, { Authorization: KEY });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).identity.apiKey).toBe(KEY);
    expectForbidden(await get(`${authorized.url}items`, { 'Authorization': 'none', 'x-api-key': KEY }));
    expectForbidden(await get(`${authorized.url}items`, { Authorization: 'wrong-key-0123456789abcdef' }));
  });
});

describe('a usage plan of two APIs', () => {
  const KEY = 'shared-plan-key-0123456789ab';
  let both: Running;

  beforeAll(async () => {
    const dir = synth((stack) => {
      const plan = new apigw.UsagePlan(stack, 'Plan', { quota: { limit: 3, period: apigw.Period.MONTH } });
      plan.addApiKey(new apigw.ApiKey(stack, 'Key', { value: KEY }));
      for (const name of ['First', 'Second']) {
        const api = new apigw.RestApi(stack, name, { deployOptions: { stageName: 'prod' } });
        api.root.addResource('items').addMethod('GET', new apigw.MockIntegration({
          requestTemplates: { 'application/json': '{"statusCode": 200}' },
          integrationResponses: [{ statusCode: '200' }],
        }), { apiKeyRequired: true, methodResponses: [{ statusCode: '200' }] });
        plan.addApiStage({ stage: api.deploymentStage });
      }
    });
    both = await serve(dir);
  });

  afterAll(async () => {
    await both?.close();
  });

  test('counts a key\'s requests to both APIs against one quota', async () => {
    const [first, second] = both.server.endpoints.map((e) => `${e.urls[0]}items`);
    const statuses: number[] = [];
    for (const url of [first, second, first, second]) {
      statuses.push((await get(url, { 'x-api-key': KEY })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('vendor-outputs serve --api-key', () => {
  test('sets a key\'s value; the start-up lists keys without a template value', async () => {
    const value = 'chosen-value-0123456789abcdef';
    const cli = startCli(['serve', '--app', assembly, '--port', '0', '--api-key', `generated=${value}`]);
    try {
      const out = await cli.waitFor('Press Ctrl+C to stop.');
      expect(out).toContain('API keys without a value in the template');
      expect(out).toMatch(new RegExp(`generated \\(KeyStack/Generated\\): ${value} \\(--api-key\\)`));
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/prod\/)/.exec(out)![1];
      expect((await get(`${url}items`, { 'x-api-key': value })).status).toBe(200);
      const logicalId = restApi(running.server.endpoints[0].api).usage!.keys.find((k) => k.name === 'generated')!.logicalId;
      expectForbidden(await get(`${url}items`, { 'x-api-key': localKeyValue('KeyStack', logicalId) }));
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  test.each([
    ['no-equals-sign', /--api-key must be NAME=VALUE, NAME being the key's Name, logical id or construct path \(got 'no-equals-sign'\)/],
    ['nobody=value-0123456789abcdefghij', /--api-key nobody: no API key of a usage plan has that Name, logical id or construct path; keys: alpha \(KeyStack\/Api\/Alpha\), generated \(KeyStack\/Generated\)/],
  ])('%s exits 2 with a one-line message (the other forms: test/cli/local/rest/api-key-values.test.ts)', async (option, message) => {
    const run = await runCli(['serve', '--app', assembly, '--port', '0', '--api-key', option]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
