/**
 * The OpenAPI `Body` form of an HTTP API on a stack built with aws-cdk-lib: routes from `paths`
 * (methods, `x-amazon-apigateway-any-method`, `isDefaultRoute`), each operation's
 * `x-amazon-apigateway-integration`, `x-amazon-apigateway-cors`, and what is not served, with why.
 */
import { Fn } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type { HttpApiSpec } from '../../../../../src/cli/local/model/http-api';
import { readLocalApp } from '../../../../../src/cli/local/read-local-app';
import { inlineFunction, synth } from '../../support';

let apis: HttpApiSpec[];
let api: HttpApiSpec;
let warnings: readonly string[];

beforeAll(() => {
  const app = readLocalApp(synth((stack) => {
    const fn = inlineFunction(stack, 'Fn', 'exports.handler = async () => "hi"');
    const lambda = (extra: Record<string, unknown> = {}) => ({
      'x-amazon-apigateway-integration': { type: 'aws_proxy', httpMethod: 'POST', uri: fn.functionArn, payloadFormatVersion: '2.0', ...extra },
    });
    const body = {
      'openapi': '3.0.1',
      'info': { title: 'Oas', version: '1' },
      'x-amazon-apigateway-cors': { allowOrigins: ['http://localhost:5173'], allowMethods: ['get'], allowHeaders: ['content-type'], exposeHeaders: ['x-total'], maxAge: 60, allowCredentials: true },
      'paths': {
        '/items/{id}': {
          'get': lambda({ timeoutInMillis: 5000 }),
          'post': {
            'x-amazon-apigateway-integration': {
              type: 'aws_proxy',
              httpMethod: 'POST',
              payloadFormatVersion: '1.0',
              uri: Fn.sub('arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${Arn}/invocations', { Arn: fn.functionArn }),
            },
          },
          'x-amazon-apigateway-any-method': lambda(),
        },
        '/proxy/{proxy+}': { 'x-amazon-apigateway-any-method': { 'x-amazon-apigateway-integration': { type: 'http_proxy', httpMethod: 'GET', uri: 'https://example.com/{proxy}', payloadFormatVersion: '1.0' } } },
        '/$default': { 'x-amazon-apigateway-any-method': { isDefaultRoute: true, ...lambda() } },
        '/secure': { get: { security: [{ jwt: ['read'] }], ...lambda() } },
        '/custom': { get: { security: [{ byLambda: [] }], ...lambda() } },
        '/odd': { get: { security: [{ odd: [] }], ...lambda() } },
        '/open': { get: { security: [], ...lambda() } },
        '/outside': { get: { 'x-amazon-apigateway-integration': { type: 'aws_proxy', uri: 'arn:aws:lambda:us-east-1:123456789012:function:elsewhere', payloadFormatVersion: '2.0' } } },
        '/bare': { get: { responses: {} } },
        '/{proxy+}/bad': { get: lambda() },
      },
      'components': {
        securitySchemes: {
          jwt: { 'type': 'oauth2', 'x-amazon-apigateway-authorizer': { type: 'jwt', identitySource: '$request.header.Authorization', jwtConfiguration: { issuer: 'https://issuer.example.com', audience: ['a'] } } },
          byLambda: {
            'type': 'apiKey',
            'name': 'Authorization',
            'in': 'header',
            'x-amazon-apigateway-authorizer': {
              type: 'request',
              identitySource: '$request.header.Authorization',
              authorizerUri: fn.functionArn,
              authorizerPayloadFormatVersion: '2.0',
              enableSimpleResponses: true,
              authorizerResultTtlInSeconds: 60,
            },
          },
          odd: { 'type': 'apiKey', 'name': 'x', 'in': 'header', 'x-amazon-apigateway-authorizer': { type: 'token' } },
        },
      },
    };
    const oas = new apigwv2.CfnApi(stack, 'Oas', { body });
    new apigwv2.CfnStage(stack, 'DefaultStage', { apiId: oas.ref, stageName: '$default', autoDeploy: true });
    // Text bodies (CfnApi's `body` takes an object only): as a property override.
    const asText = (id: string, text: unknown) => new apigwv2.CfnApi(stack, id, { protocolType: 'HTTP', name: id }).addPropertyOverride('Body', text);
    asText('AsJson', JSON.stringify({ openapi: '3.0.1', paths: { '/json': { get: { 'x-amazon-apigateway-integration': { type: 'http_proxy', uri: 'https://example.com', httpMethod: 'GET' } } } } }));
    asText('AsYaml', 'openapi: 3.0.1\npaths: {}\n');
  }, { stackName: 'OasReader' }));
  apis = app.apis.filter((a): a is HttpApiSpec => a.kind === 'HTTP');
  api = apis.find((a) => a.logicalId === 'Oas')!;
  warnings = app.warnings;
});

const route = (routeKey: string) => api.routes.find((r) => r.routeKey === routeKey)!;

