/**
 * `serve` with AWS service integrations built by aws-cdk-lib's AwsIntegration: DynamoDB PutItem
 * and GetItem with mapping templates, sent to the endpoint named by AWS_ENDPOINT_URL_DYNAMODB (a
 * local server that speaks DynamoDB's JSON 1.0 protocol and checks each SigV4 signature with the
 * SDK's signer), and a service without an endpoint variable (500, the variable named).
 */
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { FakeDynamoDb, startFakeDynamoDb } from './local/dynamodb-fake';
import { curl, parseCurlResponse, Running, serve, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { restApi } from '../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { ExecutionLog, LocalGateway } from '../../src/cli/local/rest/gateway';

const CREDENTIALS = { accessKeyId: 'AKIDSERVETEST', secretAccessKey: 'serve-test-secret' };
const VARIABLES = ['AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_SQS', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'];

function buildApi(stack: Stack): void {
  const table = new dynamodb.Table(stack, 'Items', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const role = new iam.Role(stack, 'ApiRole', { assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com') });
  table.grantReadWriteData(role);
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  const items = api.root.addResource('items');
  items.addMethod('POST', new apigw.AwsIntegration({
    service: 'dynamodb',
    action: 'PutItem',
    options: {
      credentialsRole: role,
      requestTemplates: {
        'application/json': '{"TableName": "Items", "Item": {"id": {"S": "$input.path(\'$.id\')"}, "name": {"S": "$input.path(\'$.name\')"}}}',
      },
      integrationResponses: [
        { statusCode: '201', responseTemplates: { 'application/json': '{"stored": "$input.path(\'$\')"}' } },
        { statusCode: '400', selectionPattern: '4\\d{2}', responseTemplates: { 'application/json': '{"error": "$input.path(\'$.__type\')"}' } },
      ],
    },
  }), { methodResponses: [{ statusCode: '201' }, { statusCode: '400' }] });
  items.addResource('{id}').addMethod('GET', new apigw.AwsIntegration({
    service: 'dynamodb',
    action: 'GetItem',
    options: {
      credentialsRole: role,
      requestTemplates: { 'application/json': '{"TableName": "Items", "Key": {"id": {"S": "$input.params(\'id\')"}}}' },
      integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{"id": "$input.path(\'$.Item.id.S\')", "name": "$input.path(\'$.Item.name.S\')"}' } }],
    },
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('queue').addMethod('POST', new apigw.AwsIntegration({
    service: 'sqs',
    path: '123456789012/orders',
    options: {
      credentialsRole: role,
      requestParameters: { 'integration.request.header.Content-Type': "'application/x-www-form-urlencoded'" },
      requestTemplates: { 'application/json': 'Action=SendMessage&MessageBody=$util.urlEncode($input.body)' },
      integrationResponses: [{ statusCode: '200' }],
    },
  }), { methodResponses: [{ statusCode: '200' }] });
}

let dynamo: FakeDynamoDb;
let running: Running;
let assembly: string;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const name of VARIABLES) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  dynamo = await startFakeDynamoDb(CREDENTIALS);
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.url;
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  assembly = synth(buildApi);
  running = await serve(assembly);
});

afterAll(async () => {
  await running?.close();
  await dynamo?.close();
  for (const name of VARIABLES) {
    if (saved[name] === undefined) {
      delete process.env[name];
    } else {
      process.env[name] = saved[name];
    }
  }
});

async function call(args: string[]) {
  return parseCurlResponse((await curl(['-i', ...args])).stdout);
}

test('PutItem then GetItem through the gateway: mapped, signed, sent to AWS_ENDPOINT_URL_DYNAMODB, the answer mapped back', async () => {
  const put = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"id": "a-1", "name": "first"}', `${running.url}items`]);
  expect(put.status).toBe(201);
  expect(JSON.parse(put.body)).toEqual({ stored: '{}' });
  const request = dynamo.requests[dynamo.requests.length - 1];
  expect(request.url).toBe('/?Action=PutItem');
  expect(request.headers['x-amz-target']).toBe('DynamoDB_20120810.PutItem');
  expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDSERVETEST\/\d{8}\/us-east-1\/dynamodb\/aws4_request, /);
  expect(dynamo.tables.get('Items')?.get(JSON.stringify({ id: { S: 'a-1' } }))).toEqual({ id: { S: 'a-1' }, name: { S: 'first' } });

  const get = await call([`${running.url}items/a-1`]);
  expect(get.status).toBe(200);
  expect(JSON.parse(get.body)).toEqual({ id: 'a-1', name: 'first' });
});

test('the service\'s 4xx selects the integration response by status (a signature the service refuses)', async () => {
  process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret';
  try {
    const put = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"id": "a-2", "name": "second"}', `${running.url}items`]);
    expect(put.status).toBe(400);
    expect(JSON.parse(put.body)).toEqual({ error: 'com.amazon.coral.service#InvalidSignatureException' });
    expect(dynamo.tables.get('Items')?.has(JSON.stringify({ id: { S: 'a-2' } }))).toBe(false);
  } finally {
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  }
});

test('no endpoint variable for the service: 500 Internal server error, the variable to set in the terminal', async () => {
  const response = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"order": 1}', `${running.url}queue`]);
  expect(response.status).toBe(500);
  expect(response.body).toBe('{"message":"Internal server error"}');
  expect(running.lines.some((l) => l.includes('set AWS_ENDPOINT_URL_SQS (or AWS_ENDPOINT_URL) to the address of a local service'))).toBe(true);
});

test('the execution log shows the signed endpoint request with the Authorization value masked', async () => {
  const app = readLocalApp(assembly);
  const invoker = new Invoker(app.functions, { log: () => undefined });
  try {
    const gateway = new LocalGateway({ api: restApi(app.apis[0]), invoker, functions: app.functions });
    const log = new ExecutionLog();
    const response = await gateway.handle({ method: 'GET', target: '/prod/items/a-1', rawHeaders: [], body: Buffer.alloc(0), sourceIp: '127.0.0.1' }, log);
    expect(response.statusCode).toBe(200);
    const text = log.lines.join('\n');
    expect(text).toContain(`Endpoint request URI: ${dynamo.url}/?Action=GetItem`);
    expect(text).toMatch(/Endpoint request headers: \{.*x-amz-target=DynamoDB_20120810\.GetItem.*authorization=\*+[0-9a-f]{4}\}/i);
    expect(text).not.toContain(CREDENTIALS.secretAccessKey);
  } finally {
    await invoker.close();
  }
});
