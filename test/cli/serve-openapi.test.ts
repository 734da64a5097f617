/**
 * `serve` with a REST API defined by an OpenAPI document (`SpecRestApi` with
 * `ApiDefinition.fromInline`, i.e. the RestApi's `Body`): paths and operations (`x-amazon-apigateway-any-method`
 * included), `x-amazon-apigateway-integration` of each kind, API key and SigV4 security schemes,
 * `x-amazon-apigateway-gateway-responses` and binary media types, served by the same pipeline as a
 * RestApi built from resources; what the document declares and is not emulated is reported.
 */
import { Aws, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, inlineFunction, parseCurlResponse, Running, serve, synth, UUID } from './local/support';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const KEY = 'openapi-key-0123456789abcdef';

function lambdaUri(fn: lambda.IFunction): string {
  return `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`;
}

function build(stack: Stack): void {
  const echo = inlineFunction(stack, 'Echo', 'exports.handler = async (e) => ({ statusCode: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ resource: e.resource, path: e.path, method: e.httpMethod, pathParameters: e.pathParameters, apiKey: e.requestContext.identity.apiKey }) });');
  const gate = inlineFunction(stack, 'Gate', 'exports.handler = async (e) => ({ principalId: "p-" + e.type, policyDocument: { Version: "2012-10-17", Statement: [{ Action: "execute-api:Invoke", Effect: (e.authorizationToken || e.headers?.["x-pass"]) === "allow" ? "Allow" : "Deny", Resource: e.methodArn }] } });');
  const proxy = { type: 'aws_proxy', httpMethod: 'POST', uri: lambdaUri(echo) };
  const api = new apigw.SpecRestApi(stack, 'Api', {
    deployOptions: { stageName: 'v1' },
    apiDefinition: apigw.ApiDefinition.fromInline({
      'openapi': '3.0.1',
      'info': { title: 'Spec', version: '1' },
      'paths': {
        '/items': {
          get: { 'x-amazon-apigateway-integration': proxy },
          post: { 'security': [{ api_key: [] }], 'x-amazon-apigateway-integration': proxy },
          options: {
            'x-amazon-apigateway-integration': {
              type: 'mock',
              requestTemplates: { 'application/json': '{"statusCode": 200}' },
              responses: { default: { statusCode: '204', responseParameters: { 'method.response.header.Access-Control-Allow-Origin': "'*'" } } },
            },
          },
        },
        '/items/{id}': { get: { 'x-amazon-apigateway-integration': proxy } },
        '/files/{proxy+}': { 'x-amazon-apigateway-any-method': { 'x-amazon-apigateway-integration': proxy } },
        '/mocked': {
          get: {
            'x-amazon-apigateway-integration': {
              type: 'mock',
              requestTemplates: { 'application/json': '{"statusCode": 200}' },
              responses: { default: { statusCode: '200', responseTemplates: { 'application/json': '{"mocked": true, "stage": "$context.stage"}' } } },
            },
          },
        },
        '/signed': { get: { 'security': [{ sigv4: [] }], 'x-amazon-apigateway-integration': proxy } },
        '/guarded': { get: { 'security': [{ custom: [] }], 'x-amazon-apigateway-integration': proxy } },
        '/requested': { get: { 'security': [{ byRequest: [] }], 'x-amazon-apigateway-integration': proxy } },
      },
      'components': {
        securitySchemes: {
          api_key: { type: 'apiKey', name: 'x-api-key', in: 'header' },
          sigv4: { 'type': 'apiKey', 'name': 'Authorization', 'in': 'header', 'x-amazon-apigateway-authtype': 'awsSigv4' },
          custom: {
            'type': 'apiKey',
            'name': 'Authorization',
            'in': 'header',
            'x-amazon-apigateway-authtype': 'custom',
            'x-amazon-apigateway-authorizer': { type: 'token', authorizerUri: lambdaUri(gate), authorizerResultTtlInSeconds: 0 },
          },
          byRequest: {
            'type': 'apiKey',
            'name': 'Unused',
            'in': 'header',
            'x-amazon-apigateway-authtype': 'custom',
            'x-amazon-apigateway-authorizer': { type: 'request', authorizerUri: lambdaUri(gate), identitySource: 'method.request.header.x-pass', authorizerResultTtlInSeconds: 0 },
          },
        },
      },
      'x-amazon-apigateway-gateway-responses': {
        DEFAULT_4XX: { responseParameters: { 'gatewayresponse.header.Access-Control-Allow-Origin': "'*'" } },
        INVALID_API_KEY: { statusCode: 401, responseParameters: { 'gatewayresponse.header.x-from': "'document'" } },
        UNAUTHORIZED: { responseParameters: { 'gatewayresponse.header.x-from': "'document'" } },
      },
      'x-amazon-apigateway-binary-media-types': ['image/png'],
    }),
  });
  // A method added by CDK on top of the document.
  api.root.addResource('extra').addMethod('GET', new apigw.LambdaIntegration(echo));
  // A GatewayResponse resource is put after the document: it replaces the document's entry of its type.
  new apigw.GatewayResponse(stack, 'KeyResponse', { restApi: api, type: apigw.ResponseType.INVALID_API_KEY, responseHeaders: { 'x-from': "'resource'" } });
  const plan = api.addUsagePlan('Plan', { apiStages: [{ api, stage: api.deploymentStage }] });
  plan.addApiKey(api.addApiKey('Key', { value: KEY }));
}

