/**
 * Every API, function URL and function of an app is accounted for: what the local API does not
 * serve is read with its kind and why (function URLs, a WebSocket API route whose integration is not served, functions that only
 * an event source, a rule or a custom resource invokes, a REST API without a stage).
 */
import { CustomResource, Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketAwsIntegration, WebSocketLambdaIntegration, WebSocketMockIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { LocalApp } from '../../../../src/cli/local/model/local-app';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { unservedLines } from '../../../../src/cli/local/server/unserved-listing';
import { inlineFunction, synth } from '../support';

let app: LocalApp;

beforeAll(() => {
  app = readLocalApp(synth((stack) => {
    const rest = new apigw.RestApi(stack, 'Rest', { deployOptions: { stageName: 'dev' } });
    rest.root.addMethod('GET', new apigw.LambdaIntegration(inlineFunction(stack, 'RestFn', 'exports.handler = async () => ({ statusCode: 200 })')));
    new apigw.CfnRestApi(stack, 'NoStage', { name: 'NoStage' });

    const http = new apigwv2.HttpApi(stack, 'Http');
    http.addRoutes({ path: '/hello', integration: new HttpLambdaIntegration('Hello', inlineFunction(stack, 'HttpFn', 'exports.handler = async () => "hi"')) });

    const ws = new apigwv2.WebSocketApi(stack, 'Chat');
    ws.addRoute('sendmessage', { integration: new WebSocketLambdaIntegration('Send', inlineFunction(stack, 'ChatFn', 'exports.handler = async () => ({})')) });
    ws.addRoute('join', { integration: new WebSocketAwsIntegration('Join', { integrationUri: 'arn:aws:apigateway:us-east-1:sqs:path/123456789012/q', integrationMethod: 'POST' }) });
    // Served since MOCK integrations are (issue 24): not listed.
    ws.addRoute('ping', { integration: new WebSocketMockIntegration('Ping') });
    new apigwv2.WebSocketStage(stack, 'ChatStage', { webSocketApi: ws, stageName: 'dev' });

    inlineFunction(stack, 'UrlFn', 'exports.handler = async () => "url"').addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });

    const queue = new sqs.Queue(stack, 'Jobs');
    inlineFunction(stack, 'Worker', 'exports.handler = async () => undefined').addEventSource(new SqsEventSource(queue));

    new events.Rule(stack, 'Nightly', { schedule: events.Schedule.rate(Duration.days(1)), targets: [new targets.LambdaFunction(inlineFunction(stack, 'Cron', 'exports.handler = async () => undefined'))] });

    new CustomResource(stack, 'Seed', { serviceToken: inlineFunction(stack, 'SeedProvider', 'exports.handler = async () => ({})').functionArn });

    inlineFunction(stack, 'Orphan', 'exports.handler = async () => undefined');
  }, { stackName: 'Everything' }));
});

function part(label: string) {
  return app.unserved.find((p) => p.label === label);
}

test('APIs of kinds not served are named with their kind and why; HTTP and WebSocket APIs and function URLs are served, a WebSocket route whose integration is not served is named', () => {
  expect(part('Everything/Http')).toBeUndefined();
  expect(part('Everything/Chat')).toBeUndefined();
  expect(app.unserved.some((p) => p.kind === 'function URL')).toBe(false);
  expect(part('Everything/Chat join')).toEqual({
    kind: 'WebSocket API route',
    stackName: 'Everything',
    logicalId: expect.stringMatching(/^Chatjoin/),
    label: 'Everything/Chat join',
    reason: 'AWS integration (only AWS_PROXY to a function and MOCK are served for WebSocket APIs) (the client gets Internal server error)',
  });
  expect(part('Everything/Chat ping')).toBeUndefined();
});

test('a REST API without a stage is listed as not served; a served one is not', () => {
  expect(part('Everything/NoStage')).toMatchObject({ kind: 'REST API', reason: 'it has no stage' });
  expect(part('Everything/Rest')).toBeUndefined();
});

test('each function no served API runs is named with what invokes it', () => {
  expect(part('Everything/RestFn')).toBeUndefined();
  expect(part('Everything/HttpFn')).toBeUndefined();
  expect(part('Everything/ChatFn')).toBeUndefined();
  // Its function URL is served (issue 24): the function runs.
  expect(part('Everything/UrlFn')).toBeUndefined();
  expect(part('Everything/Worker')?.reason).toMatch(/^invoked by an event source mapping \(SQS, Kinesis, DynamoDB Streams, \.\.\.\) \(WorkerSqsEventSource\w+\)/);
  expect(part('Everything/Cron')?.reason).toMatch(/^invoked by an EventBridge rule \(Nightly\w+\)/);
  expect(part('Everything/SeedProvider')?.reason).toMatch(/^the provider of custom resource Seed\w* \(AWS::CloudFormation::CustomResource\), which runs during deploy$/);
  expect(part('Everything/Orphan')).toMatchObject({ kind: 'function', reason: 'no API of the app invokes it' });
});

test('the listing has one aligned line per part', () => {
  const lines = unservedLines(app.unserved);
  expect(lines[0]).toBe(`Not served (${app.unserved.length}):`);
  expect(lines).toContain('  WebSocket API route  Everything/Chat join: AWS integration (only AWS_PROXY to a function and MOCK are served for WebSocket APIs) (the client gets Internal server error)');
  expect(lines).toContain('  function             Everything/Orphan: no API of the app invokes it');
  expect(unservedLines([])).toEqual([]);
});
