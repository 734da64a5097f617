/**
 * The request of an AWS service integration: endpoint from the SDKs' variables, the protocol's
 * headers, and a SigV4 signature that a server checking it with the SDK's own signer accepts.
 */
import { awsServiceEndpoint, awsServiceRequest } from '../../../../../src/cli/local/rest/integrations/aws-service-request';
import { OutboundRequest, sendOutbound } from '../../../../../src/cli/local/rest/integrations/outbound';
import { FakeDynamoDb, startFakeDynamoDb } from '../../dynamodb-fake';

const CREDENTIALS = { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-secret' };
const CREDENTIALS_ENV = { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey };

let dynamo: FakeDynamoDb;

beforeAll(async () => {
  dynamo = await startFakeDynamoDb(CREDENTIALS);
});

afterAll(() => dynamo.close());

const header = (request: OutboundRequest, name: string) => request.headers.find(([n]) => n.toLowerCase() === name)?.[1];

function build(uri: string, env: NodeJS.ProcessEnv, options: { body?: string; httpMethod?: string; headers?: Array<[string, string]> } = {}) {
  return awsServiceRequest({
    uri,
    httpMethod: options.httpMethod ?? 'POST',
    body: Buffer.from(options.body ?? ''),
    headers: options.headers ?? [],
    region: 'eu-west-1',
    env,
  });
}

test('DynamoDB action: ?Action=, X-Amz-Target and the JSON 1.0 content type; the signature verifies with the SDK signer', async () => {
  const item = { TableName: 'Items', Item: { id: { S: 'a1' }, name: { S: 'first' } } };
  const built = await build('arn:aws:apigateway:eu-west-1:dynamodb:action/PutItem', { AWS_ENDPOINT_URL_DYNAMODB: dynamo.url, ...CREDENTIALS_ENV }, { body: JSON.stringify(item) });
  expect('missingEndpoint' in built).toBe(false);
  const outbound = built as OutboundRequest;
  expect(outbound.url).toBe(`${dynamo.url}/?Action=PutItem`);
  expect(outbound.method).toBe('POST');
  expect(header(outbound, 'x-amz-target')).toBe('DynamoDB_20120810.PutItem');
  expect(header(outbound, 'content-type')).toBe('application/x-amz-json-1.0');
  expect(header(outbound, 'authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, /);

  const put = await sendOutbound(outbound, 5000);
  expect(put).toMatchObject({ statusCode: 200 });
  expect(dynamo.tables.get('Items')?.get(JSON.stringify({ id: { S: 'a1' } }))).toEqual(item.Item);

  const got = await sendOutbound(await build('arn:aws:apigateway:eu-west-1:dynamodb:action/GetItem', { AWS_ENDPOINT_URL_DYNAMODB: dynamo.url, ...CREDENTIALS_ENV }, {
    body: JSON.stringify({ TableName: 'Items', Key: { id: { S: 'a1' } } }),
  }) as OutboundRequest, 5000);
  expect('statusCode' in got && JSON.parse(got.body.toString())).toEqual({ Item: item.Item });
});

test('a wrong secret key fails the service\'s signature check (the check is real)', async () => {
  const built = await build('arn:aws:apigateway:eu-west-1:dynamodb:action/PutItem', {
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: 'another-secret',
  }, { body: '{"TableName":"Items","Item":{"id":{"S":"x"}}}' });
  const result = await sendOutbound(built as OutboundRequest, 5000);
  expect(result).toMatchObject({ statusCode: 400 });
  expect('statusCode' in result && JSON.parse(result.body.toString()).__type).toBe('com.amazon.coral.service#InvalidSignatureException');
});

test('a session token is sent and signed', async () => {
  const withToken = await startFakeDynamoDb({ ...CREDENTIALS, sessionToken: 'session-token-1' });
  try {
    const built = await build('arn:aws:apigateway:eu-west-1:dynamodb:action/GetItem', {
      ...CREDENTIALS_ENV, AWS_SESSION_TOKEN: 'session-token-1', AWS_ENDPOINT_URL: withToken.url,
    }, { body: '{"TableName":"T","Key":{"id":{"S":"none"}}}' }) as OutboundRequest;
    expect(header(built, 'x-amz-security-token')).toBe('session-token-1');
    expect(header(built, 'authorization')).toContain('x-amz-security-token');
    await expect(sendOutbound(built, 5000)).resolves.toMatchObject({ statusCode: 200 });
  } finally {
    await withToken.close();
  }
});

test('without credentials in the environment the request is signed with the placeholder pair local/local', async () => {
  const built = await build('arn:aws:apigateway:eu-west-1:dynamodb:action/GetItem', { AWS_ENDPOINT_URL: 'http://127.0.0.1:1' }) as OutboundRequest;
  expect(header(built, 'authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=local\//);
});

test('the service-specific variable wins over AWS_ENDPOINT_URL; a mapping\'s Content-Type is kept', async () => {
  const built = await build('arn:aws:apigateway:eu-west-1:dynamodb:action/Query', {
    AWS_ENDPOINT_URL: 'http://127.0.0.1:1', AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:2/base/',
  }, { headers: [['Content-Type', 'application/json']] }) as OutboundRequest;
  expect(built.url).toBe('http://127.0.0.1:2/base/?Action=Query');
  expect(header(built, 'content-type')).toBe('application/json');
});

test.each([
  ['dynamodb', 'AWS_ENDPOINT_URL_DYNAMODB'],
  ['states', 'AWS_ENDPOINT_URL_SFN'],
  ['events', 'AWS_ENDPOINT_URL_EVENTBRIDGE'],
  ['kinesis', 'AWS_ENDPOINT_URL_KINESIS'],
  ['logs', 'AWS_ENDPOINT_URL_CLOUDWATCH_LOGS'],
  ['secretsmanager', 'AWS_ENDPOINT_URL_SECRETS_MANAGER'],
  ['sqs', 'AWS_ENDPOINT_URL_SQS'],
  ['sns', 'AWS_ENDPOINT_URL_SNS'],
  ['mybucket.s3', 'AWS_ENDPOINT_URL_S3'],
])('no endpoint for %s: names %s', async (service, variable) => {
  await expect(build(`arn:aws:apigateway:eu-west-1:${service}:action/Anything`, {})).resolves.toEqual({
    missingEndpoint: variable,
    message: `AWS integration to ${service.replace('mybucket.', '')} has no local endpoint: set ${variable} (or AWS_ENDPOINT_URL) to the address of a local service such as DynamoDB Local or LocalStack`,
  });
});

test.each([
  ['states', 'StartExecution', 'AWSStepFunctions.StartExecution', 'application/x-amz-json-1.0', 'states'],
  ['events', 'PutEvents', 'AWSEvents.PutEvents', 'application/x-amz-json-1.1', 'events'],
  ['kinesis', 'PutRecord', 'Kinesis_20131202.PutRecord', 'application/x-amz-json-1.1', 'kinesis'],
])('%s action %s: X-Amz-Target %s, %s, signed for %s', async (service, action, target, contentType, signingName) => {
  const built = await build(`arn:aws:apigateway:eu-west-1:${service}:action/${action}`, { AWS_ENDPOINT_URL: 'http://127.0.0.1:9' }) as OutboundRequest;
  expect(header(built, 'x-amz-target')).toBe(target);
  expect(header(built, 'content-type')).toBe(contentType);
  expect(header(built, 'authorization')).toContain(`/eu-west-1/${signingName}/aws4_request`);
});

test('query-protocol action (SNS Publish): the action and the URI\'s parameters in the query string, no X-Amz-Target', async () => {
  const built = await build('arn:aws:apigateway:eu-west-1:sns:action/Publish&TopicArn=arn%3Aaws%3Asns%3Aeu-west-1%3A1%3At&Message=hi there', {
    AWS_ENDPOINT_URL_SNS: 'http://127.0.0.1:9',
  }) as OutboundRequest;
  expect(built.url).toBe('http://127.0.0.1:9/?Action=Publish&TopicArn=arn%3Aaws%3Asns%3Aeu-west-1%3A1%3At&Message=hi%20there');
  expect(header(built, 'x-amz-target')).toBeUndefined();
});

test('path form (SQS queue, S3 bucket subdomain): the path below the endpoint, the method as given', async () => {
  const sqs = await build('arn:aws:apigateway:eu-west-1:sqs:path/123456789012/orders', { AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:9' }, {
    body: 'Action=SendMessage&MessageBody=x', headers: [['Content-Type', 'application/x-www-form-urlencoded']],
  }) as OutboundRequest;
  expect(sqs.url).toBe('http://127.0.0.1:9/123456789012/orders');
  expect(header(sqs, 'content-type')).toBe('application/x-www-form-urlencoded');

  const s3 = await build('arn:aws:apigateway:eu-west-1:mybucket.s3:path/photos/cat.png', { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' }, { httpMethod: 'get' }) as OutboundRequest;
  expect(s3.url).toBe('http://127.0.0.1:9/mybucket/photos/cat.png');
  expect(s3.method).toBe('GET');
  expect(header(s3, 'x-amz-content-sha256')).toMatch(/^[0-9a-f]{64}$/);
});

test('an endpoint variable that is not a URL names the variable', async () => {
  await expect(build('arn:aws:apigateway:eu-west-1:dynamodb:action/GetItem', { AWS_ENDPOINT_URL_DYNAMODB: 'localhost 8000' })).resolves.toEqual({
    missingEndpoint: 'AWS_ENDPOINT_URL_DYNAMODB',
    message: 'AWS_ENDPOINT_URL_DYNAMODB: "localhost 8000" is not a URL (http://host:port)',
  });
});

test('the endpoint an AWS integration uses, for the start-up listing', () => {
  const uri = 'arn:aws:apigateway:eu-west-1:dynamodb:action/PutItem';
  expect(awsServiceEndpoint(uri, {})).toEqual({ service: 'dynamodb', variable: 'AWS_ENDPOINT_URL_DYNAMODB', endpoint: undefined });
  expect(awsServiceEndpoint(uri, { AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' })).toEqual({ service: 'dynamodb', variable: 'AWS_ENDPOINT_URL_DYNAMODB', endpoint: 'http://127.0.0.1:4566' });
  expect(awsServiceEndpoint(uri, { AWS_ENDPOINT_URL: 'http://a', AWS_ENDPOINT_URL_DYNAMODB: 'http://b' })?.endpoint).toBe('http://b');
  expect(awsServiceEndpoint('not an arn', {})).toBeUndefined();
});
