/**
 * WebSocket APIs built by aws-cdk-lib's WebSocketApi, WebSocketStage, WebSocketLambdaIntegration,
 * WebSocketLambdaAuthorizer and WebSocketIamAuthorizer, through the real server and the `ws` client:
 * a chat app whose `sendmessage` function posts to every connection with the AWS SDK's
 * ApiGatewayManagementApiClient built as AWS documents it (`https://${domainName}/${stage}`); the
 * events of `$connect`, messages and `$disconnect`; route selection; two-way routes; and each
 * error path (a refused `$connect`, an authorizer's denial, a message no route takes, a function
 * failing, 410 for a closed connection, an oversized message, the idle timeout).
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketIamAuthorizer, WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { WebSocket } from 'ws';
import { inlineFunction, Running, serve, startCli, synth } from './local/support';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const KEY = 'AKIDLOCALWEBSOCKET';
const SECRET = 'local-websocket-secret';
const STATE = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-ws-state-'));

/** Keeps the connection ids in a file (the chat sample keeps them in DynamoDB). */
const CONNECT = `const fs = require('fs');
// Written whole (a temporary file renamed): the test polls for it and must never read it half-written.
const save = (file, text) => { fs.writeFileSync(file + '.tmp', text); fs.renameSync(file + '.tmp', file); };
exports.handler = async (event) => {
  if (event.queryStringParameters && event.queryStringParameters.refuse) return { statusCode: 409, body: 'no' };
  fs.appendFileSync(process.env.STATE + '/connections', event.requestContext.connectionId + '\\n');
  save(process.env.STATE + '/connect-' + event.requestContext.connectionId + '.json', JSON.stringify(event));
  // As "Set up a $connect route that requires a WebSocket subprotocol" does it.
  const offered = (event.headers['Sec-WebSocket-Protocol'] || '').split(',').map((p) => p.trim());
  return offered.includes('chat.v1') ? { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': 'chat.v1' } } : { statusCode: 200 };
};`;

const DISCONNECT = `const fs = require('fs');
// Written whole (a temporary file renamed): the test polls for it and must never read it half-written.
const save = (file, text) => { fs.writeFileSync(file + '.tmp', text); fs.renameSync(file + '.tmp', file); };
exports.handler = async (event) => {
  save(process.env.STATE + '/disconnect-' + event.requestContext.connectionId + '.json', JSON.stringify(event));
  return { statusCode: 200 };
};`;

/** The chat sample's sendmessage: posts the data to every connection through the management API. */
const SEND = `const fs = require('fs');
// Written whole (a temporary file renamed): the test polls for it and must never read it half-written.
const save = (file, text) => { fs.writeFileSync(file + '.tmp', text); fs.renameSync(file + '.tmp', file); };
const { ApiGatewayManagementApiClient, PostToConnectionCommand } = require('@aws-sdk/client-apigatewaymanagementapi');
exports.handler = async (event) => {
  const { domainName, stage } = event.requestContext;
  const client = new ApiGatewayManagementApiClient({ endpoint: 'https://' + domainName + '/' + stage });
  const data = JSON.parse(event.body).data;
  const ids = fs.readFileSync(process.env.STATE + '/connections', 'utf8').split('\\n').filter(Boolean);
  const results = {};
  for (const id of ids) {
    try {
      await client.send(new PostToConnectionCommand({ ConnectionId: id, Data: data }));
      results[id] = 'sent';
    } catch (e) {
      results[id] = e.name + ' ' + (e.$metadata && e.$metadata.httpStatusCode);
    }
  }
  save(process.env.STATE + '/send-results.json', JSON.stringify(results));
  return { statusCode: 200 };
};`;

/** Two-way routes: the event itself, or a failure. */
const ECHO = `exports.handler = async (event) => {
  let body;
  try { body = JSON.parse(event.body); } catch { body = undefined; }
  if (body && body.fail) throw new Error('echo broke');
  return { statusCode: 200, body: JSON.stringify({ routeKey: event.requestContext.routeKey, event }) };
};`;

/** Allows the token `allow`, denies others; its context reaches the route events. */
const AUTHORIZER = `exports.handler = async (event) => ({
  principalId: 'user-1',
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: event.queryStringParameters.token === 'allow' ? 'Allow' : 'Deny', Resource: event.methodArn }] },
  context: { team: 'blue', authorizerEventType: event.type, methodArn: event.methodArn },
});`;

