/**
 * Parameter mapping and route throttling of HTTP APIs, from a real CDK stack (`HttpUrlIntegration`
 * and `HttpLambdaIntegration` with aws-cdk-lib's `ParameterMapping`/`MappingValue`, raw
 * `ResponseParameters`, the stage's `throttle` and `RouteSettings`) through the real server and
 * curl: what the backend and the function receive, and what the client gets back.
 */
import * as http from 'http';
import { AddressInfo } from 'net';
import { Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, HttpUrlIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { APIGW_ID, curl, inlineFunction, parseCurlResponse, Running, serve, synth } from './local/support';
import type { HttpApiSpec } from '../../src/cli/local/model/http-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, headers: { "content-type": "application/json", "x-fn": "fn-value" }, body: JSON.stringify(event) });';
const { MappingValue, ParameterMapping } = apigwv2;

let backend: http.Server;
let backendUrl: string;
let running: Running;
let root: string;

beforeAll(async () => {
  backend = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = req.url?.startsWith('/missing') ? 404 : 200;
      res.writeHead(status, { 'content-type': 'application/json', 'x-backend': 'one', 'x-secret': 'hidden' });
      res.end(JSON.stringify({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString(), detail: { code: 'E42', list: [1, 2] } }));
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;

  root = synth((stack: Stack) => {
    const api = new apigwv2.HttpApi(stack, 'Api', { createDefaultStage: false });
    const stage = api.addStage('Dev', { stageName: 'dev', autoDeploy: true });
    (stage.node.defaultChild as apigwv2.CfnStage).stageVariables = { color: 'blue' };
    api.addRoutes({
      path: '/url/{id}',
      methods: [apigwv2.HttpMethod.POST],
      integration: new HttpUrlIntegration('Url', `${backendUrl}/target/{id}`, {
        parameterMapping: new ParameterMapping()
          .overwriteHeader('x-from-header', MappingValue.requestHeader('x-in'))
          .appendHeader('x-multi', MappingValue.custom('added'))
          .removeHeader('x-drop')
          .overwriteHeader('x-from-query', MappingValue.requestQueryString('q'))
          .overwriteHeader('x-from-path', MappingValue.requestPathParam('id'))
          .overwriteHeader('x-from-body', MappingValue.requestBody('user.name'))
          .overwriteHeader('x-body-index', MappingValue.requestBody('tags[1]'))
          .overwriteHeader('x-body-object', MappingValue.requestBody('user'))
          .overwriteHeader('x-body-missing', MappingValue.requestBody('user.age'))
          .overwriteHeader('x-whole-path', MappingValue.custom('$request.path'))
          .overwriteHeader('x-from-context', MappingValue.contextVariable('routeKey'))
          .overwriteHeader('x-from-stage', MappingValue.custom('$stageVariables.color'))
          .overwriteHeader('x-mixed', MappingValue.custom('${request.path.id}-${stageVariables.color}-static'))
          .overwriteHeader('x-static', MappingValue.custom('fixed'))
          .overwriteHeader('x-absent', MappingValue.requestHeader('x-not-sent'))
          .appendQueryString('extra', MappingValue.custom('a b'))
          .overwriteQueryString('q', MappingValue.custom('replaced'))
          .removeQueryString('gone'),
      }),
    });
    api.addRoutes({
      path: '/moved/{proxy+}',
      methods: [apigwv2.HttpMethod.GET],
      integration: new HttpUrlIntegration('Moved', `${backendUrl}/ignored/{proxy}`, {
        parameterMapping: new ParameterMapping().overwritePath(MappingValue.custom('/new/${request.path.proxy}')),
      }),
    });
    api.addRoutes({
      path: '/fn',
      methods: [apigwv2.HttpMethod.GET],
      integration: new HttpLambdaIntegration('Fn', inlineFunction(stack, 'Echo', ECHO), {
        parameterMapping: new ParameterMapping().appendHeader('x-mapped', MappingValue.custom('$request.header.x-in')),
      }),
    });

    // Response mapping through raw CloudFormation: aws-cdk-lib 2.189.1 has no responseParameters on the integrations.
    const answers = new apigwv2.CfnIntegration(stack, 'Answers', {
      apiId: api.apiId,
      integrationType: 'HTTP_PROXY',
      integrationMethod: 'GET',
      integrationUri: `${backendUrl}/{path}`,
      payloadFormatVersion: '1.0',
      requestParameters: { 'overwrite:path': '/${request.path.which}' },
      responseParameters: {
        200: { ResponseParameters: [{ Destination: 'overwrite:header.x-code', Source: '$response.body.detail.code' }, { Destination: 'remove:header.x-secret', Source: "''" }] },
        404: { 'overwrite:statuscode': '410', 'append:header.x-backend': 'two', 'overwrite:header.x-request': '$context.requestId', 'overwrite:header.x-upstream': '${response.header.x-backend}!' },
      },
    });
    new apigwv2.CfnRoute(stack, 'AnswersRoute', { apiId: api.apiId, routeKey: 'GET /answers/{which}', target: `integrations/${answers.ref}` });
    const bad = new apigwv2.CfnIntegration(stack, 'BadKeys', {
      apiId: api.apiId,
      integrationType: 'HTTP_PROXY',
      integrationMethod: 'GET',
      integrationUri: backendUrl,
      payloadFormatVersion: '1.0',
      requestParameters: { 'append:path': '/x', 'overwrite:statuscode': '201', 'rename:header.a': 'b' },
      responseParameters: { 700: { 'overwrite:statuscode': '200' }, 200: { 'overwrite:path': '/y' } },
    });
    new apigwv2.CfnRoute(stack, 'BadRoute', { apiId: api.apiId, routeKey: 'GET /bad', target: `integrations/${bad.ref}` });

    // Throttling: the stage's default for every route, a route of its own, and a route that is shut.
    const limited = new apigwv2.HttpApi(stack, 'Limited', { createDefaultStage: false });
    const fnIntegration = new HttpLambdaIntegration('LimitedFn', inlineFunction(stack, 'Ok', 'exports.handler = async () => "ok";'));
    for (const p of ['/default', '/own', '/shut']) {
      limited.addRoutes({ path: p, methods: [apigwv2.HttpMethod.GET], integration: fnIntegration });
    }
    const limitedStage = limited.addStage('Prod', { stageName: 'prod', autoDeploy: true, throttle: { burstLimit: 2, rateLimit: 0.01 } });
    (limitedStage.node.defaultChild as apigwv2.CfnStage).routeSettings = {
      'GET /own': { ThrottlingBurstLimit: 4, ThrottlingRateLimit: 0.01 },
      'GET /shut': { ThrottlingBurstLimit: 0, ThrottlingRateLimit: 0 },
    };
  }, { stackName: 'HttpMapping' });
  running = await serve(root, { quiet: true });
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => backend?.close(resolve));
});

