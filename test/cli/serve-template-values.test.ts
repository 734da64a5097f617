/**
 * Values the template names but does not spell out, on a real synthesized CDK app: request and
 * response templates built with `Fn::Join` (a DynamoDB PutItem that embeds the table's name, a
 * `StepFunctionsRestApi`, a WHEN_NO_TEMPLATES method), an SQS integration URI with `Fn::GetAtt` of a
 * queue whose `QueueName` is in the template, and a function's variable holding `table.tableName`.
 * Each tier of the resolver: the template's names, stand-ins (named at start), deployed values from
 * `--outputs-file` and from `--from-stack` (the real AWS SDK client against a local CloudFormation),
 * and the CLI options of `serve` and `test-invoke`.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { Aws, CfnOutput, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { FakeDynamoDb, startFakeDynamoDb } from './local/dynamodb-fake';
import { curl, inlineFunction, parseCurlResponse, synth } from './local/support';
import { functionRuntime } from '../../src/cli/local/lambda/function-runtime';
import { LocalApp } from '../../src/cli/local/model/local-app';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { LocalApiServer } from '../../src/cli/local/server/server';
import { DeployedValues } from '../../src/cli/local/template/deployed-values';
import { readDeployedValues } from '../../src/cli/local-deployed-values';
import { runCli } from '../support/cli';
import { fakeAwsEnv, FakeCloudFormation } from '../support/fake-cloudformation';

const CREDENTIALS = { accessKeyId: 'AKIDRESOLVERTEST', secretAccessKey: 'resolver-test-secret' };
const VARIABLES = [
  'AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_SQS', 'AWS_ENDPOINT_URL_SFN', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN', 'AWS_ENDPOINT_URL_CLOUDFORMATION', 'AWS_REGION', 'AWS_PROFILE', 'AWS_EC2_METADATA_DISABLED', 'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
];
const ENV_HANDLER = 'exports.handler = async () => ({ statusCode: 200, body: JSON.stringify({ table: process.env.TABLE_NAME, named: process.env.NAMED }) });';

function buildApp(stack: Stack): void {
  const items = new dynamodb.Table(stack, 'Items', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const named = new dynamodb.Table(stack, 'Named', { tableName: 'named-items', partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const queue = new sqs.Queue(stack, 'Orders', { queueName: 'orders-queue' });
  const role = new iam.Role(stack, 'ApiRole', { assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com') });
  items.grantReadWriteData(role);
  queue.grantSendMessages(role);
  const api = new apigw.RestApi(stack, 'Api', { restApiName: 'items', deployOptions: { stageName: 'prod' } });
  api.root.addResource('items').addMethod('POST', new apigw.AwsIntegration({
    service: 'dynamodb',
    action: 'PutItem',
    options: {
      credentialsRole: role,
      requestTemplates: { 'application/json': `{"TableName": "${items.tableName}", "Item": {"id": {"S": "$input.path('$.id')"}}}` },
      integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': `{"stored": "${named.tableName}", "id": "$input.params('x')"}` } }],
    },
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('strict').addMethod('POST', new apigw.MockIntegration({
    passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_TEMPLATES,
    requestTemplates: { 'application/json': `{"statusCode": 200, "table": "${items.tableName}"}` },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': `{"queue": "${queue.queueName}"}` } }],
  }), { methodResponses: [{ statusCode: '200' }] });
  api.root.addResource('queue').addMethod('POST', new apigw.AwsIntegration({
    service: 'sqs',
    path: `${Aws.ACCOUNT_ID}/${queue.queueName}`,
    options: {
      credentialsRole: role,
      requestParameters: { 'integration.request.header.Content-Type': "'application/x-www-form-urlencoded'" },
      requestTemplates: { 'application/json': 'Action=SendMessage&MessageBody=$util.urlEncode($input.body)' },
      integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{"sent": true}' } }],
    },
  }), { methodResponses: [{ statusCode: '200' }] });
  const handler = inlineFunction(stack, 'Handler', ENV_HANDLER);
  handler.addEnvironment('TABLE_NAME', items.tableName);
  handler.addEnvironment('NAMED', named.tableName);
  api.root.addResource('env').addMethod('GET', new apigw.LambdaIntegration(handler));
  const machine = new sfn.StateMachine(stack, 'Flow', {
    definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'Done')),
    stateMachineType: sfn.StateMachineType.EXPRESS,
  });
  new apigw.StepFunctionsRestApi(stack, 'Flows', { stateMachine: machine, restApiName: 'flows', deployOptions: { stageName: 'prod' } });
  new CfnOutput(stack, 'ItemsTable', { value: items.tableName });
}

/** A recording stand-in for an AWS service endpoint (SQS, Step Functions): answers `reply`. */
interface Recorder {
  readonly url: string;
  readonly requests: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

async function startRecorder(reply: string, contentType: string): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      requests.push({ url: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'Content-Type': contentType, 'x-amzn-RequestId': 'fake' });
      res.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let assembly: string;
let template: any;
let itemsId: string;
let queueId: string;
let dynamo: FakeDynamoDb;
let sqsFake: Recorder;
let sfnFake: Recorder;
const saved: Record<string, string | undefined> = {};
const servers: LocalApiServer[] = [];

beforeAll(async () => {
  for (const name of VARIABLES) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  dynamo = await startFakeDynamoDb(CREDENTIALS);
  sqsFake = await startRecorder('<SendMessageResponse><SendMessageResult><MessageId>m-1</MessageId></SendMessageResult></SendMessageResponse>', 'text/xml');
  sfnFake = await startRecorder(JSON.stringify({ status: 'SUCCEEDED', output: '{"hello":"world"}', executionArn: 'arn:x' }), 'application/x-amz-json-1.0');
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.url;
  process.env.AWS_ENDPOINT_URL_SQS = sqsFake.url;
  process.env.AWS_ENDPOINT_URL_SFN = sfnFake.url;
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  assembly = synth(buildApp, { stackName: 'Backend' });
  template = JSON.parse(fs.readFileSync(path.join(assembly, 'Backend.template.json'), 'utf8'));
  itemsId = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::DynamoDB::Table' && template.Resources[id].Properties.TableName === undefined)!;
  queueId = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::SQS::Queue')!;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await dynamo?.close();
  await sqsFake?.close();
  await sfnFake?.close();
  for (const name of VARIABLES) {
    if (saved[name] === undefined) {
      delete process.env[name];
    } else {
      process.env[name] = saved[name];
    }
  }
});

/** Serves `app`; resolves to the stage URL of each API by name. */
async function serveApp(app: LocalApp): Promise<{ urls: Record<string, string>; server: LocalApiServer }> {
  const server = await LocalApiServer.start(app, { port: 0, print: () => undefined });
  servers.push(server);
  const urls: Record<string, string> = {};
  for (const endpoint of server.endpoints) {
    urls[endpoint.api.name] = endpoint.urls[0];
  }
  return { urls, server };
}

async function call(args: string[]) {
  return parseCurlResponse((await curl(['-i', ...args])).stdout);
}

/** Sets (or, for undefined, removes) process environment variables. */
function setEnvironment(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) {
      delete process.env[key];
    } else {
      process.env[key] = value;
    }
  }
}