let running: Running;
let chatUrl: string;
let iamUrl: string;
let chatPort: number;
let chatAssembly: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  // The functions sign their management calls with the shell's key pair, the one the server accepts.
  process.env.AWS_ACCESS_KEY_ID = KEY;
  process.env.AWS_SECRET_ACCESS_KEY = SECRET;
  delete process.env.AWS_SESSION_TOKEN;
  const assembly = synth((stack: Stack) => {
    const fn = (id: string, source: string) => {
      const f = inlineFunction(stack, id, source);
      f.addEnvironment('STATE', STATE);
      return f;
    };
    const echoFn = fn('EchoFn', ECHO);
    const echo = new WebSocketLambdaIntegration('Echo', echoFn);
    const chat = new apigwv2.WebSocketApi(stack, 'Chat', {
      connectRouteOptions: {
        integration: new WebSocketLambdaIntegration('Connect', fn('ConnectFn', CONNECT)),
        authorizer: new WebSocketLambdaAuthorizer('Auth', fn('AuthFn', AUTHORIZER), { identitySource: ['route.request.querystring.token'] }),
      },
      disconnectRouteOptions: { integration: new WebSocketLambdaIntegration('Disconnect', fn('DisconnectFn', DISCONNECT)) },
      defaultRouteOptions: { integration: echo, returnResponse: true },
    });
    chat.addRoute('sendmessage', { integration: new WebSocketLambdaIntegration('Send', fn('SendFn', SEND)) });
    chat.addRoute('quiet', { integration: echo });
    new apigwv2.WebSocketStage(stack, 'Dev', { webSocketApi: chat, stageName: 'dev', autoDeploy: true });

    const iam = new apigwv2.WebSocketApi(stack, 'Guarded', {
      connectRouteOptions: { integration: new WebSocketLambdaIntegration('IamConnect', fn('IamConnectFn', 'exports.handler = async () => ({ statusCode: 200 });')), authorizer: new WebSocketIamAuthorizer() },
    });
    iam.addRoute('ping', { integration: new WebSocketLambdaIntegration('Ping', echoFn), returnResponse: true });
    // The chat API's stage name too: a call on this API's port for a chat connection differs only by the API.
    new apigwv2.WebSocketStage(stack, 'GuardedDev', { webSocketApi: iam, stageName: 'dev', autoDeploy: true });
  }, { stackName: 'WsChat' });
  chatAssembly = assembly;
  running = await serve(assembly, { quiet: true, credentials: { accessKeyId: KEY, secretAccessKey: SECRET }, appFolder: path.join(__dirname, '..', '..') });
  const urlOf = (logicalPrefix: string) => running.server.endpoints.find((e) => e.api.logicalId.startsWith(logicalPrefix))!.urls[0];
  chatUrl = urlOf('Chat').replace(/^http/, 'ws').replace(/\/$/, '');
  iamUrl = urlOf('Guarded').replace(/^http/, 'ws').replace(/\/$/, '');
  chatPort = Number(new URL(chatUrl).port);
}, 120_000);

afterAll(async () => {
  await running?.close();
  process.env = savedEnv;
});

/** An open client, with every message it receives. */
interface Client {
  readonly ws: WebSocket;
  readonly messages: string[];
  readonly closed: Promise<{ code: number; reason: string }>;
  next(): Promise<string>;
}

