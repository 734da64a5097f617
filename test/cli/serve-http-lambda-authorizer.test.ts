/**
 * Lambda authorizers of HTTP APIs built by aws-cdk-lib's HttpLambdaAuthorizer, with simple
 * responses (payload 2.0) and IAM policy responses (payload 1.0), through the real server and curl:
 * the authorizer events, `requestContext.authorizer.lambda` (2.0) and `requestContext.authorizer`
 * (1.0) in the integration's event, caching by identity source for the TTL, and the refusals as
 * HTTP APIs answer them (missing identity source 401, denied 403, the authorizer failing 500).
 */
import { Duration, Fn, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { curl, inlineFunction, parseCurlResponse, Running, serve, synth } from './local/support';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify({ authorizer: event.requestContext.authorizer }) });';

/** Answers by the token: the event it got goes back in the context, with a count of its calls. */
const SIMPLE = `let calls = 0;
exports.handler = async (event) => {
  calls++;
  const token = event.type === 'REQUEST' ? event.headers['x-token'] : undefined;
  if (token === 'throw') throw new Error('authorizer broke');
  if (token === 'bad') return { isAuthorized: 'yes' };
  if (token === 'deny') return { isAuthorized: false };
  return { isAuthorized: true, context: { user: 'ana', calls, event: JSON.stringify(event) } };
};`;

const POLICY = `exports.handler = async (event) => {
  const token = event.headers['x-token'];
  if (token === 'malformed') return { principalId: 'user-7', policyDocument: { Statement: [{ Effect: 'Maybe', Action: '*', Resource: '*' }] } };
  const resource = token === 'other' ? 'arn:aws:execute-api:us-east-1:123456789012:elsewhere/*' : event.methodArn;
  return {
    principalId: 'user-7',
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: token === 'deny' ? 'Deny' : 'Allow', Resource: resource }] },
    context: { role: 'admin', event: JSON.stringify(event) },
  };
};`;

let running: Running;
let assemblyDir: string;

beforeAll(async () => {
  const assembly = synth((stack: Stack) => {
    const echo = inlineFunction(stack, 'Echo', ECHO);
    const api = new apigwv2.HttpApi(stack, 'Api');
    const simple = new HttpLambdaAuthorizer('Simple', inlineFunction(stack, 'SimpleFn', SIMPLE), {
      responseTypes: [HttpLambdaResponseType.SIMPLE], identitySource: ['$request.header.X-Token'], resultsCacheTtl: Duration.seconds(60),
    });
    const uncached = new HttpLambdaAuthorizer('Uncached', inlineFunction(stack, 'UncachedFn', SIMPLE), {
      responseTypes: [HttpLambdaResponseType.SIMPLE], identitySource: ['$request.header.X-Token', '$request.querystring.q'], resultsCacheTtl: Duration.seconds(0),
    });
    const policy = new HttpLambdaAuthorizer('Policy', inlineFunction(stack, 'PolicyFn', POLICY), {
      responseTypes: [HttpLambdaResponseType.IAM], identitySource: ['$request.header.X-Token'], resultsCacheTtl: Duration.seconds(60),
    });
    const v2 = new HttpLambdaIntegration('V2', echo);
    const v1 = new HttpLambdaIntegration('V1', echo, { payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_1_0 });
    api.addRoutes({ path: '/simple/{id}', methods: [apigwv2.HttpMethod.GET], integration: v2, authorizer: simple });
    api.addRoutes({ path: '/simple-v1', methods: [apigwv2.HttpMethod.GET], integration: v1, authorizer: simple });
    api.addRoutes({ path: '/uncached', methods: [apigwv2.HttpMethod.GET], integration: v2, authorizer: uncached });
    api.addRoutes({ path: '/policy', methods: [apigwv2.HttpMethod.GET], integration: v2, authorizer: policy });
    api.addRoutes({ path: '/policy-v1', methods: [apigwv2.HttpMethod.GET], integration: v1, authorizer: policy });

    // Authorizers that cannot work locally: a function outside the template, an authorizer outside
    // it, an issuer known only after deploy.
    const direct = new apigwv2.CfnIntegration(stack, 'Direct', { apiId: api.apiId, integrationType: 'AWS_PROXY', integrationUri: echo.functionArn, payloadFormatVersion: '2.0' });
    const target = `integrations/${direct.ref}`;
    const elsewhere = new apigwv2.CfnAuthorizer(stack, 'Elsewhere', {
      apiId: api.apiId,
      authorizerType: 'REQUEST',
      name: 'Elsewhere',
      identitySource: ['$request.header.X-Token'],
      authorizerPayloadFormatVersion: '2.0',
      enableSimpleResponses: true,
      authorizerUri: 'arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn:aws:lambda:us-east-1:111122223333:function:elsewhere/invocations',
    });
    const later = new apigwv2.CfnAuthorizer(stack, 'Later', {
      apiId: api.apiId,
      authorizerType: 'JWT',
      name: 'Later',
      identitySource: ['$request.header.Authorization'],
      jwtConfiguration: { issuer: Fn.importValue('IssuerOfAnotherStack'), audience: ['a'] },
    });
    const route = (id: string, routeKey: string, props: Partial<apigwv2.CfnRouteProps>) => {
      new apigwv2.CfnRoute(stack, id, { apiId: api.apiId, routeKey, target, ...props });
    };
    route('ElsewhereRoute', 'GET /elsewhere', { authorizationType: 'CUSTOM', authorizerId: elsewhere.ref });
    route('OutsideRoute', 'GET /outside', { authorizationType: 'CUSTOM', authorizerId: 'abc123' });
    route('LaterRoute', 'GET /later', { authorizationType: 'JWT', authorizerId: later.ref });
  }, { stackName: 'HttpLambdaAuth' });
  assemblyDir = assembly;
  running = await serve(assembly, { quiet: true });
});

