/**
 * WebSocket API MOCK integrations built by aws-cdk-lib's WebSocketMockIntegration, through the real
 * server and the `ws` client: a `$connect` MOCK whose request template accepts (200) or refuses (403)
 * the handshake, a two-way MOCK route whose integration responses (CfnIntegrationResponse, keys
 * `$default` and `/4\d\d/`) render the message sent back with `$context` and `$input`, the template
 * chosen by `TemplateSelectionExpression`, a one-way MOCK route that sends nothing, and a template
 * that does not parse (the client is told Internal server error).
 */
import { Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketMockIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { WebSocket } from 'ws';
import { Running, serve, synth } from './local/support';
import { readLocalApp } from '../../src/cli/local/read-local-app';

let running: Running;
let url: string;
let assembly: string;
let failingUrl: string;

/** Adds an integration response to the MOCK integration of `route`. */
function integrationResponse(
  api: apigwv2.WebSocketApi, route: apigwv2.WebSocketRoute, id: string, props: { key: string; templates: Record<string, string>; selection?: string },
): void {
  const integration = route.node.findAll().find((c): c is apigwv2.CfnIntegration => c instanceof apigwv2.CfnIntegration)!;
  new apigwv2.CfnIntegrationResponse(api, id, {
    apiId: api.apiId,
    integrationId: integration.ref,
    integrationResponseKey: props.key,
    responseTemplates: props.templates,
    ...(props.selection === undefined ? {} : { templateSelectionExpression: props.selection }),
  });
}

beforeAll(async () => {
  assembly = synth((stack: Stack) => {
    const api = new apigwv2.WebSocketApi(stack, 'Mocked', {
      connectRouteOptions: {
        integration: new WebSocketMockIntegration('Connect', {
          requestTemplates: { $default: "#if($input.params('refuse') == 'yes'){\"statusCode\": 403}#else{\"statusCode\": 200}#end" },
        }),
      },
      disconnectRouteOptions: { integration: new WebSocketMockIntegration('Disconnect', { requestTemplates: { $default: '{"statusCode": 200}' } }) },
    });
    const echo = api.addRoute('echo', {
      integration: new WebSocketMockIntegration('Echo', {
        requestTemplates: { $default: '{"statusCode": 200}', teapot: '{"statusCode": 418}', bare: 'no status here' },
        templateSelectionExpression: '${request.body.mode}',
      }),
      returnResponse: true,
    });
    integrationResponse(api, echo, 'EchoOk', {
      key: '$default',
      templates: {
        $default: '{"connectionId":"$context.connectionId","said":$input.json(\'$.text\'),"route":"$context.routeKey","eventType":"$context.eventType","stage":"$context.stage","messageId":"$context.messageId",'
        + '"requestId":"$context.requestId","apiId":"$context.apiId","domainName":"$context.domainName","connectedAt":$context.connectedAt,'
        + '"requestTimeEpoch":$context.requestTimeEpoch,"sourceIp":"$context.identity.sourceIp"}',
      },
    });
    integrationResponse(api, echo, 'EchoTeapot', {
      key: '/4\\d\\d/',
      templates: { 418: 'teapot $context.routeKey', $default: 'some other 4xx' },
      selection: '${integration.response.statuscode}',
    });
    const quiet = api.addRoute('quiet', { integration: new WebSocketMockIntegration('Quiet', { requestTemplates: { $default: '{"statusCode": 200}' } }) });
    integrationResponse(api, quiet, 'QuietOk', { key: '$default', templates: { $default: 'never sent' } });
    api.addRoute('broken', {
      integration: new WebSocketMockIntegration('Broken', { requestTemplates: { $default: '#if( {"statusCode": 200}' } }),
      returnResponse: true,
    });
    new apigwv2.WebSocketStage(stack, 'Dev', { webSocketApi: api, stageName: 'dev', autoDeploy: true });

    const failing = new apigwv2.WebSocketApi(stack, 'Failing', {
      connectRouteOptions: { integration: new WebSocketMockIntegration('FailingConnect', { requestTemplates: { $default: '#foreach(' } }) },
    });
    new apigwv2.WebSocketStage(stack, 'FailingDev', { webSocketApi: failing, stageName: 'dev', autoDeploy: true });
  }, { stackName: 'WsMock' });
  running = await serve(assembly, { quiet: true });
  const urlOf = (prefix: string) => running.server.endpoints.find((e) => e.api.logicalId.startsWith(prefix))!.urls[0].replace(/^http/, 'ws').replace(/\/$/, '');
  url = urlOf('Mocked');
  failingUrl = urlOf('Failing');
}, 120_000);

afterAll(async () => {
  await running?.close();
});

interface Client {
  readonly ws: WebSocket;
  next(): Promise<string>;
}

function open(target: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target);
    const messages: string[] = [];
    const waiting: Array<(m: string) => void> = [];
    ws.on('message', (data) => {
      const waiter = waiting.shift();
      if (waiter === undefined) {
        messages.push(data.toString());
      } else {
        waiter(data.toString());
      }
    });
    ws.on('open', () => resolve({ ws, next: () => messages.length > 0 ? Promise.resolve(messages.shift()!) : new Promise((r) => waiting.push(r)) }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

test('the listing shows the MOCK routes as served, two-way ones so named; nothing is listed as not served', () => {
  const table = running.server.routeTable().join('\n');
  expect(table).toMatch(/\$connect\s+ws:\/\/127\.0\.0\.1:\d+\/dev\s+-> MOCK\s+\[NONE\]/);
  expect(table).toMatch(/echo\s+ws:\/\/127\.0\.0\.1:\d+\/dev\s+-> MOCK \(two-way\)/);
  expect(table).toMatch(/quiet\s+ws:\/\/127\.0\.0\.1:\d+\/dev\s+-> MOCK\s+\[NONE\]/);
  expect(table).not.toMatch(/not served/i);
  expect(readLocalApp(assembly).unserved).toEqual([]);
});

test('the console\'s tree names MOCK as what answers each MOCK route', async () => {
  const base = url.replace(/^ws/, 'http').replace(/\/dev$/, '');
  const answer = await fetch(`${base}/@console/api/apis`);
  expect(answer.status).toBe(200);
  type ConsoleApis = { apis: Array<{ id: string; root: { methods: Array<{ httpMethod: string; integration: string }> } }>; unserved: unknown[] };
  const { apis, unserved } = await answer.json() as ConsoleApis;
  expect(unserved).toEqual([]);
  const methods = Object.fromEntries(apis.find((a) => a.id.includes('Mocked'))!.root.methods.map((m) => [m.httpMethod, m.integration]));
  expect(methods).toEqual({ $connect: 'MOCK', $disconnect: 'MOCK', echo: 'MOCK (two-way)', quiet: 'MOCK', broken: 'MOCK (two-way)' });
});

test('a $connect MOCK whose template gives 200 accepts the connection; 403 refuses the handshake with 403', async () => {
  const client = await open(url);
  expect(client.ws.readyState).toBe(WebSocket.OPEN);
  client.ws.close();
  await expect(open(`${url}?refuse=yes`)).rejects.toThrow('handshake answered 403');
});

test('a $connect MOCK whose template does not parse refuses the handshake with 500', async () => {
  await expect(open(failingUrl)).rejects.toThrow('handshake answered 500');
});

test('a two-way MOCK route sends its integration response\'s rendered template, with $context and $input.json of the message', async () => {
  const client = await open(url);
  client.ws.send(JSON.stringify({ action: 'echo', text: { hello: 'world' } }));
  const answer = JSON.parse(await client.next());
  expect(answer).toMatchObject({ said: { hello: 'world' }, route: 'echo', eventType: 'MESSAGE', stage: 'dev' });
  expect(answer.connectionId).toMatch(/^[A-Za-z0-9_=-]{8,}$/);
  expect(answer.messageId).toMatch(/^[A-Za-z0-9_=-]{8,}$/);
  expect(answer.requestId).toMatch(/^[A-Za-z0-9_=-]{8,}$/);
  expect(answer).toMatchObject({ domainName: `127.0.0.1:${new URL(url).port}`, sourceIp: '127.0.0.1', apiId: expect.stringMatching(/^Mocked/) });
  expect(answer.requestTimeEpoch).toBeGreaterThanOrEqual(answer.connectedAt);
  expect(answer.connectedAt).toBeGreaterThan(Date.now() - 60_000);
  // Each message is its own event: its own messageId, the same connection.
  client.ws.send(JSON.stringify({ action: 'echo', text: 'again' }));
  const second = JSON.parse(await client.next());
  expect(second).toMatchObject({ connectionId: answer.connectionId, said: 'again' });
  expect(second.messageId).not.toBe(answer.messageId);
  client.ws.close();
});

test('the template selection expression picks the request template; its 418 picks the /4\\d\\d/ response and its template by status code', async () => {
  const client = await open(url);
  client.ws.send(JSON.stringify({ action: 'echo', mode: 'teapot' }));
  expect(await client.next()).toBe('teapot echo');
  // A template that names no status code: 200, the $default response.
  client.ws.send(JSON.stringify({ action: 'echo', mode: 'bare', text: 1 }));
  expect(JSON.parse(await client.next())).toMatchObject({ said: 1 });
  // A value no template has: the $default template.
  client.ws.send(JSON.stringify({ action: 'echo', mode: 'unknown', text: 2 }));
  expect(JSON.parse(await client.next())).toMatchObject({ said: 2 });
  client.ws.close();
});

test('a one-way MOCK route sends nothing back, even with an integration response', async () => {
  const client = await open(url);
  client.ws.send(JSON.stringify({ action: 'quiet' }));
  client.ws.send(JSON.stringify({ action: 'echo', text: 'after quiet' }));
  // The first message the client gets is the echo's: the quiet route sent nothing.
  expect(JSON.parse(await client.next())).toMatchObject({ said: 'after quiet', route: 'echo' });
  client.ws.close();
});

test('a MOCK template that does not parse: the client is told Internal server error, the connection stays open', async () => {
  const client = await open(url);
  client.ws.send(JSON.stringify({ action: 'broken' }));
  const error = JSON.parse(await client.next());
  expect(error).toMatchObject({ message: 'Internal server error' });
  expect(typeof error.connectionId).toBe('string');
  expect(typeof error.requestId).toBe('string');
  client.ws.send(JSON.stringify({ action: 'echo', text: 'still open' }));
  expect(JSON.parse(await client.next())).toMatchObject({ said: 'still open' });
  client.ws.close();
});