function endpoint(logicalId: string): string {
  const found = running.server.endpoints.find((e) => e.urls.some((u) => u.includes(logicalId === 'Api' ? '/dev/' : '/prod/')));
  return found!.urls[0].replace(/\/$/, '');
}

async function call(url: string, args: string[] = []) {
  return parseCurlResponse((await curl(['-i', ...args, url])).stdout);
}

describe('request mapping (HTTP_PROXY)', () => {
  let received: any;
  beforeAll(async () => {
    const answer = await call(`${endpoint('Api')}/url/7?q=orig&q=two&gone=1&keep=k`, [
      '-X', 'POST', '-H', 'x-in: one', '-H', 'x-in: two', '-H', 'x-multi: sent', '-H', 'x-drop: bye',
      '-H', 'content-type: application/json', '--data', '{"user":{"name":"Ada"},"tags":["a","b"]}',
    ]);
    expect(answer.status).toBe(200);
    received = JSON.parse(answer.body);
  });

  test('headers from a request header (repeats joined with commas), the query string, the path, a body JSON path, $context and $stageVariables', () => {
    expect(received.headers).toMatchObject({
      'x-from-header': 'one,two',
      'x-from-query': 'orig,two',
      'x-from-path': '7',
      'x-from-body': 'Ada',
      'x-from-context': 'POST /url/{id}',
      'x-from-stage': 'blue',
      'x-body-index': 'b',
      'x-body-object': '{"name":"Ada"}',
      'x-whole-path': '/url/7',
    });
    expect(received.headers).not.toHaveProperty('x-body-missing');
  });

  test('a mix of ${} pieces and text, and a static value', () => {
    expect(received.headers['x-mixed']).toBe('7-blue-static');
    expect(received.headers['x-static']).toBe('fixed');
  });

  test('append keeps what was sent, remove drops it, an empty value changes nothing', () => {
    expect(received.headers['x-multi']).toBe('sent, added');
    expect(received.headers).not.toHaveProperty('x-drop');
    expect(received.headers).not.toHaveProperty('x-absent');
  });

  test('query strings: overwrite replaces every value, append adds one (encoded), remove drops it, others pass', () => {
    expect(received.url).toBe('/target/7?keep=k&extra=a%20b&q=replaced');
  });

  test('overwrite:path replaces the integration path, the body still passes', async () => {
    const answer = await call(`${endpoint('Api')}/moved/a/b?x=1`);
    expect(JSON.parse(answer.body).url).toBe('/new/a/b?x=1');
    expect(received.body).toBe('{"user":{"name":"Ada"},"tags":["a","b"]}');
  });
});

