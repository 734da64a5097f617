/**
 * The API-kind seam: the template reader reads the APIs of every registered kind, and the server
 * serves each API through its kind (REST today): its handler, its routes, its body limit.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { synth } from './support';
import { API_KINDS, apiKindOf } from '../../../src/cli/local/api-kinds';
import { Invoker } from '../../../src/cli/local/lambda/invoker';
import { LocalApp } from '../../../src/cli/local/model/local-app';
import { ApiSpec, RestApiSpec, restApi } from '../../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../../src/cli/local/read-local-app';
import { REST_API_KIND } from '../../../src/cli/local/rest/rest-api-kind';

let app: LocalApp;
let api: RestApiSpec;

beforeAll(() => {
  app = readLocalApp(synth((stack) => {
    const rest = new apigw.RestApi(stack, 'Api', { restApiName: 'Kinds', deployOptions: { stageName: 'prod' } });
    const mock = new apigw.MockIntegration({
      requestTemplates: { 'application/json': '{"statusCode": 200}' },
      integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{"kind": "REST"}' } }],
    });
    rest.root.addMethod('GET', mock, { methodResponses: [{ statusCode: '200' }] });
    rest.root.addResource('items').addResource('{id}').addMethod('PUT', mock, { methodResponses: [{ statusCode: '200' }] });
  }));
  api = restApi(app.apis[0]);
});

test('REST, HTTP, function URLs and WebSocket are the kinds registered; an API that names no kind is served by REST', () => {
  expect(API_KINDS.map((k) => k.kind)).toEqual(['REST', 'HTTP', 'FUNCTION_URL', 'WEBSOCKET']);
  expect(app.apis.map((a) => a.name)).toEqual(['Kinds']);
  expect(apiKindOf(api)).toBe(REST_API_KIND);
});

test('an API of a kind that is not registered is named as such', () => {
  const graphql = { ...api, kind: 'GRAPHQL' } as unknown as ApiSpec;
  expect(() => apiKindOf(graphql)).toThrow("no API kind 'GRAPHQL' is registered (api-kinds.ts)");
});

test('the REST kind reads the template model of a stack into its APIs', () => {
  expect(api.stages).toEqual(['prod']);
  expect([...api.root.methods.keys()]).toEqual(['GET']);
  expect([...api.root.literalChildren.get('items')!.paramChild!.methods.keys()]).toEqual(['PUT']);
});

test('the REST kind describes its routes for one stage', () => {
  expect(REST_API_KIND.routes(api, 'http://127.0.0.1:3000/prod/')).toEqual([
    'GET http://127.0.0.1:3000/prod/',
    'PUT http://127.0.0.1:3000/prod/items/{id}',
  ]);
  const rows = REST_API_KIND.routeRows(api, 'prod', 'http://127.0.0.1:3000/prod/', (key) => key, {});
  expect(rows.map((r) => `${r.method} ${r.url} -> ${r.target}`)).toEqual([
    'GET http://127.0.0.1:3000/prod/ -> MOCK',
    'PUT http://127.0.0.1:3000/prod/items/{id} -> MOCK',
  ]);
});

test('the REST kind\'s handler answers a request as the gateway does; a body past its limit gets 413', async () => {
  const invoker = new Invoker(app.functions, { log: () => undefined });
  try {
    const handler = REST_API_KIND.serving().handler(api, { invoker, functions: app.functions, note: () => undefined });
    const response = await handler.handle({ method: 'GET', target: '/prod/', rawHeaders: [], body: Buffer.alloc(0), sourceIp: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"kind": "REST"}');
    expect(REST_API_KIND.maxBodyBytes).toBe(10 * 1024 * 1024);
    expect(REST_API_KIND.tooLarge('req-1')).toMatchObject({ statusCode: 413, requestId: 'req-1' });
  } finally {
    await invoker.close();
  }
});