test('each operation of paths is a route; the any-method extension is ANY, isDefaultRoute is $default; stages come from the Stage resources', () => {
  expect(api.logicalId).toBe('Oas');
  expect(api.stages).toEqual(['$default']);
  expect(api.routes.map((r) => r.routeKey)).toEqual([
    'GET /items/{id}', 'POST /items/{id}', 'ANY /items/{id}', 'ANY /proxy/{proxy+}', '$default', 'GET /secure', 'GET /custom', 'GET /odd', 'GET /open', 'GET /outside', 'GET /bare',
  ]);
  expect(route('GET /items/{id}')).toMatchObject({ method: 'GET', segments: [{ kind: 'literal', text: 'items' }, { kind: 'param', name: 'id' }], authorizationType: 'NONE' });
  expect(route('$default').segments).toEqual([]);
  expect(route('$default').method).toBeUndefined();
});

test('aws_proxy to a function ARN (GetAtt) or its invocation URI (Fn::Sub) is the function of the template, with payloadFormatVersion and timeoutInMillis', () => {
  expect(route('GET /items/{id}').integration).toEqual({ type: 'AWS_PROXY', functionKey: expect.stringMatching(/\/Fn/), payloadFormatVersion: '2.0', timeoutMs: 5000 });
  expect(route('POST /items/{id}').integration).toEqual({ type: 'AWS_PROXY', functionKey: expect.stringMatching(/\/Fn/), payloadFormatVersion: '1.0', timeoutMs: 30_000 });
});

test('http_proxy is the URL with its httpMethod', () => {
  expect(route('ANY /proxy/{proxy+}').integration).toEqual({ type: 'HTTP_PROXY', uri: 'https://example.com/{proxy}', method: 'GET', timeoutMs: 30_000 });
});

test('x-amazon-apigateway-cors is the API\'s CORS', () => {
  expect(api.cors).toEqual({
    allowOrigins: ['http://localhost:5173'], allowMethods: ['GET'], allowHeaders: ['content-type'], exposeHeaders: ['x-total'], maxAgeSeconds: 60, allowCredentials: true,
  });
});

test('a jwt x-amazon-apigateway-authorizer is the route\'s JWT authorizer, with the scopes the security requirement lists', () => {
  expect(route('GET /secure')).toMatchObject({
    authorizationType: 'JWT',
    authorizer: { type: 'JWT', logicalId: 'Oas/jwt', name: 'jwt', identitySource: ['$request.header.Authorization'], issuer: 'https://issuer.example.com', audiences: ['a'] },
    authorizationScopes: ['read'],
    integration: { type: 'AWS_PROXY' },
  });
});

test('a request x-amazon-apigateway-authorizer is the route\'s Lambda authorizer; security: [] protects nothing', () => {
  expect(route('GET /custom')).toMatchObject({
    authorizationType: 'CUSTOM',
    authorizer: {
      type: 'REQUEST',
      logicalId: 'Oas/byLambda',
      name: 'byLambda',
      functionKey: expect.stringMatching(/\/Fn/),
      payloadFormatVersion: '2.0',
      simpleResponses: true,
      identitySource: ['$request.header.Authorization'],
      ttlSeconds: 60,
    },
  });
  expect(route('GET /custom')).not.toHaveProperty('authorizationScopes');
  expect(route('GET /open').authorizationType).toBe('NONE');
  expect(route('GET /open')).not.toHaveProperty('authorizer');
});

test('what is not served answers 500 and is warned of at start, with why', () => {
  expect(route('GET /odd').integration).toEqual({ type: 'UNSUPPORTED', description: 'a route protected by the OpenAPI authorizer odd of type "token" (jwt and request are read)' });
  expect(route('GET /outside').integration.type).toBe('UNSUPPORTED');
  expect(route('GET /bare').integration).toEqual({ type: 'UNSUPPORTED', description: 'a route without an integration' });
  expect(warnings).toEqual(expect.arrayContaining([
    'OasReader/Oas GET /odd (OpenAPI Body): a route protected by the OpenAPI authorizer odd of type "token" (jwt and request are read) is not served locally; its requests answer 500',
    'OasReader/Oas GET /outside (OpenAPI Body): AWS_PROXY integration with a function outside the template is not served locally; its routes answer 500',
    'OasReader/Oas GET /bare (OpenAPI Body): route without an x-amazon-apigateway-integration; answers 500',
    'OasReader/Oas GET /{proxy+}/bad (OpenAPI Body): route key "GET /{proxy+}/bad": a greedy path variable must end the path; not served',
  ]));
});

test('a Body of JSON text is read as the document; YAML text is warned of and gives no routes', () => {
  expect(apis.find((a) => a.logicalId === 'AsJson')!.routes.map((r) => r.routeKey)).toEqual(['GET /json']);
  expect(apis.find((a) => a.logicalId === 'AsYaml')!.routes).toEqual([]);
  expect(warnings).toContain(
    'OasReader/AsYaml: an OpenAPI Body that is not an object or JSON text (YAML text, Fn::Transform) is not read locally; the API has no routes from it',
  );
});