afterAll(async () => {
  await running?.close();
});

async function call(target: string, token?: string): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  const args = token === undefined ? [] : ['-H', `X-Token: ${token}`];
  return parseCurlResponse((await curl(['-i', ...args, `${running.url.replace(/\/$/, '')}${target}`])).stdout);
}

async function authorizerOf(target: string, token: string): Promise<any> {
  const answer = await call(target, token);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body).authorizer;
}

describe('simple responses (payload 2.0)', () => {
  test('isAuthorized true: the context reaches requestContext.authorizer.lambda; the authorizer got the 2.0 authorizer event', async () => {
    const lambda = (await authorizerOf('/simple/7?a=1', 'allow-1')).lambda;
    expect(lambda.user).toBe('ana');
    const event = JSON.parse(lambda.event);
    expect(event).toMatchObject({
      version: '2.0',
      type: 'REQUEST',
      routeArn: `arn:aws:execute-api:us-east-1:123456789012:${readLocalApp(assemblyDir).apis[0].apiId}/$default/GET/simple/7`,
      identitySource: ['allow-1'],
      routeKey: 'GET /simple/{id}',
      rawPath: '/simple/7',
      rawQueryString: 'a=1',
      pathParameters: { id: '7' },
      queryStringParameters: { a: '1' },
      requestContext: { http: { method: 'GET', path: '/simple/7' }, routeKey: 'GET /simple/{id}', stage: '$default' },
    });
    expect(event.headers['x-token']).toBe('allow-1');
    expect(event).not.toHaveProperty('body');
  });

  test('payload 1.0 integration: the context\'s keys in requestContext.authorizer', async () => {
    const authorizer = await authorizerOf('/simple-v1', 'allow-v1');
    expect(authorizer.user).toBe('ana');
    expect(authorizer).not.toHaveProperty('lambda');
  });

  test('the answer is cached per identity source value for the TTL; a TTL of 0 calls the function each time', async () => {
    const first = (await authorizerOf('/simple/1', 'cache-me')).lambda.calls;
    expect((await authorizerOf('/simple/2', 'cache-me')).lambda.calls).toBe(first);
    expect((await authorizerOf('/simple/1', 'another')).lambda.calls).toBeGreaterThan(first);
    const once = (await authorizerOf('/uncached?q=1', 'same')).lambda.calls;
    expect((await authorizerOf('/uncached?q=1', 'same')).lambda.calls).toBe(once + 1);
  });

  test('a missing identity source is 401 Unauthorized without calling the function', async () => {
    expect(await call('/simple/1')).toMatchObject({ status: 401, body: '{"message":"Unauthorized"}' });
    expect(await call('/uncached', 'token-without-q')).toMatchObject({ status: 401, body: '{"message":"Unauthorized"}' });
    expect(running.lines.some((l) => l.includes('Lambda authorizer Uncached: 401, $request.querystring.q is missing or empty'))).toBe(true);
  });

  test('isAuthorized false is 403 Forbidden', async () => {
    expect(await call('/simple/1', 'deny')).toMatchObject({ status: 403, body: '{"message":"Forbidden"}' });
    expect(running.lines.some((l) => l.includes('Lambda authorizer Simple: 403, isAuthorized is false'))).toBe(true);
  });

  test('the authorizer throwing, or answering without a boolean isAuthorized, is 500 Internal Server Error', async () => {
    expect(await call('/simple/1', 'throw')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(await call('/simple/1', 'bad')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    const lines = running.lines.join('\n');
    expect(lines).toContain('Lambda authorizer Simple: 500, the function failed (Error: authorizer broke)');
    expect(lines).toContain('Lambda authorizer Simple: 500, malformed answer: isAuthorized is not a boolean (simple responses)');
  });
});

describe('IAM policy responses (payload 1.0)', () => {
  test('a policy allowing the route ARN: the context reaches requestContext.authorizer.lambda; the authorizer got the 1.0 event', async () => {
    const lambda = (await authorizerOf('/policy', 'allow')).lambda;
    expect(lambda.role).toBe('admin');
    const event = JSON.parse(lambda.event);
    expect(event).toMatchObject({ version: '1.0', type: 'REQUEST', identitySource: 'allow', authorizationToken: 'allow', resource: '/policy', httpMethod: 'GET' });
    expect(event.methodArn).toMatch(/:Api\w*\/\$default\/GET\/policy$/);
  });

  test('payload 1.0 integration: the context\'s keys and principalId in requestContext.authorizer', async () => {
    expect(await authorizerOf('/policy-v1', 'allow-v1')).toMatchObject({ role: 'admin', principalId: 'user-7' });
  });

  test('a cached policy is evaluated again for each route: the one that allowed /policy does not allow /policy-v1 (403)', async () => {
    await authorizerOf('/policy', 'only-policy');
    expect(await call('/policy-v1', 'only-policy')).toMatchObject({ status: 403, body: '{"message":"Forbidden"}' });
  });

  test('an explicit Deny, or a policy for another resource, is 403 Forbidden', async () => {
    expect(await call('/policy', 'deny')).toMatchObject({ status: 403, body: '{"message":"Forbidden"}' });
    expect(await call('/policy', 'other')).toMatchObject({ status: 403, body: '{"message":"Forbidden"}' });
    const lines = running.lines.join('\n');
    expect(lines).toContain('the policy of user-7 explicitly denies');
    expect(lines).toContain('no statement of the policy of user-7 allows');
  });
});

describe('authorizers that cannot work locally', () => {
  test('a policy that cannot be read is 500 Internal Server Error', async () => {
    expect(await call('/policy', 'malformed')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(running.lines.join('\n')).toContain('Lambda authorizer Policy: 500, malformed answer: invalid policy document: Effect "Maybe" is neither Allow nor Deny');
  });

  test('an authorizer whose function is outside the template: warned of at start, its routes answer 500', async () => {
    expect(readLocalApp(assemblyDir).warnings).toContain('HttpLambdaAuth/Elsewhere: Lambda authorizer Elsewhere: AuthorizerUri names no function of this template; its routes answer 500');
    expect(await call('/elsewhere', 'allow')).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(running.lines.join('\n')).toContain('Lambda authorizer Elsewhere: 500, its AuthorizerUri names no function of the template');
  });

  test('a route whose authorizer is not in the template answers 500 and is listed as not served with why', async () => {
    const answer = await call('/outside', 'allow');
    expect(answer).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
    expect(running.lines).toContain(`${answer.headers['apigw-requestid']} GATEWAY GET /outside: the route's CUSTOM authorizer is not in the template or of a type not read; answered 500`);
    const app = readLocalApp(assemblyDir);
    expect(app.warnings).toContain('HttpLambdaAuth/OutsideRoute: the route\'s AuthorizerId names no authorizer of this template; its requests answer 500');
    expect(app.unserved).toEqual([expect.objectContaining({
      kind: 'HTTP API route', logicalId: 'OutsideRoute', reason: 'the route\'s CUSTOM authorizer is not in the template or of a type not read (the route answers 500)',
    })]);
    expect(running.server.routeTable().some((l) => /GET\s+\S+\/outside\s+-> not served \(the route's CUSTOM authorizer is not in the template or of a type not read: answers 500\)\s+\[CUSTOM\]$/.test(l.trim()))).toBe(true);
  });

  test('a JWT authorizer whose issuer is known only after deploy: warned of, every token refused (401)', async () => {
    expect(readLocalApp(assemblyDir).warnings).toContain('HttpLambdaAuth/Later: JWT authorizer Later: the issuer is not known before deploy; every token is refused locally');
    expect(await call('/later', 'allow')).toMatchObject({ status: 401 });
    const answer = parseCurlResponse((await curl(['-i', '-H', 'Authorization: Bearer x.y.z', `${running.url.replace(/\/$/, '')}/later`])).stdout);
    expect(answer).toMatchObject({ status: 401, body: '{"message":"Unauthorized"}' });
    expect(running.lines.join('\n')).toContain("JWT authorizer Later: 401, the authorizer's issuer is not known before deploy");
  });
});

test('the listing names each route\'s Lambda authorizer; only the route without its authorizer is listed as not served', () => {
  const lines = running.server.routeTable().map((l) => l.trim());
  expect(lines.some((l) => /GET\s+\S+\/simple\/\{id\}\s+-> HttpLambdaAuth\/Echo \(payload 2\.0\)\s+\[CUSTOM Simple \(payload 2\.0, simple responses, cached 60 s\)\]$/.test(l))).toBe(true);
  expect(lines.some((l) => /GET\s+\S+\/policy\s+-> HttpLambdaAuth\/Echo \(payload 2\.0\)\s+\[CUSTOM Policy \(payload 1\.0, IAM policy responses, cached 60 s\)\]$/.test(l))).toBe(true);
  expect(lines.some((l) => /\/uncached\s+.*\[CUSTOM Uncached \(payload 2\.0, simple responses, not cached\)\]$/.test(l))).toBe(true);
  expect(readLocalApp(assemblyDir).unserved.map((u) => u.logicalId)).toEqual(['OutsideRoute']);
});
