/**
 * `serve` with the first-class AWS service integrations of HTTP APIs, from a real CDK stack
 * (`HttpSqsIntegration` for each SQS subtype, `HttpStepFunctionsIntegration` for each Step
 * Functions subtype, `CfnIntegration` for EventBridge, Kinesis and AppConfig): each call is sent
 * in the service's protocol, signed, to `AWS_ENDPOINT_URL_<SERVICE>` / `AWS_ENDPOINT_URL` (a
 * local server that checks the signature, the action and its parameters), and the service's
 * status and body come back; without an endpoint the route answers 500 and says why.
 */
import * as http from 'http';
import { AddressInfo } from 'net';
import { Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpSqsIntegration, HttpStepFunctionsIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { FakeAwsServices, startFakeAwsServices } from './local/aws-services-fake';
import { curl, parseCurlResponse, Running, serve, synth } from './local/support';

const CREDENTIALS = { accessKeyId: 'AKIDHTTPAWS', secretAccessKey: 'http-aws-secret' };
const VARIABLES = ['AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_SQS', 'AWS_ENDPOINT_URL_SFN', 'AWS_ENDPOINT_URL_EVENTBRIDGE', 'AWS_ENDPOINT_URL_KINESIS',
  'AWS_ENDPOINT_URL_APPCONFIG', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'];

function buildApi(stack: Stack): void {
  const api = new apigwv2.HttpApi(stack, 'Api');
  const queue = new sqs.Queue(stack, 'Orders', { queueName: 'orders' });
  const machine = new sfn.StateMachine(stack, 'Machine', {
    stateMachineName: 'flow', definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'Pass')),
  });
  const post = (routePath: string, integration: apigwv2.HttpRouteIntegration) => {
    api.addRoutes({ path: routePath, methods: [apigwv2.HttpMethod.POST], integration });
  };
  post('/send', new HttpSqsIntegration('Send', { queue }));
  post('/send-mapped', new HttpSqsIntegration('SendMapped', {
    queue,
    parameterMapping: new apigwv2.ParameterMapping()
      .custom('QueueUrl', queue.queueUrl)
      .custom('MessageBody', '$request.body')
      .custom('MessageGroupId', '$request.header.x-group')
      .custom('MessageDeduplicationId', '$context.requestId')
      .custom('DelaySeconds', '$request.querystring.delay')
      .custom('MessageAttributes', '{"kind": {"DataType": "String", "StringValue": "order"}}'),
  }));
  post('/receive', new HttpSqsIntegration('Receive', {
    queue,
    subtype: apigwv2.HttpIntegrationSubtype.SQS_RECEIVE_MESSAGE,
    parameterMapping: new apigwv2.ParameterMapping().custom('QueueUrl', queue.queueUrl).custom('AttributeNames', 'All,SentTimestamp').custom('MaxNumberOfMessages', '5'),
  }));
  post('/delete', new HttpSqsIntegration('Delete', { queue, subtype: apigwv2.HttpIntegrationSubtype.SQS_DELETE_MESSAGE }));
  post('/purge', new HttpSqsIntegration('Purge', { queue, subtype: apigwv2.HttpIntegrationSubtype.SQS_PURGE_QUEUE }));
  post('/start', new HttpStepFunctionsIntegration('Start', { stateMachine: machine }));
  const express = new sfn.StateMachine(stack, 'Express', {
    stateMachineName: 'quick', stateMachineType: sfn.StateMachineType.EXPRESS, definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'QuickPass')),
  });
  post('/start-sync', new HttpStepFunctionsIntegration('StartSync', { stateMachine: express, subtype: apigwv2.HttpIntegrationSubtype.STEPFUNCTIONS_START_SYNC_EXECUTION }));
  post('/stop', new HttpStepFunctionsIntegration('Stop', {
    stateMachine: machine,
    subtype: apigwv2.HttpIntegrationSubtype.STEPFUNCTIONS_STOP_EXECUTION,
    parameterMapping: new apigwv2.ParameterMapping().custom('ExecutionArn', '$request.body.executionArn').custom('Cause', '$request.body.cause'),
  }));
  // The default mapping names the state machine, which StopExecution does not take: not served.
  post('/stop-default', new HttpStepFunctionsIntegration('StopDefault', { stateMachine: machine, subtype: apigwv2.HttpIntegrationSubtype.STEPFUNCTIONS_STOP_EXECUTION }));

  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com') });
  const stream = new kinesis.Stream(stack, 'Clicks', { streamName: 'clicks' });
  const raw = (id: string, routeKey: string, subtype: string, requestParameters: Record<string, string>) => {
    const integration = new apigwv2.CfnIntegration(stack, id, {
      apiId: api.apiId, integrationType: 'AWS_PROXY', integrationSubtype: subtype, credentialsArn: role.roleArn, payloadFormatVersion: '1.0', requestParameters,
    });
    new apigwv2.CfnRoute(stack, `${id}Route`, { apiId: api.apiId, routeKey, target: `integrations/${integration.ref}` });
  };
  raw('Events', 'POST /events', 'EventBridge-PutEvents', {
    Source: 'shop.orders', DetailType: '$request.header.x-detail-type', Detail: '$request.body.detail', Resources: '["arn:aws:x:1","arn:aws:x:2"]', Region: 'eu-west-1',
  });
  const slow = new apigwv2.CfnIntegration(stack, 'SlowKinesis', {
    apiId: api.apiId,
    integrationType: 'AWS_PROXY',
    integrationSubtype: 'Kinesis-PutRecord',
    credentialsArn: role.roleArn,
    payloadFormatVersion: '1.0',
    timeoutInMillis: 300,
    requestParameters: { StreamName: 'clicks', Data: 'x', PartitionKey: 'p' },
  });
  new apigwv2.CfnRoute(stack, 'SlowKinesisRoute', { apiId: api.apiId, routeKey: 'POST /slow-clicks', target: `integrations/${slow.ref}` });
  raw('Kinesis', 'POST /clicks/{user}', 'Kinesis-PutRecord', { StreamName: stream.streamName, Data: '$request.body.data', PartitionKey: '$request.path.user' });
  raw('AppConfig', 'GET /config', 'AppConfig-GetConfiguration', {
    Application: 'shop', Environment: '$stageVariables.environment', Configuration: 'flags', ClientId: '$request.querystring.client',
  });
  (api.defaultStage!.node.defaultChild as apigwv2.CfnStage).stageVariables = { environment: 'beta' };
}

