/**
 * Gateway responses built by aws-cdk-lib's `addGatewayResponse`: header values mapped from the
 * request and response templates with `$context.error.*`, before and after routing; a template
 * that fails leaves the default body.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Invoker } from '../../../../../src/cli/local/lambda/invoker';
import { LocalApp } from '../../../../../src/cli/local/model/local-app';
import { restApi } from '../../../../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../../../../src/cli/local/read-local-app';
import { LocalGateway } from '../../../../../src/cli/local/rest/gateway';
import { synth } from '../../support';

let app: LocalApp;
let invoker: Invoker;

beforeAll(() => {
  app = readLocalApp(synth((stack) => {
    const fn = new lambda.Function(stack, 'Fn', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: "ok" });'),
    });
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod', variables: { team: 'blue' } } });
    const validator = api.addRequestValidator('Body', { validateRequestBody: true });
    const model = api.addModel('Thing', {
      contentType: 'application/json',
      schema: { schema: apigw.JsonSchemaVersion.DRAFT4, type: apigw.JsonSchemaType.OBJECT, required: ['name'] },
    });
    api.root.addResource('keyed').addMethod('GET', new apigw.LambdaIntegration(fn), { apiKeyRequired: true });
    api.root.addResource('things').addMethod('POST', new apigw.LambdaIntegration(fn), {
      requestValidator: validator,
      requestModels: { 'application/json': model },
    });
    // A function outside the template cannot run: API Gateway's 500 configuration error (DEFAULT_5XX).
    api.root.addResource('elsewhere').addMethod('GET', new apigw.Integration({
      type: apigw.IntegrationType.AWS_PROXY,
      integrationHttpMethod: 'POST',
      uri: 'arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn:aws:lambda:us-east-1:111111111111:function:elsewhere/invocations',
    }));
    api.addGatewayResponse('Forbidden', {
      type: apigw.ResponseType.INVALID_API_KEY,
      statusCode: '401',
      responseHeaders: {
        'Access-Control-Allow-Origin': 'method.request.header.origin',
        'X-Request': 'context.requestId',
        'X-Team': 'stageVariables.team',
        'X-Static': "'fixed'",
      },
      templates: { 'application/json': '{"error":$context.error.messageString,"type":"$context.error.responseType","resource":"$context.resourcePath"}' },
    });
    api.addGatewayResponse('NoRoute', {
      type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '404',
      responseHeaders: { 'Access-Control-Allow-Origin': 'method.request.header.origin' },
      templates: { 'application/json': '{"error":"no such route","method":"$context.httpMethod"}' },
    });
    api.addGatewayResponse('BadBody', {
      type: apigw.ResponseType.BAD_REQUEST_BODY,
      templates: { 'application/json': '{"message":$context.error.messageString,"problems":"$util.escapeJavaScript($context.error.validationErrorString)"}' },
    });
    api.addGatewayResponse('Broken', {
      type: apigw.ResponseType.DEFAULT_5XX,
      templates: { 'application/json': '#if(' },
    });
  }, { stackName: 'GatewayResponses' }));
  invoker = new Invoker(app.functions, { log: () => undefined, maxWorkersPerFunction: 1 });
});

afterAll(async () => {
  await invoker?.close();
});

async function send(method: string, target: string, headers: Record<string, string> = {}, body = '') {
  const notes: string[] = [];
  const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions, note: (_id, text) => notes.push(text) });
  const response = await gateway.handle({ method, target, rawHeaders: Object.entries(headers), body: Buffer.from(body), sourceIp: '127.0.0.1' });
  const header = (name: string) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  return { status: response.statusCode, body: response.body.toString(), header, requestId: response.requestId, notes };
}

test('a routed refusal: mapped headers from the request, context and stage variables, and the template with $context.error', async () => {
  const sent = await send('GET', '/prod/keyed', { Origin: 'https://app.example' });
  expect(sent.status).toBe(401);
  expect(JSON.parse(sent.body)).toEqual({ error: 'Forbidden', type: 'INVALID_API_KEY', resource: '/keyed' });
  expect(sent.header('Access-Control-Allow-Origin')).toBe('https://app.example');
  expect(sent.header('X-Request')).toBe(sent.requestId);
  expect(sent.header('X-Team')).toBe('blue');
  expect(sent.header('X-Static')).toBe('fixed');
  expect(sent.header('Content-Type')).toBe('application/json');
});

test('a header whose source the request lacks is left out', async () => {
  const sent = await send('GET', '/prod/keyed');
  expect(sent.header('Access-Control-Allow-Origin')).toBeUndefined();
  expect(sent.header('X-Team')).toBe('blue');
});

test('before routing (no resource matched): headers and query values still map, and the template runs', async () => {
  const sent = await send('DELETE', '/prod/nowhere', { Origin: 'https://app.example' });
  expect(sent.status).toBe(404);
  expect(JSON.parse(sent.body)).toEqual({ error: 'no such route', method: 'DELETE' });
  expect(sent.header('Access-Control-Allow-Origin')).toBe('https://app.example');
});

test('$context.error.validationErrorString carries the validator\'s failed checks', async () => {
  const sent = await send('POST', '/prod/things', { 'Content-Type': 'application/json' }, '{}');
  expect(sent.status).toBe(400);
  const body = JSON.parse(sent.body);
  expect(body.message).toBe('Invalid request body');
  expect(body.problems).toMatch(/^\[.*name.*\]$/);
});

test('a template that fails leaves the default body, and the terminal says why', async () => {
  const sent = await send('GET', '/prod/elsewhere');
  expect(sent.status).toBe(500);
  expect(sent.body).toBe('{"message":"Internal server error"}');
  expect(sent.notes.join('\n')).toMatch(/gateway response DEFAULT_5XX: its template failed/);
});
