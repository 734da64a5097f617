/**
 * The HTTP API reader on stacks built with aws-cdk-lib: the quick-create form, and each part it
 * cannot serve with the warning that says why.
 */
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, HttpSqsIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { HttpApiSpec } from '../../../../../src/cli/local/model/http-api';
import { readLocalApp } from '../../../../../src/cli/local/read-local-app';
import { inlineFunction, synth } from '../../support';

let apis: HttpApiSpec[];
let warnings: readonly string[];

beforeAll(() => {
  const app = readLocalApp(synth((stack) => {
    const fn = inlineFunction(stack, 'Fn', 'exports.handler = async () => "hi"');
    new apigwv2.CfnApi(stack, 'Quick', { name: 'Quick', protocolType: 'HTTP', target: fn.functionArn });

    const api = new apigwv2.HttpApi(stack, 'Parts');
    api.addRoutes({ path: '/queue', methods: [apigwv2.HttpMethod.POST], integration: new HttpSqsIntegration('Sqs', { queue: new sqs.Queue(stack, 'Q') }) });
    api.addRoutes({ path: '/fn', methods: [apigwv2.HttpMethod.GET], integration: new HttpLambdaIntegration('Fn', fn) });
    const vpcLink = new apigwv2.CfnIntegration(stack, 'VpcLinked', {
      apiId: api.apiId, integrationType: 'HTTP_PROXY', integrationMethod: 'ANY', integrationUri: 'http://internal.example', connectionType: 'VPC_LINK', connectionId: 'link', payloadFormatVersion: '1.0',
    });
    new apigwv2.CfnRoute(stack, 'Private', { apiId: api.apiId, routeKey: 'GET /private', target: `integrations/${vpcLink.ref}` });
    const mock = new apigwv2.CfnIntegration(stack, 'BadVersion', {
      apiId: api.apiId, integrationType: 'AWS_PROXY', integrationUri: fn.functionArn, payloadFormatVersion: '3.0',
    });
    new apigwv2.CfnRoute(stack, 'Versioned', { apiId: api.apiId, routeKey: 'GET /versioned', target: `integrations/${mock.ref}` });
    const service = (id: string, routeKey: string, subtype: string, requestParameters: Record<string, string>) => {
      const integration = new apigwv2.CfnIntegration(stack, id, { apiId: api.apiId, integrationType: 'AWS_PROXY', integrationSubtype: subtype, payloadFormatVersion: '1.0', requestParameters });
      new apigwv2.CfnRoute(stack, `${id}Route`, { apiId: api.apiId, routeKey, target: `integrations/${integration.ref}` });
    };
    service('UnknownSubtype', 'POST /unknown', 'SQS-ChangeMessageVisibility', { QueueUrl: 'https://q' });
    service('MissingParameter', 'POST /missing', 'Kinesis-PutRecord', { StreamName: 's', Data: '$request.body' });
    service('EventsInRegion', 'POST /events', 'EventBridge-PutEvents', { Detail: '$request.body', DetailType: 't', Source: 's', Region: 'eu-west-1' });
    new apigwv2.CfnRoute(stack, 'NoTarget', { apiId: api.apiId, routeKey: 'GET /nothing' });
    new apigwv2.CfnRoute(stack, 'BadKey', { apiId: api.apiId, routeKey: 'GET /{proxy+}/more' });

    new apigwv2.CfnApi(stack, 'FromS3', { bodyS3Location: { bucket: 'b', key: 'api.yaml' } });
    new apigwv2.CfnApi(stack, 'NoStage', { name: 'NoStage', protocolType: 'HTTP' });
  }, { stackName: 'Reader' }));
  apis = app.apis.filter((a): a is HttpApiSpec => a.kind === 'HTTP');
  warnings = app.warnings;
});

const api = (name: string) => apis.find((a) => a.name === name)!;
const route = (routeKey: string) => api('Parts').routes.find((r) => r.routeKey === routeKey)!;

test('quick create: Target and no RouteKey make a $default route to the function (payload 2.0) and a $default stage', () => {
  expect(api('Quick').stages).toEqual(['$default']);
  expect(api('Quick').routes).toEqual([expect.objectContaining({
    routeKey: '$default',
    method: undefined,
    integration: { type: 'AWS_PROXY', functionKey: expect.stringMatching(/\/Fn/), payloadFormatVersion: '2.0', timeoutMs: 30_000 },
  })]);
});

test('a Lambda integration by function ARN is read with its payload version and the 30 s timeout', () => {
  expect(route('GET /fn').integration).toEqual({ type: 'AWS_PROXY', functionKey: expect.stringMatching(/\/Fn/), payloadFormatVersion: '2.0', timeoutMs: 30_000 });
});

test('an AWS service integration (HttpSqsIntegration) is read with its parameters, the queue\'s URL as the template determines it, and the stack\'s region', () => {
  expect(route('POST /queue').integration).toEqual({
    type: 'AWS_SERVICE',
    subtype: 'SQS-SendMessage',
    parameters: { QueueUrl: expect.stringMatching(/^https:\/\/sqs\.[^/]+\/[^/]+\/\S+$/), MessageBody: '$request.body.MessageBody' },
    region: expect.any(String),
    timeoutMs: 30_000,
  });
});

test('a static Region parameter is the signing region', () => {
  expect(route('POST /events').integration).toMatchObject({ type: 'AWS_SERVICE', region: 'eu-west-1' });
});

test.each([
  ['POST /unknown', 'AWS service integration SQS-ChangeMessageVisibility (not an integration subtype of HTTP APIs)'],
  ['POST /missing', 'AWS service integration Kinesis-PutRecord without its required PartitionKey'],
  ['GET /private', 'HTTP_PROXY integration through a VPC link (a private integration: the VPC is not reachable locally)'],
  ['GET /versioned', 'AWS_PROXY integration with PayloadFormatVersion 3.0 (1.0 or 2.0)'],
  ['GET /nothing', 'a route without an integration'],
])('%s is not served: %s', (routeKey, description) => {
  expect(route(routeKey).integration).toEqual({ type: 'UNSUPPORTED', description });
});

test('each part not served is warned of at start, with why', () => {
  expect(warnings).toEqual(expect.arrayContaining([
    'Reader/MissingParameter: AWS service integration Kinesis-PutRecord without its required PartitionKey is not served locally; its routes answer 500',
    expect.stringMatching(/^Reader\/VpcLinked: HTTP_PROXY integration through a VPC link .* is not served locally; its routes answer 500$/),
    'Reader/NoTarget: route without a Target (no integration); answers 500',
    'Reader/BadKey: route key "GET /{proxy+}/more": a greedy path variable must end the path; not served',
    'Reader/FromS3: HTTP API defined by an OpenAPI document in S3 (BodyS3Location) is not served locally (the document is not in the template)',
    'Reader/NoStage: HTTP API has no stage; not served',
  ]));
  expect(api('Parts').routes.map((r) => r.routeKey)).not.toContain('GET /{proxy+}/more');
  expect(warnings.filter((w) => w.includes('SQS-SendMessage'))).toEqual([]);
});

test('an API defined by an OpenAPI document in S3 is not read; one without a stage is read with none', () => {
  expect(apis.map((a) => a.logicalId)).not.toContain('FromS3');
  expect(api('NoStage').stages).toEqual([]);
});