let services: FakeAwsServices;
let running: Running;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const name of VARIABLES) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  services = await startFakeAwsServices(CREDENTIALS);
  process.env.AWS_ENDPOINT_URL = services.url;
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  running = await serve(synth(buildApi, { stackName: 'HttpAws', env: { account: '123456789012', region: 'us-east-1' } }), { quiet: true });
});

afterAll(async () => {
  await running?.close();
  await services?.close();
  for (const name of VARIABLES) {
    if (saved[name] === undefined) {
      delete process.env[name];
    } else {
      process.env[name] = saved[name];
    }
  }
});

async function call(target: string, args: string[] = []) {
  return parseCurlResponse((await curl(['-i', ...args, `${running.url}${target}`])).stdout);
}

const postJson = (body: unknown, ...more: string[]) => ['-X', 'POST', '-H', 'Content-Type: application/json', ...more, '--data', JSON.stringify(body)];
const lastCall = () => services.calls[services.calls.length - 1];
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/orders';

describe('SQS', () => {
  test('SQS-SendMessage (HttpSqsIntegration\'s default mapping): a signed query-protocol call; the service\'s status and JSON answer relayed', async () => {
    const response = await call('send', postJson({ MessageBody: 'hello' }));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['apigw-requestid']).toBeDefined();
    expect(JSON.parse(response.body)).toEqual({ SendMessageResponse: { ResponseMetadata: { RequestId: 'fake' }, SendMessageResult: { MessageId: 'm-1', MD5OfMessageBody: 'md5' } } });
    const sent = lastCall();
    expect(sent).toMatchObject({ method: 'POST', url: '/', service: 'sqs', action: 'SendMessage' });
    expect(sent.parameters).toEqual({ Action: 'SendMessage', Version: '2012-11-05', QueueUrl: QUEUE_URL, MessageBody: 'hello' });
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDHTTPAWS\/\d{8}\/us-east-1\/sqs\/aws4_request, /);
  });

  test('a request without the mapped body field leaves the parameter out, and the service\'s 400 is relayed', async () => {
    const response = await call('send', postJson({ other: 1 }));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).Error.Code).toBe('MissingParameter');
    expect(lastCall().parameters).toEqual({ Action: 'SendMessage', Version: '2012-11-05', QueueUrl: QUEUE_URL });
  });

  test('custom mapping: the whole body, a header, a query parameter, a context variable, a static attribute map flattened', async () => {
    const response = await call('send-mapped?delay=3', postJson({ id: 7 }, '-H', 'x-group: g1'));
    expect(response.status).toBe(200);
    expect(lastCall().parameters).toEqual({
      'Action': 'SendMessage',
      'Version': '2012-11-05',
      'QueueUrl': QUEUE_URL,
      'MessageBody': '{"id":7}',
      'MessageGroupId': 'g1',
      'MessageDeduplicationId': response.headers['apigw-requestid'],
      'DelaySeconds': '3',
      'MessageAttribute.1.Name': 'kind',
      'MessageAttribute.1.Value.DataType': 'String',
      'MessageAttribute.1.Value.StringValue': 'order',
    });
  });

  test('SQS-ReceiveMessage, -DeleteMessage and -PurgeQueue: each action with its parameters (a list flattened)', async () => {
    expect((await call('receive', ['-X', 'POST'])).status).toBe(200);
    expect(lastCall().parameters).toEqual({
      'Action': 'ReceiveMessage', 'Version': '2012-11-05', 'QueueUrl': QUEUE_URL, 'AttributeName.1': 'All', 'AttributeName.2': 'SentTimestamp', 'MaxNumberOfMessages': '5',
    });
    const deleted = await call('delete', postJson({ ReceiptHandle: 'r-1' }));
    expect(JSON.parse(deleted.body)).toEqual({ DeleteMessageResponse: { ResponseMetadata: { RequestId: 'fake' } } });
    expect(lastCall().parameters).toEqual({ Action: 'DeleteMessage', Version: '2012-11-05', QueueUrl: QUEUE_URL, ReceiptHandle: 'r-1' });
    expect((await call('purge', ['-X', 'POST'])).status).toBe(200);
    expect(lastCall().parameters).toEqual({ Action: 'PurgeQueue', Version: '2012-11-05', QueueUrl: QUEUE_URL });
  });
});

