/**
 * The WebSocket API reader on templates synthesized by aws-cdk-lib: routes with their integrations,
 * two-way routes, the `$connect` authorizer, stage variables, MOCK integrations with their templates
 * and integration responses; integrations it does not serve are read as such, with why, and listed as not served.
 */
import { Fn, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketAwsIntegration, WebSocketLambdaIntegration, WebSocketMockIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { WebSocketApiSpec, WebSocketMockIntegrationSpec } from '../../../../src/cli/local/model/websocket-api';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { inlineFunction, synth } from '../support';

let api: WebSocketApiSpec;
let unserved: ReturnType<typeof readLocalApp>['unserved'];
let warnings: readonly string[];

beforeAll(() => {
  const app = readLocalApp(synth((stack) => {
    const fn = inlineFunction(stack, 'Fn', 'exports.handler = async () => ({})');
    const ws = new apigwv2.WebSocketApi(stack, 'Chat', {
      routeSelectionExpression: '${request.body.kind}',
      connectRouteOptions: { integration: new WebSocketLambdaIntegration('C', fn), authorizer: new WebSocketLambdaAuthorizer('Gate', fn, { identitySource: ['route.request.header.X-Token'] }) },
      defaultRouteOptions: { integration: new WebSocketLambdaIntegration('D', fn), returnResponse: true },
    });
    const mock = ws.addRoute('mock', {
      integration: new WebSocketMockIntegration('M', { requestTemplates: { $default: '{"statusCode": 200}', other: '{"statusCode": 404}' }, templateSelectionExpression: '${request.body.which}' }),
      returnResponse: true,
    });
    const integration = mock.node.findAll().find((c): c is apigwv2.CfnIntegration => c instanceof apigwv2.CfnIntegration)!;
    new apigwv2.CfnIntegrationResponse(stack, 'MockOk', {
      apiId: ws.apiId, integrationId: integration.ref, integrationResponseKey: '/2\\d\\d/', responseTemplates: { $default: '"ok"' }, templateSelectionExpression: '\\$default',
    });
    new apigwv2.CfnIntegrationResponse(stack, 'MockBuilt', {
      apiId: ws.apiId,
      integrationId: integration.ref,
      integrationResponseKey: '/4\\d\\d/',
      responseTemplates: { joined: Fn.join('', ['{"region": "', Stack.of(stack).region, '"}']), imported: Fn.importValue('SomeOtherStackExport') },
    });
    new apigwv2.CfnIntegrationResponse(stack, 'MockOther', { apiId: ws.apiId, integrationId: integration.ref, integrationResponseKey: '$default' });
    ws.addRoute('aws', { integration: new WebSocketAwsIntegration('A', { integrationUri: 'arn:aws:apigateway:us-east-1:sqs:path/123456789012/q', integrationMethod: 'POST' }) });
    const stage = new apigwv2.WebSocketStage(stack, 'Dev', { webSocketApi: ws, stageName: 'dev', autoDeploy: true });
    (stage.node.defaultChild as apigwv2.CfnStage).stageVariables = { color: 'blue' };
  }, { stackName: 'Reader' }));
  api = app.apis[0] as WebSocketApiSpec;
  unserved = app.unserved;
  warnings = app.warnings;
});

test('the API: kind, selection expression, stages with their variables', () => {
  expect(api).toMatchObject({ kind: 'WEBSOCKET', routeSelectionExpression: '${request.body.kind}', stages: ['dev'], stageVariables: { dev: { color: 'blue' } } });
});

test('routes: their keys, integrations, the two-way $default, the $connect authorizer', () => {
  const byKey = Object.fromEntries(api.routes.map((r) => [r.routeKey, r]));
  expect(Object.keys(byKey).sort()).toEqual(['$connect', '$default', 'aws', 'mock']);
  expect(byKey.$connect).toMatchObject({ authorizationType: 'CUSTOM', authorizer: { name: 'Gate', identitySource: ['route.request.header.X-Token'], payloadFormatVersion: '1.0', simpleResponses: false }, twoWay: false });
  expect(byKey.$connect.integration).toMatchObject({ type: 'AWS_PROXY', timeoutMs: 29_000 });
  expect(byKey.$default.twoWay).toBe(true);
  expect(byKey.aws.integration).toEqual({ type: 'UNSUPPORTED', description: 'AWS integration (only AWS_PROXY to a function and MOCK are served for WebSocket APIs)' });
});

test('a MOCK integration: its request templates and selection expression, its integration responses with their keys and templates', () => {
  const mock = api.routes.find((r) => r.routeKey === 'mock')!;
  expect(mock.twoWay).toBe(true);
  expect(mock.integration).toEqual({
    type: 'MOCK',
    requestTemplates: { $default: '{"statusCode": 200}', other: '{"statusCode": 404}' },
    templateSelectionExpression: '${request.body.which}',
    responses: expect.arrayContaining([
      { key: '/2\\d\\d/', responseTemplates: { $default: '"ok"' }, templateSelectionExpression: '\\$default' },
      { key: '$default', responseTemplates: {} },
    ]),
  });
  expect((mock.integration as WebSocketMockIntegrationSpec).responses).toHaveLength(3);
});

test('MOCK templates built with Fn::Join resolve as other template values do; one that cannot is left out with a warning', () => {
  const mock = api.routes.find((r) => r.routeKey === 'mock')!.integration as WebSocketMockIntegrationSpec;
  const built = mock.responses.find((r) => r.key === '/4\\d\\d/')!;
  expect(built.responseTemplates).toEqual({ joined: '{"region": "us-east-1"}' });
  expect(warnings).toContainEqual(expect.stringMatching(/^Reader\/\S+: response template imported is not known locally \(.*SomeOtherStackExport.*\); left out$/));
});

test('a route whose integration is not served is listed as such; a MOCK route is not', () => {
  expect(unserved).toContainEqual(expect.objectContaining({ kind: 'WebSocket API route', label: 'Reader/Chat aws', reason: 'AWS integration (only AWS_PROXY to a function and MOCK are served for WebSocket APIs) (the client gets Internal server error)' }));
  expect(unserved.some((p) => p.label === 'Reader/Chat mock')).toBe(false);
});