function standInOf(id: string): string {
  return `Backend-${id}-LOCAL`;
}

describe('without deployed values: the template\'s names, else stand-ins', () => {
  let urls: Record<string, string>;
  let server: LocalApiServer;
  let app: LocalApp;

  beforeAll(async () => {
    app = readLocalApp(assembly);
    ({ urls, server } = await serveApp(app));
  });

  test('a DynamoDB PutItem template built with Fn::Join reaches the service with the table\'s name; the response template built with Fn::Join is rendered', async () => {
    const put = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"id": "a-1"}', `${urls.items}items?x=1`]);
    expect(put.status).toBe(200);
    expect(JSON.parse(put.body)).toEqual({ stored: 'named-items', id: '1' });
    const request = JSON.parse(dynamo.requests[dynamo.requests.length - 1].body);
    expect(request).toEqual({ TableName: standInOf(itemsId), Item: { id: { S: 'a-1' } } });
    expect(dynamo.tables.get(standInOf(itemsId))?.size).toBe(1);
  });

  test('a WHEN_NO_TEMPLATES method whose only template is built with Fn::Join answers 415 to text/plain, and maps application/json', async () => {
    const plain = await call(['-X', 'POST', '-H', 'Content-Type: text/plain', '--data', 'hi', `${urls.items}strict`]);
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.body)).toEqual({ message: 'Unsupported Media Type' });
    const json = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{}', `${urls.items}strict`]);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toEqual({ queue: 'orders-queue' });
  });

  test('an SQS integration URI with Fn::GetAtt of a queue whose QueueName is in the template is served', async () => {
    const sent = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"order": 1}', `${urls.items}queue`]);
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body)).toEqual({ sent: true });
    expect(sqsFake.requests[sqsFake.requests.length - 1].url).toBe('/123456789012/orders-queue');
  });

  test('a StepFunctionsRestApi starts the execution with the state machine\'s ARN and answers its output, not 415', async () => {
    const started = await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"in": 1}', urls.flows]);
    expect(started.status).toBe(200);
    expect(JSON.parse(started.body)).toEqual({ hello: 'world' });
    const request = sfnFake.requests[sfnFake.requests.length - 1];
    expect(request.headers['x-amz-target']).toBe('AWSStepFunctions.StartSyncExecution');
    const machineId = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::StepFunctions::StateMachine')!;
    expect(JSON.parse(request.body).stateMachineArn).toBe(`arn:aws:states:us-east-1:123456789012:stateMachine:${standInOf(machineId)}`);
  });

  test('a function\'s variable holding table.tableName is the stand-in, never CloudFormation JSON; a named table is its name', async () => {
    const env = await call([`${urls.items}env`]);
    expect(env.status).toBe(200);
    expect(JSON.parse(env.body)).toEqual({ table: standInOf(itemsId), named: 'named-items' });
  });

  test('the start-up listing names each stand-in per method and per function, with what to pass', () => {
    const routes = server.routeTable().join('\n');
    expect(routes).toContain(`stand-in "${standInOf(itemsId)}" for Ref ${itemsId} (pass --outputs-file FILE or --from-stack NAME)`);
    expect(routes).not.toContain(`for Ref ${queueId}`);
    const warnings = functionRuntime(app, undefined).warnings;
    expect(warnings).toContain(`Backend/Handler: TABLE_NAME = stand-in "${standInOf(itemsId)}" for Ref ${itemsId} (pass --outputs-file FILE, --from-stack NAME or --env-vars FILE)`);
    expect(warnings.filter((w) => w.includes('NAMED'))).toEqual([]);
  });

  test('a variable that --env-vars sets is not named', () => {
    const envVars = { file: 'env.json', parameters: {}, perFunction: new Map([['Backend/Handler', { TABLE_NAME: 'mine' }]]) };
    expect(functionRuntime(app, envVars).warnings.filter((w) => w.includes('TABLE_NAME'))).toEqual([]);
  });
});