describe('JSON protocols', () => {
  test('StepFunctions-StartExecution, -StartSyncExecution, -StopExecution: X-Amz-Target, JSON 1.0, the state machine\'s ARN', async () => {
    const started = await call('start', postJson({ order: 1 }));
    expect(started.status).toBe(200);
    const start = lastCall();
    expect(start).toMatchObject({ service: 'states', action: 'StartExecution' });
    expect(start.headers['x-amz-target']).toBe('AWSStepFunctions.StartExecution');
    expect(start.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(start.parameters).toMatchObject({ StateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:flow' });
    expect(started.headers['content-type']).toBe('application/x-amz-json-1.0');

    await call('start-sync', postJson({ order: 2 }));
    expect(lastCall()).toMatchObject({ action: 'StartSyncExecution', parameters: expect.objectContaining({ StateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:quick' }) });

    const stopped = await call('stop', postJson({ executionArn: 'arn:aws:states:us-east-1:123456789012:execution:flow:run-1', cause: { why: 'test' } }));
    expect(lastCall()).toMatchObject({
      action: 'StopExecution', parameters: { ExecutionArn: 'arn:aws:states:us-east-1:123456789012:execution:flow:run-1', Cause: '{"why":"test"}' },
    });
    expect(stopped.status).toBe(400);
    expect(JSON.parse(stopped.body).__type).toBe('ExecutionDoesNotExist');
  });

  test('EventBridge-PutEvents: one entry of Entries, Resources a list, signed for the Region parameter', async () => {
    const response = await call('events', postJson({ detail: { id: 1 } }, '-H', 'x-detail-type: OrderPlaced'));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    const sent = lastCall();
    expect(sent.headers['x-amz-target']).toBe('AWSEvents.PutEvents');
    expect(sent.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(sent.headers.authorization).toMatch(/\/eu-west-1\/events\/aws4_request, /);
    expect(sent.parameters).toEqual({ Entries: [{ Source: 'shop.orders', DetailType: 'OrderPlaced', Detail: '{"id":1}', Resources: ['arn:aws:x:1', 'arn:aws:x:2'] }] });
  });

  test('Kinesis-PutRecord: the stream, the data and a path variable as partition key', async () => {
    const response = await call('clicks/u-9', postJson({ data: 'aGk=' }));
    expect(response.status).toBe(200);
    expect(lastCall().headers['x-amz-target']).toBe('Kinesis_20131202.PutRecord');
    expect(lastCall().parameters).toEqual({ StreamName: 'clicks', Data: 'aGk=', PartitionKey: 'u-9' });
  });
});

test('AppConfig-GetConfiguration: the REST GET with the application, a stage variable and the client id; the configuration relayed', async () => {
  const response = await call('config?client=c-1');
  expect(response.status).toBe(200);
  expect(response.body).toBe('{"feature":true}');
  expect(lastCall()).toMatchObject({
    method: 'GET',
    service: 'appconfig',
    action: 'GetConfiguration',
    parameters: { application: 'shop', environment: 'beta', configuration: 'flags', client_id: 'c-1' },
  });
});

test('a signature the service refuses: its 403 relayed', async () => {
  process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret';
  try {
    const response = await call('send', postJson({ MessageBody: 'x' }));
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).__type).toBe('InvalidSignatureException');
  } finally {
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  }
});

test('an integration whose mapping the subtype does not take is not served: 500, and the listing says why', async () => {
  expect(await call('stop-default', postJson({}))).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
  expect(running.server.routeTable().some((l) => l.includes('/stop-default')
    && l.includes('-> not served (AWS service integration StepFunctions-StopExecution with the parameter StateMachineArn, which StepFunctions-StopExecution does not take: answers 500)'))).toBe(true);
});

describe('without an endpoint', () => {
  test('the route answers 500 as the service\'s failure, the terminal names the variable, the listing says so', async () => {
    delete process.env.AWS_ENDPOINT_URL;
    try {
      const response = await call('send', postJson({ MessageBody: 'x' }));
      expect(response).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
      expect(running.lines.some((l) => l.startsWith(response.headers['apigw-requestid'])
        && l.includes('POST /send: SQS-SendMessage: AWS integration to sqs has no local endpoint: set AWS_ENDPOINT_URL_SQS (or AWS_ENDPOINT_URL)'))).toBe(true);
      expect(running.server.routeTable().some((l) => /POST\s+\S+\/send\s+-> SQS-SendMessage \(no endpoint: set AWS_ENDPOINT_URL_SQS or AWS_ENDPOINT_URL; answers 500\)/.test(l))).toBe(true);
      expect(running.server.routeTable().some((l) => /GET\s+\S+\/config\s+-> AppConfig-GetConfiguration \(no endpoint: set AWS_ENDPOINT_URL_APPCONFIG/.test(l))).toBe(true);
    } finally {
      process.env.AWS_ENDPOINT_URL = services.url;
    }
  });

  test('an endpoint that does not answer within the integration timeout: 503', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    process.env.AWS_ENDPOINT_URL_KINESIS = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const response = await call('slow-clicks', ['-X', 'POST']);
      expect(response).toMatchObject({ status: 503, body: '{"message":"Service Unavailable"}' });
      expect(running.lines.some((l) => l.startsWith(response.headers['apigw-requestid']) && l.includes('Kinesis-PutRecord') && l.includes('answered 503'))).toBe(true);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_KINESIS;
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('the service\'s own variable wins over AWS_ENDPOINT_URL; an endpoint that does not answer is 500', async () => {
    process.env.AWS_ENDPOINT_URL_SFN = 'http://127.0.0.1:1';
    try {
      expect(running.server.routeTable().some((l) => /POST\s+\S+\/start\s+-> StepFunctions-StartExecution at http:\/\/127\.0\.0\.1:1\s+\[NONE\]$/.test(l.trim()))).toBe(true);
      const response = await call('start', postJson({}));
      expect(response).toMatchObject({ status: 500, body: '{"message":"Internal Server Error"}' });
      expect(running.lines.some((l) => l.startsWith(response.headers['apigw-requestid']) && l.includes('StepFunctions-StartExecution at http://127.0.0.1:1/'))).toBe(true);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_SFN;
    }
  });
});
