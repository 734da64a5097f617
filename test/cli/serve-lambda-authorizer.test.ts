/**
 * `serve` with Lambda authorizers built by aws-cdk-lib's TokenAuthorizer and RequestAuthorizer:
 * identity sources, validation expression, the policy evaluated against the method ARN, the
 * authorizer's answers mapped to API Gateway's 401/403/500, principalId and context in the proxy
 * event, and the result cache. The authorizer logs each call, which counts its invocations.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, parseCurlResponse, Running, serve, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';

const AUTHORIZER_SOURCE = `
exports.handler = async (event) => {
  const token = event.type === 'TOKEN' ? event.authorizationToken : (event.headers || {})['x-user'] + '@' + (event.queryStringParameters || {}).tenant;
  console.log('AUTHZ-CALL ' + event.type + ' ' + token + ' ' + event.methodArn);
  const policy = (effect, resource) => ({ Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] });
  if (token.startsWith('allow') || token === 'alice@acme' || token === 'anyone@friends') {
    return { principalId: 'user-' + token, policyDocument: policy('Allow', event.methodArn), context: { tier: 'gold', count: 7, admin: true }, usageIdentifierKey: 'key-1' };
  }
  if (token.startsWith('deny')) {
    return { principalId: 'user-deny', policyDocument: { Version: '2012-10-17', Statement: [policy('Allow', '*').Statement[0], policy('Deny', event.methodArn).Statement[0]] } };
  }
  if (token.startsWith('other')) {
    return { principalId: 'user-other', policyDocument: policy('Allow', 'arn:aws:execute-api:us-east-1:123456789012:Elsewhere/*') };
  }
  if (token.startsWith('unauthorized')) {
    throw new Error('Unauthorized');
  }
  if (token.startsWith('boom')) {
    throw new Error('boom');
  }
  return 'not an authorizer result';
};`;

function buildApi(stack: Stack): void {
  const echo = new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify({ authorizer: e.requestContext.authorizer }) });'),
  });
  const authFn = new lambda.Function(stack, 'AuthFn', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline(AUTHORIZER_SOURCE),
  });
  const uncached = new apigw.TokenAuthorizer(stack, 'Uncached', {
    handler: authFn,
    authorizerName: 'KeyHeaderAuthorizer',
    identitySource: 'method.request.header.x-api-key',
    validationRegex: '(allow|deny|other|unauthorized|boom|garbage).*',
    resultsCacheTtl: Duration.seconds(0),
  });
  const cached = new apigw.TokenAuthorizer(stack, 'Cached', { handler: authFn, authorizerName: 'CachedAuthorizer' });
  const byRequest = new apigw.RequestAuthorizer(stack, 'ByRequest', {
    handler: authFn,
    authorizerName: 'RequestAuthorizer',
    identitySources: [apigw.IdentitySource.header('x-user'), apigw.IdentitySource.queryString('tenant')],
    resultsCacheTtl: Duration.seconds(0),
  });
  const sourceless = new apigw.RequestAuthorizer(stack, 'Sourceless', {
    handler: authFn,
    identitySources: [],
    resultsCacheTtl: Duration.seconds(0),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(echo), { authorizer: uncached });
  api.root.addResource('cached').addMethod('GET', new apigw.LambdaIntegration(echo), { authorizer: cached });
  api.root.addResource('tenants').addMethod('GET', new apigw.LambdaIntegration(echo), { authorizer: byRequest });
  api.root.addResource('anyone').addMethod('GET', new apigw.LambdaIntegration(echo), { authorizer: sourceless });
  const external = new apigw.CfnAuthorizer(stack, 'External', {
    restApiId: api.restApiId,
    name: 'ExternalAuthorizer',
    type: 'TOKEN',
    identitySource: 'method.request.header.Authorization',
    authorizerUri: 'arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn:aws:lambda:us-east-1:111111111111:function:elsewhere/invocations',
  });
  api.root.addResource('external').addMethod('GET', new apigw.LambdaIntegration(echo), {
    authorizer: { authorizerId: external.ref, authorizationType: apigw.AuthorizationType.CUSTOM },
  });
  new apigw.GatewayResponse(stack, 'Denied', { restApi: api, type: apigw.ResponseType.ACCESS_DENIED, responseHeaders: { 'x-denied': "'yes'" } });
}

let running: Running;
let assembly: string;

beforeAll(async () => {
  assembly = synth(buildApi);
  running = await serve(assembly);
});

afterAll(async () => {
  await running?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const args = ['-i'];
  for (const [name, value] of Object.entries(headers)) {
    args.push('-H', `${name}: ${value}`);
  }
  return parseCurlResponse((await curl([...args, `${running.url}${path}`])).stdout);
}

/** The authorizer's log lines so far that contain `marker`, after its logs had time to arrive. */
async function calls(marker: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return running.lines.filter((l) => l.includes(`AUTHZ-CALL ${marker}`)).length;
}

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2)}`;

test('the route listing names each method\'s authorizer', () => {
  const listing = running.server.routeTable().join('\n');
  expect(listing).toMatch(/GET +\S+\/items +-> .*\[CUSTOM KeyHeaderAuthorizer\]/);
  expect(listing).toMatch(/GET +\S+\/tenants +-> .*\[CUSTOM RequestAuthorizer\]/);
});

test('an allowing policy lets the request through; principalId and context reach requestContext.authorizer', async () => {
  const token = unique('allow');
  const response = await get('items', { 'x-api-key': token });
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body).authorizer).toEqual({ principalId: `user-${token}`, tier: 'gold', count: 7, admin: true });
  expect(await calls(`TOKEN ${token} arn:aws:execute-api:us-east-1:123456789012:`)).toBe(1);
  expect(running.lines.some((l) => l.includes(`AUTHZ-CALL TOKEN ${token} `) && /:Api[0-9A-F]+\/prod\/GET\/items$/.test(l))).toBe(true);
});

test('the token is read from the identity source header only: a random Authorization header is ignored', async () => {
  const response = await get('items', { Authorization: 'allow-me' });
  expect(response.status).toBe(401);
  expect(response.body).toBe('{"message":"Unauthorized"}');
  expect(await calls('TOKEN allow-me')).toBe(0);
});

test('a missing identity source is 401 without calling the authorizer', async () => {
  const before = await calls('');
  const response = await get('items');
  expect(response.status).toBe(401);
  expect(response.body).toBe('{"message":"Unauthorized"}');
  expect(response.headers['x-amzn-errortype']).toBe('UnauthorizedException');
  expect(await calls('')).toBe(before);
});

test('a token that does not match the validation expression is 401 without calling the authorizer', async () => {
  const token = unique('zzz');
  const response = await get('items', { 'x-api-key': token });
  expect(response.status).toBe(401);
  expect(await calls(`TOKEN ${token}`)).toBe(0);
});

test('an explicit Deny is 403 with the gateway\'s wording, and the ACCESS_DENIED gateway response applies', async () => {
  const response = await get('items', { 'x-api-key': unique('deny') });
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"Message":"User is not authorized to access this resource with an explicit deny"}');
  expect(response.headers['x-denied']).toBe('yes');
});

test('a policy with no matching Allow is 403 (implicit deny)', async () => {
  const response = await get('items', { 'x-api-key': unique('other') });
  expect(response.status).toBe(403);
  expect(response.body).toBe('{"Message":"User is not authorized to access this resource"}');
});

test('the authorizer throwing Unauthorized is 401', async () => {
  const response = await get('items', { 'x-api-key': unique('unauthorized') });
  expect(response.status).toBe(401);
  expect(response.body).toBe('{"message":"Unauthorized"}');
});

test('any other error, or a result that is not an authorizer result, is 500 AuthorizerConfigurationException', async () => {
  for (const token of [unique('boom'), unique('garbage')]) {
    const response = await get('items', { 'x-api-key': token });
    expect(response.status).toBe(500);
    expect(response.body).toBe('{"message":null}');
    expect(response.headers['x-amzn-errortype']).toBe('AuthorizerConfigurationException');
  }
});

test('with the default TTL a second call with the same token uses the cached result; with TTL 0 the authorizer runs each time', async () => {
  const token = unique('allow');
  expect((await get('cached', { Authorization: token })).status).toBe(200);
  expect((await get('cached', { Authorization: token })).status).toBe(200);
  expect(await calls(`TOKEN ${token} `)).toBe(1);
  const uncachedToken = unique('allow');
  expect((await get('items', { 'x-api-key': uncachedToken })).status).toBe(200);
  expect((await get('items', { 'x-api-key': uncachedToken })).status).toBe(200);
  expect(await calls(`TOKEN ${uncachedToken} `)).toBe(2);
});

test('a cached deny is evaluated again and still denies', async () => {
  const token = unique('deny');
  expect((await get('cached', { Authorization: token })).status).toBe(403);
  expect((await get('cached', { Authorization: token })).status).toBe(403);
  expect(await calls(`TOKEN ${token} `)).toBe(1);
});

test('a REQUEST authorizer gets the request event and needs every identity source', async () => {
  const allowed = await get('tenants?tenant=acme', { 'x-user': 'alice' });
  expect(allowed.status).toBe(200);
  expect(JSON.parse(allowed.body).authorizer.principalId).toBe('user-alice@acme');
  expect(await calls('REQUEST alice@acme ')).toBe(1);
  const noQuery = await get('tenants', { 'x-user': 'alice' });
  expect(noQuery.status).toBe(401);
  const noHeader = await get('tenants?tenant=acme');
  expect(noHeader.status).toBe(401);
  expect(await calls('REQUEST alice@acme ')).toBe(1);
  const other = await get('tenants?tenant=acme', { 'x-user': 'bob' });
  expect(other.status).toBe(500);
});

test('a REQUEST authorizer without identity sources and without caching is called for every request', async () => {
  for (let i = 0; i < 2; i++) {
    const response = await get('anyone?tenant=friends', { 'x-user': 'anyone' });
    expect(response.status).toBe(200);
  }
  expect(await calls('REQUEST anyone@friends ')).toBe(2);
  expect((await get('anyone')).status).toBe(500);
});

test('an authorizer whose function is not in the template is announced at start and answers 500', async () => {
  expect(running.server.routeTable().join('\n')).toMatch(/GET +\S+\/external +-> .*\[CUSTOM ExternalAuthorizer\]/);
  expect(readLocalApp(assembly).warnings).toContainEqual(expect.stringMatching(/External\w*: Lambda authorizer ExternalAuthorizer does not invoke a Lambda function of this template; its methods answer 500$/));
  const response = await get('external', { Authorization: 'allow-anything' });
  expect(response.status).toBe(500);
  expect(response.body).toBe('{"message":null}');
  expect(running.lines).toContainEqual(`${response.headers['x-amzn-requestid']} GATEWAY authorizer ExternalAuthorizer: its function is not in the template, so it cannot run locally; answered 500`);
});

test('a REQUEST authorizer event has the client trace Root with the gateway\'s Parent and no Content-Length', async () => {
  const app = readLocalApp(assembly);
  const invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
  try {
    const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions });
    const log = new ExecutionLog();
    const rawHeaders: Array<[string, string]> = [
      ['x-user', 'alice'], ['Content-Length', '5'], ['X-Amzn-Trace-Id', 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1'],
    ];
    const response = await gateway.handle({ method: 'GET', target: '/prod/tenants?tenant=acme', rawHeaders, body: Buffer.from('hello'), sourceIp: '127.0.0.1' }, log);
    expect(response.statusCode).toBe(200);
    const prefix = 'Endpoint request body after transformations: ';
    const line = log.lines.map((l) => l.replace(/^.* UTC \d{4} : /, '')).find((l) => l.startsWith(`${prefix}{"type":"REQUEST"`));
    const event = JSON.parse(line!.slice(prefix.length));
    expect(event.headers).toEqual({
      'x-user': 'alice',
      'X-Amzn-Trace-Id': expect.stringMatching(/^Root=1-5759e988-bd862e3fe1be46a994272793;Parent=(?!53995c3f42cd8ad8)[0-9a-f]{16};Sampled=1$/),
      'X-Forwarded-For': '127.0.0.1',
      'X-Forwarded-Port': '80',
      'X-Forwarded-Proto': 'http',
    });
    expect(Object.keys(event.multiValueHeaders)).not.toContain('Content-Length');
  } finally {
    await invoker.close();
  }
});

test('the execution log records each authorization step, the token masked', async () => {
  const app = readLocalApp(assembly);
  const invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
  try {
    const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions });
    const send = async (token: string) => {
      const log = new ExecutionLog();
      const response = await gateway.handle({ method: 'GET', target: '/prod/items', rawHeaders: [['x-api-key', token]], body: Buffer.alloc(0), sourceIp: '127.0.0.1' }, log);
      return { status: response.statusCode, log: log.lines.map((l) => l.replace(/^.* UTC \d{4} : /, '')) };
    };
    const allowed = await send('allow-secret-token-1234');
    expect(allowed.status).toBe(200);
    expect(allowed.log).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Starting authorizer: \w+ for request: [0-9a-f-]{36}$/),
      'Incoming identity: *******************1234',
      expect.stringMatching(/^Endpoint request body after transformations: \{"type":"TOKEN","methodArn":"arn:aws:execute-api:us-east-1:123456789012:Api\w+\/prod\/GET\/items","authorizationToken":"\*{19}1234"\}$/),
      expect.stringMatching(/^Authorizer result body before parsing: \{"principalId":"user-allow-secret-token-1234"/),
      'Using valid authorizer policy for principal: user-allow-secret-token-1234',
      'Successfully completed authorizer execution',
    ]));
    const failed = await send('boom-1');
    expect(failed.status).toBe(500);
    expect(failed.log).toEqual(expect.arrayContaining(['Execution failed due to configuration error: Authorizer error (Error: boom)', 'Unable to complete authorizer execution']));
    const refused = await send('zzz');
    expect(refused.status).toBe(401);
    expect(refused.log).toEqual(expect.arrayContaining([expect.stringMatching(/^Unauthorized request: [0-9a-f-]{36}$/)]));
  } finally {
    await invoker.close();
  }
});