describe('deployed values', () => {
  test('--outputs-file: an output that is exactly a Ref gives the deployed name to the template and the function; no stand-in is named', async () => {
    const file = path.join(assembly, 'outputs.json');
    fs.writeFileSync(file, JSON.stringify({ Backend: { ItemsTable: 'Backend-Items-DEPLOYED1' } }));
    const deployed = await readDeployedValues({ kind: 'outputs-file', file });
    expect(deployed.source).toBe(`--outputs-file ${file}`);
    const app = readLocalApp(assembly, [], deployed);
    const { urls, server } = await serveApp(app);
    const env = await call([`${urls.items}env`]);
    expect(JSON.parse(env.body)).toEqual({ table: 'Backend-Items-DEPLOYED1', named: 'named-items' });
    await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{"id": "d-1"}', `${urls.items}items`]);
    expect(JSON.parse(dynamo.requests[dynamo.requests.length - 1].body).TableName).toBe('Backend-Items-DEPLOYED1');
    expect(server.routeTable().join('\n')).not.toContain(`for Ref ${itemsId}`);
    expect(functionRuntime(app, undefined).warnings.filter((w) => w.includes('stand-in'))).toEqual([]);
  });

  test('--from-stack: the physical ids of ListStackResources, through the real AWS SDK client', async () => {
    const fake = new FakeCloudFormation();
    const endpoint = await fake.start();
    const before = { ...process.env };
    setEnvironment(fakeAwsEnv(endpoint, assembly));
    try {
      const machineId = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::StepFunctions::StateMachine')!;
      fake.stacks = [{
        name: 'Backend',
        id: 'arn:aws:cloudformation:eu-west-1:210987654321:stack/Backend/guid',
        template,
        outputs: {},
        resources: { [itemsId]: 'Backend-Items-PHYSICAL', [machineId]: 'arn:aws:states:eu-west-1:210987654321:stateMachine:Flow-PHYSICAL', Unrelated: 'x' },
      }];
      const deployed: DeployedValues = await readDeployedValues({ kind: 'stack', stack: 'Backend' });
      expect(fake.actions()).toEqual(['DescribeStacks', 'ListStackResources', 'ListStackResources']);
      const app = readLocalApp(assembly, [], deployed);
      const fn = [...app.functions.values()].find((f) => f.logicalId.startsWith('Handler'))!;
      expect(fn.environment.TABLE_NAME).toBe('Backend-Items-PHYSICAL');
      expect(fn.standIns).toBeUndefined();
      const { urls } = await serveApp(app);
      await call(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', '{}', urls.flows]);
      expect(JSON.parse(sfnFake.requests[sfnFake.requests.length - 1].body).stateMachineArn).toBe('arn:aws:states:eu-west-1:210987654321:stateMachine:Flow-PHYSICAL');
    } finally {
      for (const key of Object.keys(process.env)) {
        if (!(key in before)) {
          delete process.env[key];
        }
      }
      Object.assign(process.env, before);
      await fake.stop();
    }
  });

  test('--from-stack of a stack that does not exist is an error naming it', async () => {
    const fake = new FakeCloudFormation();
    const endpoint = await fake.start();
    const before = { ...process.env };
    setEnvironment(fakeAwsEnv(endpoint, assembly));
    try {
      await expect(readDeployedValues({ kind: 'stack', stack: 'Gone' })).rejects.toThrow('stack Gone not found in region us-east-1 (check the name, --region and --profile)');
    } finally {
      for (const key of Object.keys(process.env)) {
        if (!(key in before)) {
          delete process.env[key];
        }
      }
      Object.assign(process.env, before);
      await fake.stop();
    }
  });
});

describe('the CLI: --outputs-file and --from-stack on test-invoke and serve', () => {
  test('test-invoke without deployed values names the stand-in on stderr; with --outputs-file the function sees the deployed name', async () => {
    const file = path.join(assembly, 'cli-outputs.json');
    fs.writeFileSync(file, JSON.stringify({ Backend: { ItemsTable: 'cli-deployed-items' } }));
    const args = ['test-invoke', '--app', assembly, '--api', 'items', '--method', 'GET', '--path', '/env', '--json'];
    const plain = await runCli(args);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(`warning: Backend/Handler: TABLE_NAME = stand-in "${standInOf(itemsId)}" for Ref ${itemsId}`);
    expect(JSON.parse(JSON.parse(plain.stdout).body).table).toBe(standInOf(itemsId));
    const deployed = await runCli([...args, '--outputs-file', file]);
    expect(deployed.code).toBe(0);
    expect(deployed.stderr).not.toContain('stand-in');
    expect(JSON.parse(JSON.parse(deployed.stdout).body).table).toBe('cli-deployed-items');
  });

  test('test-invoke names the stand-ins of the method it invokes; --outputs-file replaces them', async () => {
    const args = ['test-invoke', '--app', assembly, '--api', 'items', '--method', 'POST', '--path', '/strict', '--header', 'Content-Type:application/json', '--body', '{}'];
    const plain = await runCli(args);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(`warning: POST /strict: stand-in "${standInOf(itemsId)}" for Ref ${itemsId} (pass --outputs-file FILE or --from-stack NAME)\n`);
    expect(plain.stdout).toContain('Status: 200');
    const file = path.join(assembly, 'cli-outputs-strict.json');
    fs.writeFileSync(file, JSON.stringify({ Backend: { ItemsTable: 'cli-deployed-items' } }));
    const deployed = await runCli([...args, '--outputs-file', file]);
    expect(deployed.code).toBe(0);
    expect(deployed.stderr).not.toContain('stand-in');
  });

  test('test-invoke --from-stack reads the deployed stack through CloudFormation', async () => {
    const fake = new FakeCloudFormation();
    const endpoint = await fake.start();
    try {
      fake.stacks = [{ name: 'Backend', template, outputs: {}, resources: { [itemsId]: 'cli-physical-items' } }];
      const run = await runCli(['test-invoke', '--app', assembly, '--api', 'items', '--method', 'GET', '--path', '/env', '--json', '--from-stack', 'Backend'], {
        env: fakeAwsEnv(endpoint, assembly),
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(JSON.parse(run.stdout).body).table).toBe('cli-physical-items');
    } finally {
      await fake.stop();
    }
  });

  test.each([
    [['--from-stack', 'A', '--outputs-file', 'b.json'], 'give either --from-stack NAME or --outputs-file FILE, not both'],
    [['--from-stack', ' '], '--from-stack needs the name of a deployed stack'],
    [['--outputs-file', ''], '--outputs-file needs a file (the JSON of cdk deploy --outputs-file)'],
  ])('serve %j is a usage error (exit 2)', async (extra, message) => {
    const run = await runCli(['serve', '--app', assembly, ...extra]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  test('serve --outputs-file of a file that is not the outputs JSON fails before serving (exit 1), naming the file', async () => {
    const file = path.join(assembly, 'bad-outputs.json');
    fs.writeFileSync(file, JSON.stringify({ Backend: { ItemsTable: 3 } }));
    const run = await runCli(['serve', '--app', assembly, '--port', '0', '--outputs-file', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: "Backend"."ItemsTable" is not a string (got 3)`);
  });

  test.each(['serve', 'sandbox', 'test-invoke'])('%s --help lists --from-stack and --outputs-file', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.stdout).toContain('--from-stack NAME');
    expect(run.stdout).toContain('--outputs-file FILE');
  });
});