test('request mapping reaches a Lambda proxy event (payload 2.0 headers)', async () => {
  const answer = await call(`${endpoint('Api')}/fn`, ['-H', 'x-in: v']);
  const event = JSON.parse(answer.body);
  expect(event.headers['x-mapped']).toBe('v');
  expect(event.rawPath).toBe('/dev/fn');
});

describe('response mapping by the integration status code', () => {
  test('200: a header from a response body JSON path; a header removed', async () => {
    const answer = await call(`${endpoint('Api')}/answers/found`);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-code']).toBe('E42');
    expect(answer.headers).not.toHaveProperty('x-secret');
    expect(JSON.parse(answer.body).url).toBe('/found');
  });

  test('404: overwrite:statuscode, append a header, $context and a ${response.header} piece', async () => {
    const answer = await call(`${endpoint('Api')}/answers/missing`);
    expect(answer.status).toBe(410);
    const raw = (await curl(['-si', `${endpoint('Api')}/answers/missing`])).stdout;
    expect(raw.match(/^x-backend: .*$/gim)?.map((l) => l.trim())).toEqual(['x-backend: one', 'x-backend: two']);
    expect(answer.headers['x-request']).toBe(answer.headers['apigw-requestid']);
    expect(answer.headers['x-request']).toMatch(APIGW_ID);
    expect(answer.headers['x-upstream']).toBe('one!');
  });
});

test('keys the service does not take are warned of at start-up and skipped', () => {
  const app = readLocalApp(root);
  const warnings = app.warnings.join('\n');
  expect(warnings).toContain('append:path: path takes only overwrite');
  expect(warnings).toContain('overwrite:statuscode is not a request mapping');
  expect(warnings).toContain('"rename:header.a" is not a mapping key');
  expect(warnings).toContain('"700" is not a status code of 200-599');
  expect(warnings).toContain('overwrite:path is not a response mapping');
  const api = app.apis.find((a) => a.kind === 'HTTP' && a.logicalId.startsWith('Api')) as HttpApiSpec;
  const route = api.routes.find((r) => r.routeKey === 'GET /bad')!;
  expect(route.integration).toMatchObject({ type: 'HTTP_PROXY', mapping: { request: [], response: { 200: [] } } });
});

describe('throttling from the stage', () => {
  const limited = () => endpoint('Limited');

  test('DefaultRouteSettings: the burst passes, then 429 {"message":"Too Many Requests"}', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await call(`${limited()}/default`)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await call(`${limited()}/default`);
    expect(refused.status).toBe(429);
    expect(refused.body).toBe('{"message":"Too Many Requests"}');
    expect(refused.headers['content-type']).toBe('application/json');
    expect(refused.headers['apigw-requestid']).toMatch(APIGW_ID);
  });

  test('RouteSettings of a route take the place of the default; each route has its own bucket', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await call(`${limited()}/own`)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  test('a burst of 0 throttles every request', async () => {
    expect((await call(`${limited()}/shut`)).status).toBe(429);
  });

  test('an unthrottled stage answers every request', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await call(`${endpoint('Api')}/fn`)).status).toBe(200);
    }
  });
});
