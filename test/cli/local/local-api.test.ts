/**
 * The local-API service (startLocalApi) on its own: what serve and sandbox share. Warnings, the
 * refusals before anything listens, the network warning, the access lines, and a reload.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { inlineFunction, synth } from './support';
import { LocalApiError } from '../../../src/cli/local/common/local-api-error';
import { LocalApi, LocalApiStart, startLocalApi } from '../../../src/cli/local/local-api';
import { LocalApiSettings } from '../../../src/cli/local/local-api-settings';
import { prepareLocalApp } from '../../../src/cli/local/local-app-setup';
import { LocalApp } from '../../../src/cli/local/model/local-app';
import { readLocalApp } from '../../../src/cli/local/read-local-app';

const SETTINGS: LocalApiSettings = { stacks: [], port: 0, host: '127.0.0.1', quiet: true, allowUnsigned: false, apiKeys: [] };

function mock(): apigw.MockIntegration {
  return new apigw.MockIntegration({ requestTemplates: { 'application/json': '{"statusCode": 200}' }, integrationResponses: [{ statusCode: '200' }] });
}

let signed: LocalApp;
let unstaged: LocalApp;

beforeAll(() => {
  signed = readLocalApp(synth((stack) => {
    const api = new apigw.RestApi(stack, 'Signed', { deployOptions: { stageName: 'dev' } });
    api.root.addMethod('GET', mock(), { authorizationType: apigw.AuthorizationType.IAM, methodResponses: [{ statusCode: '200' }] });
  }, { stackName: 'Signed' }));
  unstaged = readLocalApp(synth((stack) => {
    new apigw.CfnRestApi(stack, 'NoStage', { name: 'NoStage' });
  }, { stackName: 'Unstaged' }));
});

test('an app whose only API is a WebSocket API without a stage is refused naming it, its kind and why (not its functions)', async () => {
  const chatOnly = readLocalApp(synth((stack) => {
    const api = new apigwv2.WebSocketApi(stack, 'Chat');
    api.addRoute('send', { integration: new WebSocketLambdaIntegration('Send', inlineFunction(stack, 'Send', 'exports.handler = async () => ({})')) });
  }, { stackName: 'ChatOnly' }));
  const start = startLocalApi({
    settings: SETTINGS, prepared: prepareLocalApp(chatOnly, SETTINGS), print: () => undefined, warn: () => undefined, requireApi: true, source: 'cdk.out',
  });
  await expect(start).rejects.toMatchObject({
    kind: 'input',
    message: 'no REST, HTTP or WebSocket API with a stage in cdk.out; nothing to serve\nNot served (1):\n  WebSocket API  ChatOnly/Chat: it has no stage',
  });
});

test('an app whose only API is an HTTP API is served', async () => {
  const httpOnly = readLocalApp(synth((stack) => {
    const api = new apigwv2.HttpApi(stack, 'Http');
    api.addRoutes({ path: '/hello', integration: new HttpLambdaIntegration('Hello', inlineFunction(stack, 'Hello', 'exports.handler = async () => "hi"')) });
  }, { stackName: 'HttpOnly' }));
  const { api } = await started(httpOnly, {}, { requireApi: true, source: 'cdk.out' });
  try {
    expect(api.served.map((a) => a.kind)).toEqual(['HTTP']);
    expect(api.unservedLines()).toEqual([]);
  } finally {
    await api.close();
  }
});

async function started(app: LocalApp, settings: Partial<LocalApiSettings> = {}, start: Partial<LocalApiStart> = {}) {
  const warnings: string[] = [];
  const merged = { ...SETTINGS, ...settings };
  const api = await startLocalApi({
    settings: merged, prepared: prepareLocalApp(app, merged), print: () => undefined, warn: (m) => warnings.push(m), ...start,
  });
  return { api, warnings };
}

test('an app with nothing to serve: refused when an API is required (serve), served empty otherwise (sandbox), its warnings given', async () => {
  const warnings: string[] = [];
  const start = startLocalApi({
    settings: { ...SETTINGS, stacks: ['Unstaged'] },
    prepared: prepareLocalApp(unstaged, SETTINGS),
    print: () => undefined,
    warn: (m) => warnings.push(m),
    requireApi: true,
    source: 'cdk.out',
  });
  await expect(start).rejects.toThrow(LocalApiError);
  await expect(start).rejects.toMatchObject({
    kind: 'input',
    message: 'no REST, HTTP or WebSocket API with a stage in cdk.out (stacks: Unstaged); nothing to serve\nNot served (1):\n  REST API  Unstaged/NoStage: it has no stage',
  });
  expect(warnings).toEqual([expect.stringMatching(/^Unstaged\/NoStage: REST API has no stage; not served$/)]);

  const empty = await started(unstaged);
  try {
    expect(empty.api.server.endpoints).toEqual([]);
  } finally {
    await empty.api.close();
  }
});

test('a first port that leaves no room for every API is a usage error, before anything listens', async () => {
  const start = started(signed, { port: 65536 });
  await expect(start).rejects.toMatchObject({
    kind: 'usage',
    message: '--port 65536 leaves no room for 1 APIs (each takes the next port, up to 65536); pass --port 65535 or lower, or 0 for free ports',
  });
});

test('the command\'s own checks run before anything listens', async () => {
  const start = started(signed, {}, { beforeListen: () => { throw new LocalApiError('not this app'); } });
  await expect(start).rejects.toThrow('not this app');
});

describe('access lines', () => {
  let api: LocalApi | undefined;
  afterEach(async () => { await api?.close(); api = undefined; });

  test.each([
    [{}, 'IAM-authorized methods refuse unsigned requests; pass --credentials KEY:SECRET to accept signed ones, --allow-unsigned to let guests in'],
    [{ allowUnsigned: true }, 'IAM-authorized methods refuse unsigned requests unless --allow-unsigned (on: guests are let in)'],
    [{ credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 's' } }, 'IAM-authorized methods accept requests signed with access key AKIDLOCAL'],
    [{ credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 's' }, allowUnsigned: true }, 'IAM-authorized methods accept requests signed with access key AKIDLOCAL and unsigned requests (as a guest)'],
  ])('%j', async (settings, line) => {
    const run = await started(signed, settings);
    api = run.api;
    expect(api.accessLines()).toEqual([line]);
    expect(api.routeLines()).toEqual([expect.stringMatching(/^ {2}GET {2}http:\/\/127\.0\.0\.1:\d+\/dev\/ {2}-> MOCK {2}\[AWS_IAM\]$/)]);
  });
});

test('an address reachable from the network is warned of once listening; a reload serves the new app on the same port', async () => {
  const { api, warnings } = await started(signed, { host: '0.0.0.0' });
  try {
    expect(warnings).toEqual([
      "--host 0.0.0.0 is reachable from the network: other machines can call the API, and through it its functions, which run with this shell's AWS credentials and environment",
    ]);
    const port = api.server.endpoints[0].port;
    const summary = await api.reload(prepareLocalApp(signed, SETTINGS));
    expect(summary.routesAdded).toEqual([]);
    expect(api.server.endpoints[0].port).toBe(port);
    expect(api.app).toBe(signed);
  } finally {
    await api.close();
  }
});