function open(url: string, headers: Record<string, string> = {}, protocols: string[] = []): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    const messages: string[] = [];
    const waiting: Array<(m: string) => void> = [];
    ws.on('message', (data) => {
      const text = data.toString();
      const waiter = waiting.shift();
      if (waiter === undefined) {
        messages.push(text);
      } else {
        waiter(text);
      }
    });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('open', () => resolve({
      ws,
      messages,
      closed,
      next: () => messages.length > 0 ? Promise.resolve(messages.shift()!) : new Promise((r) => waiting.push(r)),
    }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

async function until<T>(read: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error('timed out waiting');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stateFile(name: string): any {
  const file = path.join(STATE, name);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

test('the listing names each route with its ws:// URL and the management API', () => {
  const table = running.server.routeTable().join('\n');
  expect(table).toMatch(new RegExp(`\\$connect\\s+${chatUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+-> WsChat/ConnectFn\\s+\\[CUSTOM Auth\\]`));
  expect(table).toMatch(/\$default\s+ws:\/\/127\.0\.0\.1:\d+\/dev\s+-> WsChat\/EchoFn \(two-way\)/);
  expect(table).toMatch(/sendmessage\s+ws:\/\/127\.0\.0\.1:\d+\/dev/);
  expect(table).toMatch(/POST\|GET\|DELETE\s+http:\/\/127\.0\.0\.1:\d+\/dev\/@connections\/\{connectionId\}/);
});

test('$connect gets the handshake\'s headers and query, with the authorizer\'s context; later events carry it too', async () => {
  const client = await open(`${chatUrl}?token=allow&x=1`, { 'User-Agent': 'ws-test' });
  client.ws.send('not json');
  const answer = JSON.parse(await client.next());
  expect(answer.routeKey).toBe('$default');
  const message = answer.event;
  const connectionId = message.requestContext.connectionId;
  expect(message).toMatchObject({ body: 'not json', isBase64Encoded: false });
  expect(message.requestContext).toMatchObject({
    routeKey: '$default',
    eventType: 'MESSAGE',
    messageDirection: 'IN',
    stage: 'dev',
    domainName: `127.0.0.1:${chatPort}`,
    identity: { sourceIp: '127.0.0.1', userAgent: 'ws-test' },
    authorizer: { team: 'blue', principalId: 'user-1', authorizerEventType: 'REQUEST' },
  });
  expect(message.requestContext.authorizer.methodArn).toMatch(/^arn:aws:execute-api:[a-z0-9-]+:123456789012:Chat[A-Za-z0-9]+\/dev\/\$connect$/);
  expect(typeof message.requestContext.messageId).toBe('string');
  expect(message.requestContext.requestTimeEpoch).toBeGreaterThanOrEqual(message.requestContext.connectedAt);

  const connect = stateFile(`connect-${connectionId}.json`);
  expect(connect.requestContext).toMatchObject({ routeKey: '$connect', eventType: 'CONNECT', messageId: null, disconnectStatusCode: null, connectionId, stage: 'dev' });
  expect(connect.queryStringParameters).toEqual({ token: 'allow', x: '1' });
  expect(connect.multiValueQueryStringParameters).toEqual({ token: ['allow'], x: ['1'] });
  expect(connect.headers['User-Agent']).toBe('ws-test');
  expect(connect.headers['Sec-WebSocket-Version']).toBe('13');
  expect(connect.headers).toMatchObject({ 'X-Forwarded-For': '127.0.0.1', 'X-Forwarded-Port': String(chatPort), 'X-Forwarded-Proto': 'http' });
  expect(connect.headers['X-Amzn-Trace-Id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  expect(connect.multiValueHeaders['Sec-WebSocket-Version']).toEqual(['13']);
  expect(connect.requestContext.identity).toMatchObject({ sourceIp: '127.0.0.1', userAgent: 'ws-test', accessKey: null, cognitoIdentityId: null });

  client.ws.close(4000, 'bye');
  const disconnect = await until(() => stateFile(`disconnect-${connectionId}.json`));
  expect(disconnect.requestContext).toMatchObject({ routeKey: '$disconnect', eventType: 'DISCONNECT', disconnectStatusCode: 4000, disconnectReason: 'bye', connectionId });
});

test('route selection: $request.body.action picks the route; a route without a route response sends nothing back', async () => {
  const client = await open(`${chatUrl}?token=allow`);
  client.ws.send(JSON.stringify({ action: 'quiet' }));
  client.ws.send(JSON.stringify({ action: 'nosuchroute', n: 2 }));
  const answer = JSON.parse(await client.next());
  // Only the $default route (two-way) answered; the quiet route's answer was not sent.
  expect(answer.routeKey).toBe('$default');
  expect(JSON.parse(answer.event.body)).toEqual({ action: 'nosuchroute', n: 2 });
  client.ws.close();
});

test('chat: sendmessage posts to every connection through ApiGatewayManagementApiClient at https://${domainName}/${stage}; a closed one is GoneException 410', async () => {
  fs.writeFileSync(path.join(STATE, 'connections'), '');
  const ana = await open(`${chatUrl}?token=allow`);
  const ben = await open(`${chatUrl}?token=allow`);
  const gone = await open(`${chatUrl}?token=allow`);
  gone.ws.close();
  await gone.closed;
  ana.ws.send(JSON.stringify({ action: 'sendmessage', data: 'hello all' }));
  expect(await ana.next()).toBe('hello all');
  expect(await ben.next()).toBe('hello all');
  const results = await until(() => stateFile('send-results.json'));
  expect(Object.values(results).sort()).toEqual(['GoneException 410', 'sent', 'sent']);
  ana.ws.close();
  ben.ws.close();
});

describe('the @connections management API from outside (the SDK over http, signed)', () => {
  const client = () => new ApiGatewayManagementApiClient({
    endpoint: `${chatUrl.replace(/^ws/, 'http')}`,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY, secretAccessKey: SECRET },
  });

  test('GetConnection: connectedAt, identity, lastActiveAt; PostToConnection reaches the client', async () => {
    const ws = await open(`${chatUrl}?token=allow`, { 'User-Agent': 'sdk-check' });
    ws.ws.send('who');
    const id = JSON.parse(await ws.next()).event.requestContext.connectionId;
    const info = await client().send(new GetConnectionCommand({ ConnectionId: id }));
    expect(info.Identity).toEqual({ SourceIp: '127.0.0.1', UserAgent: 'sdk-check' });
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.LastActiveAt!.getTime()).toBeGreaterThanOrEqual(info.ConnectedAt!.getTime());
    await client().send(new PostToConnectionCommand({ ConnectionId: id, Data: 'from outside' }));
    expect(await ws.next()).toBe('from outside');
    ws.ws.close();
  });

  test('a connection of another WebSocket API (the call on the other API\'s port): 410 GoneException', async () => {
    const ws = await open(`${chatUrl}?token=allow`);
    ws.ws.send('who');
    const id = JSON.parse(await ws.next()).event.requestContext.connectionId;
    // Same stage name (`dev`) on both APIs: only the API tells the connection apart.
    expect(new URL(iamUrl).pathname).toBe(new URL(chatUrl).pathname);
    const other = new ApiGatewayManagementApiClient({ endpoint: iamUrl.replace(/^ws/, 'http'), region: 'us-east-1', credentials: { accessKeyId: KEY, secretAccessKey: SECRET } });
    await expect(other.send(new GetConnectionCommand({ ConnectionId: id }))).rejects.toMatchObject({ name: 'GoneException' });
    ws.ws.close();
  });

  test('an unknown connection: 410 GoneException', async () => {
    await expect(client().send(new PostToConnectionCommand({ ConnectionId: 'NoSuchConn0000=', Data: 'x' }))).rejects.toMatchObject({ name: 'GoneException', $metadata: { httpStatusCode: 410 } });
  });

  test('DELETE closes the connection and runs $disconnect', async () => {
    const ws = await open(`${chatUrl}?token=allow`);
    ws.ws.send('who');
    const id = JSON.parse(await ws.next()).event.requestContext.connectionId;
    await client().send(new DeleteConnectionCommand({ ConnectionId: id }));
    expect((await ws.closed).code).toBe(1000);
    expect((await until(() => stateFile(`disconnect-${id}.json`))).requestContext.routeKey).toBe('$disconnect');
  });

  test('a bad signature: 403 InvalidSignatureException; unsigned: 403', async () => {
    const bad = new ApiGatewayManagementApiClient({ endpoint: chatUrl.replace(/^ws/, 'http'), region: 'us-east-1', credentials: { accessKeyId: KEY, secretAccessKey: 'wrong' } });
    await expect(bad.send(new GetConnectionCommand({ ConnectionId: 'x' }))).rejects.toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 403 } });
    const response = await fetch(`${chatUrl.replace(/^ws/, 'http')}/@connections/x`);
    expect(response.status).toBe(403);
  });
});

describe('refusals and errors', () => {
  test('the authorizer denies: the handshake is answered 403', async () => {
    await expect(open(`${chatUrl}?token=deny`)).rejects.toThrow('handshake answered 403');
  });

  test('the identity source is missing: 401', async () => {
    await expect(open(chatUrl)).rejects.toThrow('handshake answered 401');
  });

  test('$connect answers a non-2xx status: the handshake gets that status', async () => {
    await expect(open(`${chatUrl}?token=allow&refuse=1`)).rejects.toThrow('handshake answered 409');
  });

  test('subprotocols: the one $connect answers in Sec-WebSocket-Protocol is chosen; when it answers none, a client that asked for one fails', async () => {
    const chosen = await open(`${chatUrl}?token=allow`, {}, ['chat.v0', 'chat.v1']);
    expect(chosen.ws.protocol).toBe('chat.v1');
    chosen.ws.close();
    await expect(open(`${chatUrl}?token=allow`, {}, ['chat.v9'])).rejects.toThrow('Server sent no subprotocol');
  });

  test('a stage the API does not have: 403', async () => {
    await expect(open(chatUrl.replace(/\/dev$/, '/nostage'))).rejects.toThrow('handshake answered 403');
  });

  test('a function that throws: the client is told Internal server error, with its connection and request ids', async () => {
    const client = await open(`${chatUrl}?token=allow`);
    client.ws.send(JSON.stringify({ fail: true }));
    const error = JSON.parse(await client.next());
    expect(error).toEqual({ message: 'Internal server error', connectionId: expect.any(String), requestId: expect.any(String) });
    client.ws.close();
  });

  test('a frame larger than 32 KB closes the connection with 1009', async () => {
    const client = await open(`${chatUrl}?token=allow`);
    client.ws.send('x'.repeat(32 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  test('a 96 KB message in frames of 32 KB is taken; a message larger than 128 KB in such frames closes the connection with 1009', async () => {
    const client = await open(`${chatUrl}?token=allow`);
    const frame = '{"p":"' + 'x'.repeat(32 * 1024 - 6);
    client.ws.send(frame, { fin: false });
    client.ws.send('y'.repeat(32 * 1024), { fin: false });
    client.ws.send('z'.repeat(32 * 1024 - 2) + '"}', { fin: true });
    const answer = JSON.parse(await client.next());
    expect(JSON.parse(answer.event.body).p).toHaveLength(96 * 1024 - 8);
    for (let i = 0; i < 4; i++) {
      client.ws.send('x'.repeat(32 * 1024), { fin: false });
    }
    client.ws.send('x', { fin: true });
    expect((await client.closed).code).toBe(1009);
  });

  test('a binary frame closes the connection with 1003', async () => {
    const client = await open(`${chatUrl}?token=allow`);
    client.ws.send(Buffer.from([1, 2, 3]));
    expect((await client.closed).code).toBe(1003);
  });
});

describe('an API without $default, with an IAM-authorized $connect', () => {
  test('an unsigned handshake is refused 403', async () => {
    await expect(open(iamUrl)).rejects.toThrow('handshake answered 403');
  });

  test('a signed handshake connects; a message no route takes gets Forbidden; ping answers', async () => {
    const url = new URL(iamUrl);
    const signer = new SignatureV4({ service: 'execute-api', region: 'us-east-1', credentials: { accessKeyId: KEY, secretAccessKey: SECRET }, sha256: Hash.bind(null, 'sha256') });
    const signed = await signer.sign({ method: 'GET', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, headers: { host: url.host }, query: {} });
    const { host: _host, ...headers } = signed.headers;
    const client = await open(iamUrl, headers);
    client.ws.send(JSON.stringify({ action: 'other' }));
    expect(JSON.parse(await client.next())).toEqual({ message: 'Forbidden', connectionId: expect.any(String), requestId: expect.any(String) });
    client.ws.send(JSON.stringify({ action: 'ping' }));
    const pong = JSON.parse(await client.next());
    expect(pong.routeKey).toBe('ping');
    expect(pong.event.requestContext.identity.sourceIp).toBe('127.0.0.1');
    client.ws.close();
  });
});

test('a reload changes the routes of open connections, as a deployment does; without --quiet each connection, message and close gets a terminal line', async () => {
  const build = (withRoute: boolean) => synth((stack: Stack) => {
    const echoFn = inlineFunction(stack, 'E', ECHO);
    const api = new apigwv2.WebSocketApi(stack, 'Live', { defaultRouteOptions: { integration: new WebSocketLambdaIntegration('D', echoFn), returnResponse: true } });
    if (withRoute) {
      api.addRoute('added', { integration: new WebSocketLambdaIntegration('A', echoFn), returnResponse: true });
    }
    new apigwv2.WebSocketStage(stack, 'S', { webSocketApi: api, stageName: 's', autoDeploy: true });
  }, { stackName: 'WsLive' });
  const live = await serve(build(false));
  try {
    const client = await open(live.url.replace(/^http/, 'ws').replace(/\/$/, ''));
    client.ws.send('{"action":"added"}');
    expect(JSON.parse(await client.next()).routeKey).toBe('$default');
    const summary = await live.server.reload(readLocalApp(build(true)));
    expect(summary.routesAdded).toEqual([expect.stringMatching(/^added ws:\/\/127\.0\.0\.1:\d+\/s$/)]);
    client.ws.send('{"action":"added"}');
    expect(JSON.parse(await client.next()).routeKey).toBe('added');
    client.ws.close(1000, 'done');
    await client.closed;
    // Without --quiet: a terminal line per connection, message and close.
    await until(() => live.lines.find((l) => / DISCONNECT 1000 done$/.test(l)));
    expect(live.lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^[A-Za-z0-9_-]{15}= CONNECT \/s 101 \d+\.\d ms$/),
      expect.stringMatching(/^[A-Za-z0-9_-]{15}= MESSAGE \$default [A-Za-z0-9_-]{15}= answered \d+\.\d ms$/),
      expect.stringMatching(/^[A-Za-z0-9_-]{15}= MESSAGE added [A-Za-z0-9_-]{15}= answered \d+\.\d ms$/),
    ]));
  } finally {
    await live.close();
  }
});

test('beside a WebSocket API, a REST API answers a request asking for an upgrade (curl\'s h2c) as a plain request', async () => {
  const assembly = synth((stack: Stack) => {
    const rest = new apigw.RestApi(stack, 'Rest', { deployOptions: { stageName: 'prod' } });
    rest.root.addMethod('GET', new apigw.LambdaIntegration(inlineFunction(stack, 'R', 'exports.handler = async () => ({ statusCode: 200, body: "plain" });')));
    const ws = new apigwv2.WebSocketApi(stack, 'Ws', { defaultRouteOptions: { integration: new WebSocketLambdaIntegration('E', inlineFunction(stack, 'E', ECHO)) } });
    new apigwv2.WebSocketStage(stack, 'S', { webSocketApi: ws, stageName: 's', autoDeploy: true });
  }, { stackName: 'WsBeside' });
  const both = await serve(assembly, { quiet: true });
  try {
    const restUrl = both.server.endpoints.find((e) => e.api.kind !== 'WEBSOCKET')!.urls[0];
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const request = http.request(restUrl, { headers: { 'Connection': 'Upgrade, HTTP2-Settings', 'Upgrade': 'h2c', 'HTTP2-Settings': 'AAMAAABkAAQCAAAAAAIAAAAA' } }, (response) => {
        let body = '';
        response.on('data', (d) => { body += d; });
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(answer).toEqual({ status: 200, body: 'plain' });
  } finally {
    await both.close();
  }
});

test('the idle timeout closes a quiet connection with 1001 (VENDOR_OUTPUTS_WS_IDLE_MS override)', async () => {
  process.env.VENDOR_OUTPUTS_WS_IDLE_MS = '300';
  const assembly = synth((stack: Stack) => {
    const api = new apigwv2.WebSocketApi(stack, 'Idle', { defaultRouteOptions: { integration: new WebSocketLambdaIntegration('E', inlineFunction(stack, 'E', ECHO)) } });
    new apigwv2.WebSocketStage(stack, 'S', { webSocketApi: api, stageName: 's', autoDeploy: true });
  }, { stackName: 'WsIdle' });
  const idle = await serve(assembly, { quiet: true });
  delete process.env.VENDOR_OUTPUTS_WS_IDLE_MS;
  try {
    const client = await open(idle.url.replace(/^http/, 'ws').replace(/\/$/, ''));
    expect(await client.closed).toEqual({ code: 1001, reason: 'Going away' });
  } finally {
    await idle.close();
  }
});

test('vendor-outputs serve (the compiled CLI) lists the routes with ws:// URLs and serves the chat, the functions reaching the management API over https', async () => {
  fs.writeFileSync(path.join(STATE, 'connections'), '');
  const cli = startCli(['serve', '--app', chatAssembly, '--port', '0'], { AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET });
  try {
    const out = await cli.waitFor('Press Ctrl+C', 60_000);
    expect(out).toMatch(/Serving 2 WebSocket API\(s\) from /);
    const url = /\$connect\s+(ws:\/\/127\.0\.0\.1:\d+\/dev)\s/.exec(out)![1];
    const ana = await open(`${url}?token=allow`);
    const ben = await open(`${url}?token=allow`);
    ana.ws.send(JSON.stringify({ action: 'sendmessage', data: 'through the CLI' }));
    expect(await ana.next()).toBe('through the CLI');
    expect(await ben.next()).toBe('through the CLI');
    ana.ws.close();
    ben.ws.close();
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
});