let running: Running;
let base: string;
let assembly: string;

beforeAll(async () => {
  assembly = synth(build, { stackName: 'SpecStack' });
  running = await serve(assembly);
  base = running.url.replace(/\/$/, '');
});

afterAll(async () => {
  await running?.close();
});

async function get(pathAndQuery: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${base}${pathAndQuery}`, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

test('the document\'s paths are the API\'s resources; a Lambda proxy operation gets the proxy event of its resource', async () => {
  expect(base).toMatch(/\/v1$/);
  const list = await get('/items');
  expect(list.status).toBe(200);
  expect(JSON.parse(list.text)).toEqual({ resource: '/items', path: '/items', method: 'GET', pathParameters: null });
  const one = JSON.parse((await get('/items/a%20b')).text);
  expect([one.resource, one.pathParameters]).toEqual(['/items/{id}', { id: 'a%20b' }]); // as sent: REST path parameters are not decoded
});

test('a resource and method the app adds to the SpecRestApi are served with the document\'s', async () => {
  const extra = await get('/extra');
  expect([extra.status, JSON.parse(extra.text).resource]).toEqual([200, '/extra']);
});

test('x-amazon-apigateway-any-method is ANY on a greedy resource', async () => {
  const deleted = JSON.parse((await get('/files/a/b.txt', { method: 'DELETE' })).text);
  expect([deleted.resource, deleted.method, deleted.pathParameters]).toEqual(['/files/{proxy+}', 'DELETE', { proxy: 'a/b.txt' }]);
});

test('an operation not in the document is 403 Missing Authentication Token, with the document\'s DEFAULT_4XX headers', async () => {
  const response = await get('/items', { method: 'DELETE' });
  expect([response.status, response.text]).toEqual([403, '{"message":"Missing Authentication Token"}']);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
});

test('a MOCK operation answers from its integration response and template (real curl)', async () => {
  const run = await curl(['-i', '-X', 'OPTIONS', `${base}/items`]);
  const preflight = parseCurlResponse(run.stdout);
  expect([preflight.status, preflight.headers['access-control-allow-origin'], preflight.body]).toEqual([204, '*', '']);
  const mocked = await get('/mocked');
  expect([mocked.status, JSON.parse(mocked.text)]).toEqual([200, { mocked: true, stage: 'v1' }]);
});

test('the api_key security scheme requires a key of a usage plan of the stage; a GatewayResponse resource replaces the document\'s entry', async () => {
  const refused = await get('/items', { method: 'POST', body: '{}' });
  expect([refused.status, refused.text, refused.headers.get('x-from')]).toEqual([403, '{"message":"Forbidden"}', 'resource']);
  expect(refused.headers.get('x-amzn-requestid')).toMatch(UUID);
  const accepted = await get('/items', { method: 'POST', body: '{}', headers: { 'x-api-key': KEY } });
  expect([accepted.status, JSON.parse(accepted.text).apiKey]).toEqual([200, KEY]);
});

test('the awsSigv4 security scheme is AWS_IAM: an unsigned request is 403 Missing Authentication Token', async () => {
  const response = await get('/signed');
  expect([response.status, response.text]).toEqual([403, '{"message":"Missing Authentication Token"}']);
});

test('a Lambda TOKEN authorizer of the document reads the scheme\'s header; a REQUEST one its identity sources', async () => {
  expect((await get('/guarded')).status).toBe(401);
  const denied = await get('/guarded', { headers: { Authorization: 'deny' } });
  expect([denied.status, denied.text]).toEqual([403, '{"Message":"User is not authorized to access this resource with an explicit deny"}']);
  const allowed = await get('/guarded', { headers: { Authorization: 'allow' } });
  expect([allowed.status, JSON.parse(allowed.text).resource]).toEqual([200, '/guarded']);

  expect((await get('/requested', { headers: { Authorization: 'allow' } })).status).toBe(401);
  expect((await get('/requested', { headers: { 'x-pass': 'deny' } })).status).toBe(403);
  expect((await get('/requested', { headers: { 'x-pass': 'allow' } })).status).toBe(200);
  const listing = running.server.routeTable().join('\n');
  expect(listing).toMatch(/GET +\S+\/guarded +-> SpecStack\/Echo +\[CUSTOM custom/);
});

test('the document\'s binary media types are the API\'s', () => {
  expect(restApi(readLocalApp(assembly).apis[0]).binaryMediaTypes).toEqual(['image/png']);
});

test('the document\'s API key source is read; a document in S3, or behind Fn::Transform, is reported and not served', () => {
  const keyed = synth((stack) => {
    const api = new apigw.SpecRestApi(stack, 'Api', {
      apiDefinition: apigw.ApiDefinition.fromInline({
        'openapi': '3.0.1',
        'info': { title: 'K', version: '1' },
        'x-amazon-apigateway-api-key-source': 'AUTHORIZER',
        'paths': { '/': { get: { 'x-amazon-apigateway-integration': { type: 'mock', requestTemplates: { 'application/json': '{"statusCode": 200}' }, responses: { default: { statusCode: '200' } } } } } },
      }),
    });
    api.addUsagePlan('Plan', { apiStages: [{ api, stage: api.deploymentStage }] }).addApiKey(api.addApiKey('Key'));
  }, { stackName: 'Keyed' });
  expect(restApi(readLocalApp(keyed).apis[0]).usage?.keySource).toBe('AUTHORIZER');
  expect(restApi(readLocalApp(assembly).apis[0]).usage?.keySource).toBe('HEADER');

  const included = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Api', { deploy: false });
    api.root.addMethod('GET');
    (api.node.defaultChild as apigw.CfnRestApi).body = { 'Fn::Transform': { Name: 'AWS::Include', Parameters: { Location: 's3://specs/api.yaml' } } };
    new apigw.Stage(stack, 'Stage', { deployment: new apigw.Deployment(stack, 'Deployment', { api }), stageName: 'v1' });
  }, { stackName: 'Included' });
  const withTransform = readLocalApp(included);
  expect(withTransform.warnings).toContain('Included/ApiF70053CD: the OpenAPI document in Body has no paths object (keys: Fn::Transform); no method is served');
  // The template's own methods are served on top of a document.
  expect([...restApi(withTransform.apis[0]).root.methods.keys()]).toEqual(['GET']);

  const inS3 = synth((stack) => {
    new apigw.SpecRestApi(stack, 'Api', { apiDefinition: apigw.ApiDefinition.fromBucket({ bucketName: 'specs', bucketArn: 'arn:aws:s3:::specs' } as any, 'api.yaml') });
  }, { stackName: 'InS3' });
  const fromS3 = readLocalApp(inS3);
  expect(fromS3.apis).toHaveLength(0);
  expect(fromS3.warnings).toContain('InS3/ApiF70053CD: REST API defined by an OpenAPI document in S3 (ApiDefinition.fromAsset or fromBucket) is not served locally; ApiDefinition.fromInline puts it in the template, where it is');
});

describe('request validation declared in the document', () => {
  const mock = { type: 'mock', requestTemplates: { 'application/json': '{"statusCode": 200}' }, responses: { default: { statusCode: '200', responseTemplates: { 'application/json': '{"ok": true}' } } } };
  let validated: Running;
  let root: string;

  beforeAll(async () => {
    const dir = synth((stack) => {
      new apigw.SpecRestApi(stack, 'Api', {
        deployOptions: { stageName: 'v1' },
        apiDefinition: apigw.ApiDefinition.fromInline({
          'openapi': '3.0.1',
          'info': { title: 'V', version: '1' },
          'x-amazon-apigateway-request-validators': {
            all: { validateRequestBody: true, validateRequestParameters: true },
            none: { validateRequestBody: false, validateRequestParameters: false },
          },
          'x-amazon-apigateway-request-validator': 'all',
          'paths': {
            '/items': {
              get: { 'parameters': [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } }], 'x-amazon-apigateway-integration': mock },
              post: {
                'requestBody': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
                'x-amazon-apigateway-integration': mock,
              },
              put: {
                'requestBody': { $ref: '#/components/requestBodies/Items' },
                'x-amazon-apigateway-integration': mock,
              },
            },
            '/free': { get: { 'x-amazon-apigateway-request-validator': 'none', 'parameters': [{ name: 'q', in: 'query', required: true }], 'x-amazon-apigateway-integration': mock } },
          },
          'components': {
            schemas: {
              Item: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } } } },
              Tag: { type: 'string', maxLength: 5 },
            },
            requestBodies: { Items: { content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } } } },
          },
        }),
      });
    }, { stackName: 'Validated' });
    validated = await serve(dir);
    root = validated.url.replace(/\/$/, '');
  });

  afterAll(async () => {
    await validated?.close();
  });

  const send = async (method: string, target: string, body?: string) => {
    const response = await fetch(`${root}${target}`, { method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
    return [response.status, await response.text()];
  };

  test('a required query parameter of an operation under the document\'s default validator', async () => {
    expect(await send('GET', '/items')).toEqual([400, '{"message": "Missing required request parameters: [limit]"}']);
    expect(await send('GET', '/items?limit=2')).toEqual([200, '{"ok": true}']);
  });

  test('a request body against its schema, references between schemas followed', async () => {
    expect(await send('POST', '/items', '{"name":"pen","tags":["blue"]}')).toEqual([200, '{"ok": true}']);
    expect(await send('POST', '/items', '{"tags":[]}')).toEqual([400, '{"message": "Invalid request body"}']);
    expect(await send('POST', '/items', '{"name":"pen","tags":["too long"]}')).toEqual([400, '{"message": "Invalid request body"}']);
  });

  test('an inline schema behind a referenced request body', async () => {
    expect(await send('PUT', '/items', '[{"name":"a"}]')).toEqual([200, '{"ok": true}']);
    expect(await send('PUT', '/items', '[{}]')).toEqual([400, '{"message": "Invalid request body"}']);
  });

  test('an operation\'s own validator replaces the document\'s', async () => {
    expect(await send('GET', '/free')).toEqual([200, '{"ok": true}']);
  });
});

test('a Cognito authorizer of the document uses the pools of its providerARNs and the scopes its operations list', () => {
  const assemblyDir = synth((stack) => {
    const pool = new cognito.UserPool(stack, 'Pool');
    pool.addClient('Web');
    new apigw.SpecRestApi(stack, 'Api', {
      apiDefinition: apigw.ApiDefinition.fromInline({
        openapi: '3.0.1',
        info: { title: 'C', version: '1' },
        paths: {
          '/me': { get: { 'security': [{ pool: ['profile/read'] }], 'x-amazon-apigateway-integration': { type: 'mock', requestTemplates: { 'application/json': '{"statusCode": 200}' }, responses: { default: { statusCode: '200' } } } } },
        },
        components: {
          securitySchemes: {
            pool: {
              'type': 'apiKey',
              'name': 'Authorization',
              'in': 'header',
              'x-amazon-apigateway-authtype': 'cognito_user_pools',
              'x-amazon-apigateway-authorizer': { type: 'cognito_user_pools', providerARNs: [pool.userPoolArn] },
            },
          },
        },
      }),
    });
  }, { stackName: 'Pools' });
  const method = restApi(readLocalApp(assemblyDir).apis[0]).root.literalChildren.get('me')!.methods.get('GET')!;
  expect(method.authorizationType).toBe('COGNITO_USER_POOLS');
  expect(method.authorizationScopes).toEqual(['profile/read']);
  expect(method.authorizerName).toBe('pool');
  expect(method.cognitoAuthorizer?.pools).toHaveLength(1);
  expect(method.cognitoAuthorizer?.pools[0].clientIds).toHaveLength(1);
});
