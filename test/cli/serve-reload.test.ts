/**
 * `LocalApiServer.reload`: a second synth of the app swapped into a running server. Two real
 * assemblies synthesized by aws-cdk-lib into separate directories (as a sandbox re-synth gives),
 * served on 127.0.0.1; the functions run in real runtime host processes.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { FIXTURES, synth } from './local/support';
import { LocalApp } from '../../src/cli/local/model/local-app';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { LocalApiServer, ReloadSummary } from '../../src/cli/local/server/server';

const MISSING_TOKEN = '{"message":"Missing Authentication Token"}';

/** A function answering `answer` (inline source: a new synth with another answer is new code). */
function answering(answer: string, delayMs = 0): lambda.Code {
  return lambda.Code.fromInline([
    'exports.handler = async () => {',
    `  console.log('started ${answer}');`,
    `  await new Promise((resolve) => setTimeout(resolve, ${delayMs}));`,
    `  return { statusCode: 200, body: ${JSON.stringify(answer)} };`,
    '};',
  ].join('\n'));
}

function fn(stack: Stack, id: string, code: lambda.Code, props: Partial<lambda.FunctionProps> = {}): lambda.Function {
  return new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code, timeout: Duration.seconds(10), ...props });
}

function get(api: apigw.RestApi, route: string, target: lambda.IFunction): void {
  api.root.addResource(route).addMethod('GET', new apigw.LambdaIntegration(target));
}

/** API `Api` as the first synth has it: items, slow, counter, old. */
function apiV1(stack: Stack, counterDir: string): void {
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'dev' } });
  get(api, 'items', fn(stack, 'Items', answering('items v1')));
  get(api, 'slow', fn(stack, 'Slow', answering('slow v1', 1000)));
  get(api, 'counter', fn(stack, 'Counter', lambda.Code.fromAsset(counterDir)));
  get(api, 'old', fn(stack, 'Old', answering('old')));
}

/**
 * API `Api` as the second synth has it: new code for items and slow, counter unchanged (same
 * content, staged in another assembly directory), old removed, new and broken (a runtime that
 * cannot run here) added.
 */
function apiV2(stack: Stack, counterDir: string): void {
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'dev' } });
  get(api, 'items', fn(stack, 'Items', answering('items v2')));
  get(api, 'slow', fn(stack, 'Slow', answering('slow v2', 1000)));
  get(api, 'counter', fn(stack, 'Counter', lambda.Code.fromAsset(counterDir)));
  get(api, 'new', fn(stack, 'New', answering('new')));
  get(api, 'broken', fn(stack, 'Broken', lambda.Code.fromAsset(path.join(FIXTURES, 'ruby')), { runtime: lambda.Runtime.RUBY_3_3 }));
}

function secondApi(stack: Stack): void {
  const second = new apigw.RestApi(stack, 'Second', { deployOptions: { stageName: 'dev' } });
  get(second, 'ping', fn(stack, 'Ping', answering('second', 500)));
}

function thirdApi(stack: Stack): void {
  const third = new apigw.RestApi(stack, 'Third', { deployOptions: { stageName: 'dev' } });
  get(third, 'hello', fn(stack, 'Hello', answering('third')));
}

function appOf(...parts: Array<(stack: Stack) => void>): LocalApp {
  return readLocalApp(synth((stack) => parts.forEach((part) => part(stack)), { stackName: 'Reload' }));
}

let counterDir: string;
/** Api (first) and Second. */
let appA: LocalApp;
/** Api (second) and Third: Second removed, Third added. */
let appB: LocalApp;

beforeAll(() => {
  counterDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-reload-counter-'));
  fs.writeFileSync(path.join(counterDir, 'index.js'), [
    '// Module state: it survives between invocations only in the same execution environment.',
    'let count = 0;',
    'exports.handler = async () => ({ statusCode: 200, body: String(++count) });',
  ].join('\n'));
  appA = appOf((stack) => apiV1(stack, counterDir), secondApi);
  appB = appOf((stack) => apiV2(stack, counterDir), thirdApi);
});

afterAll(() => {
  fs.rmSync(counterDir, { recursive: true, force: true });
});

async function text(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

/** The served URL of the first stage of the API named `name` (no trailing slash). */
function base(server: LocalApiServer, name: string): string {
  const endpoint = server.endpoints.find((e) => e.api.name === name);
  if (endpoint === undefined) {
    throw new Error(`${name} is not served`);
  }
  return endpoint.urls[0].replace(/\/$/, '');
}

/** Resolves once a printed line contains `text`. */
async function printed(lines: string[], wanted: string): Promise<void> {
  for (let i = 0; i < 200 && !lines.some((l) => l.includes(wanted)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(lines.join('\n')).toContain(wanted);
}

describe('a reload onto a second synth (free ports)', () => {
  let server: LocalApiServer;
  const lines: string[] = [];
  let before: { api: string; second: string };
  let summary: ReloadSummary;
  let slowBefore: Promise<{ status: number; body: string }>;
  let removedInFlight: Promise<{ status: number; body: string }>;
  let slowAfter: { status: number; body: string };
  let itemsAfter: { status: number; body: string };
  const counts: string[] = [];

  beforeAll(async () => {
    server = await LocalApiServer.start(appA, { port: 0, print: (line) => lines.push(line), quiet: true });
    before = { api: base(server, 'Api'), second: base(server, 'Second') };
    expect((await text(`${before.api}/items`)).body).toBe('items v1');
    counts.push((await text(`${before.api}/counter`)).body, (await text(`${before.api}/counter`)).body);
    // A request that is running in the function when the reload comes.
    slowBefore = text(`${before.api}/slow`);
    removedInFlight = text(`${before.second}/ping`);
    await printed(lines, 'started slow v1');
    await printed(lines, 'started second');
    summary = await server.reload(appB);
    [slowAfter, itemsAfter] = await Promise.all([text(`${base(server, 'Api')}/slow`), text(`${base(server, 'Api')}/items`)]);
    counts.push((await text(`${base(server, 'Api')}/counter`)).body);
  });
  afterAll(async () => { await server?.close(); });

  test('the API found again keeps its port', () => {
    expect(base(server, 'Api')).toBe(before.api);
  });

  test('a request in flight during the reload finishes with the old code; a new one gets the new code', async () => {
    expect(await slowBefore).toEqual({ status: 200, body: 'slow v1' });
    expect(slowAfter).toEqual({ status: 200, body: 'slow v2' });
  });

  test('a changed handler answers with its new code', () => {
    expect(itemsAfter).toEqual({ status: 200, body: 'items v2' });
  });

  test('an unchanged function keeps its warm environment (its module state goes on)', () => {
    expect(counts).toEqual(['1', '2', '3']);
    expect(summary.functionsReloaded).not.toContain('Reload/Counter');
  });

  test('an unchanged function runs on from its first folder, which the server names as in use', () => {
    const counterOf = (app: LocalApp) => [...app.functions.values()].find((f) => f.logicalId.startsWith('Counter'))!.code;
    const [a, b] = [counterOf(appA), counterOf(appB)];
    expect(a.kind === 'directory' && b.kind === 'directory' && a.directory !== b.directory).toBe(true);
    expect(server.codeDirectories()).toEqual([a.kind === 'directory' ? a.directory : '']);
  });

  test('the runtime hosts of replaced and removed functions stop once their invocations are done', async () => {
    // Runnable functions after the reload: Items, Slow, Counter, New, Hello (Broken cannot run).
    await slowBefore;
    await removedInFlight;
    let hosts = -1;
    for (let i = 0; i < 100 && hosts !== 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      hosts = execFileSync('ps', ['--ppid', String(process.pid), '-o', 'args', '--no-headers']).toString().split('\n').filter((l) => /host\.js/.test(l)).length;
    }
    expect(hosts).toBe(5);
  });

  test('the summary names the routes added and removed and the functions reloaded, added and removed', () => {
    const api = before.api;
    const third = base(server, 'Third');
    expect(summary.routesAdded.sort()).toEqual([`GET ${api}/broken`, `GET ${api}/new`, `GET ${third}/hello`].sort());
    expect(summary.routesRemoved.sort()).toEqual([`GET ${api}/old`, `GET ${before.second}/ping`].sort());
    expect(summary.functionsReloaded.sort()).toEqual(['Reload/Items', 'Reload/Slow']);
    expect(summary.functionsAdded.sort()).toEqual(['Reload/Broken', 'Reload/Hello', 'Reload/New']);
    expect(summary.functionsRemoved.sort()).toEqual(['Reload/Old', 'Reload/Ping']);
  });

  test('an added route is served and a removed one answers 403 Missing Authentication Token', async () => {
    expect(await text(`${before.api}/new`)).toEqual({ status: 200, body: 'new' });
    expect(await text(`${before.api}/old`)).toEqual({ status: 403, body: MISSING_TOKEN });
  });

  test('a request in flight on an API the reload removes finishes', async () => {
    expect(await removedInFlight).toEqual({ status: 200, body: 'second' });
  });

  test('an added API gets a port of its own; a removed API stops listening', async () => {
    const third = base(server, 'Third');
    expect(new URL(third).port).not.toBe(new URL(before.api).port);
    expect(await text(`${third}/hello`)).toEqual({ status: 200, body: 'third' });
    await expect(fetch(`${before.second}/ping`)).rejects.toThrow();
    expect(server.endpoints.map((e) => e.api.name).sort()).toEqual(['Api', 'Third']);
  });

  test('a function that cannot run answers its own error while the others keep serving', async () => {
    const broken = await text(`${before.api}/broken`);
    expect(broken.status).toBe(502);
    expect(await text(`${before.api}/items`)).toEqual({ status: 200, body: 'items v2' });
    expect(await text(`${base(server, 'Third')}/hello`)).toEqual({ status: 200, body: 'third' });
  });

  test('the listing after the reload shows the new routes only', () => {
    const table = server.routeTable().join('\n');
    expect(table).toContain(`${before.api}/new`);
    expect(table).not.toContain(`${before.api}/old`);
    expect(table).toContain('Reload/Broken (not runnable');
  });
});

/** A first port with `count` free ports from it on 127.0.0.1. */
async function freePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    let free = first + count - 1 <= 65535;
    for (let port = first; free && port < first + count; port++) {
      free = await bindable(port);
    }
    if (free) {
      return first;
    }
  }
  throw new Error(`no run of ${count} free ports found`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe('ports of APIs a reload adds (--port N)', () => {
  const lines: string[] = [];
  let server: LocalApiServer | undefined;
  let foreign: net.Server | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await new Promise<void>((resolve) => (foreign === undefined ? resolve() : foreign.close(() => resolve())));
    foreign = undefined;
  });

  test('a new API takes the next port after the others, here the port of the API it replaces', async () => {
    const port = await freePorts(3);
    server = await LocalApiServer.start(appA, { port, print: (line) => lines.push(line), quiet: true });
    expect([portOf(base(server, 'Api')), portOf(base(server, 'Second'))]).toEqual([port, port + 1]);
    await server.reload(appB);
    expect([portOf(base(server, 'Api')), portOf(base(server, 'Third'))]).toEqual([port, port + 1]);
    expect(await text(`http://127.0.0.1:${port + 1}/dev/hello`)).toEqual({ status: 200, body: 'third' });
    expect(await text(`http://127.0.0.1:${port + 1}/dev/ping`)).toEqual({ status: 403, body: MISSING_TOKEN });
  });

  test('a port another process holds is skipped', async () => {
    const port = await freePorts(4);
    server = await LocalApiServer.start(appA, { port, print: (line) => lines.push(line), quiet: true });
    foreign = net.createServer();
    await new Promise<void>((resolve) => foreign!.listen(port + 2, '127.0.0.1', () => resolve()));
    const summary = await server.reload(appOf((stack) => apiV1(stack, counterDir), secondApi, thirdApi));
    expect(portOf(base(server, 'Third'))).toBe(port + 3);
    expect(summary.routesAdded).toEqual([`GET http://127.0.0.1:${port + 3}/dev/hello`]);
    expect(await text(`http://127.0.0.1:${port + 3}/dev/hello`)).toEqual({ status: 200, body: 'third' });
  });

  test('no port left for a new API: the reload fails with what to do, and the previous state keeps serving', async () => {
    server = await LocalApiServer.start(appOf((stack) => apiV1(stack, counterDir)), { port: 65535, print: (line) => lines.push(line), quiet: true });
    await expect(server.reload(appB)).rejects.toThrow(
      /^no port left for the new API Third \(Reload\/Third[0-9A-F]{8}\): 65535 is the last port; the previous APIs keep serving \(restart with a lower --port, or --port 0 for free ports\)$/,
    );
    expect(server.endpoints.map((e) => e.api.name)).toEqual(['Api']);
    expect(await text('http://127.0.0.1:65535/dev/items')).toEqual({ status: 200, body: 'items v1' });
    expect(await text('http://127.0.0.1:65535/dev/old')).toEqual({ status: 200, body: 'old' });
    // The next reload runs as usual.
    expect((await server.reload(appOf((stack) => apiV2(stack, counterDir)))).routesRemoved).toEqual(['GET http://127.0.0.1:65535/dev/old']);
    expect(await text('http://127.0.0.1:65535/dev/items')).toEqual({ status: 200, body: 'items v2' });
  });
});

test('a reload after the server closed is refused and opens nothing', async () => {
  const closed = await LocalApiServer.start(appA, { port: 0, print: () => undefined, quiet: true });
  await closed.close();
  await expect(closed.reload(appB)).rejects.toThrow(/^the local API server is closed; nothing to reload$/);
  expect(closed.codeDirectories()).toEqual([]);
});

/** An API with a metered method (API key, quota 3 a day) and one behind a TOKEN authorizer (cached 300 s). */
function keyedApi(version: string) {
  return (stack: Stack) => {
    const api = new apigw.RestApi(stack, 'Keyed', { deployOptions: { stageName: 'dev' } });
    const metered = fn(stack, 'Metered', answering(`metered ${version}`));
    api.root.addResource('metered').addMethod('GET', new apigw.LambdaIntegration(metered), { apiKeyRequired: true });
    const key = api.addApiKey('Key', { value: 'reload-test-key-0123456789' });
    const plan = api.addUsagePlan('Plan', { quota: { limit: 3, period: apigw.Period.DAY }, apiStages: [{ stage: api.deploymentStage }] });
    plan.addApiKey(key);
    const authorizer = new apigw.TokenAuthorizer(stack, 'Auth', {
      handler: fn(stack, 'Authorizer', lambda.Code.fromInline([
        'exports.handler = async (event) => {',
        "  console.log('authorizer ran');",
        "  return { principalId: 'me', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] } };",
        '};',
      ].join('\n'))),
    });
    api.root.addResource('guarded').addMethod('GET', new apigw.LambdaIntegration(metered), { authorizer });
  };
}

describe('state of the gateway across a reload', () => {
  const lines: string[] = [];
  let server: LocalApiServer;
  let url: string;
  const metered: Array<{ status: number; body: string }> = [];
  let authorizerRuns: number[];

  beforeAll(async () => {
    server = await LocalApiServer.start(appOf(keyedApi('v1')), { port: 0, print: (line) => lines.push(line), quiet: true });
    url = base(server, 'Keyed');
    const keyed = async () => {
      const response = await fetch(`${url}/metered`, { headers: { 'x-api-key': 'reload-test-key-0123456789' } });
      return { status: response.status, body: await response.text() };
    };
    const guarded = () => fetch(`${url}/guarded`, { headers: { Authorization: 'token-1' } }).then((r) => r.text());
    const runs = () => lines.filter((l) => l.includes('authorizer ran')).length;
    metered.push(await keyed(), await keyed());
    await guarded();
    await guarded();
    authorizerRuns = [runs()];
    await server.reload(appOf(keyedApi('v2')));
    metered.push(await keyed(), await keyed());
    await guarded();
    authorizerRuns.push(runs());
  });
  afterAll(async () => { await server?.close(); });

  test('usage plan counters are kept: the quota counts the requests of before the reload', () => {
    expect(metered).toEqual([
      { status: 200, body: 'metered v1' },
      { status: 200, body: 'metered v1' },
      { status: 200, body: 'metered v2' },
      { status: 429, body: '{"message":"Limit Exceeded"}' },
    ]);
  });

  test('authorizer caches are cleared: the authorizer runs again for a token it had allowed', () => {
    expect(authorizerRuns).toEqual([1, 2]);
  });
});

describe('code read from the same folder by every synth', () => {
  const lines: string[] = [];
  let server: LocalApiServer | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(() => folders.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  function tempFolder(prefix: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(dir);
    return dir;
  }

  /** Synthesizes an API whose function's code is `source` into `outdir`, asset staging on or off. */
  function synthInto(outdir: string, source: string, staging: boolean): LocalApp {
    const app = new App({ outdir, context: staging ? {} : { 'aws:cdk:disable-asset-staging': true } });
    const stack = new Stack(app, 'InPlace');
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'dev' } });
    get(api, 'edited', fn(stack, 'Edited', lambda.Code.fromAsset(source)));
    app.synth();
    return readLocalApp(outdir);
  }

  function answer(source: string, body: string): void {
    fs.writeFileSync(path.join(source, 'index.js'), `exports.handler = async () => ({ statusCode: 200, body: ${JSON.stringify(body)} });\n`);
  }

  test('with asset staging off, a source folder edited in place runs its new code (reloaded once when it is not known what ran)', async () => {
    const source = tempFolder('vo-reload-source-');
    answer(source, 'edit 1');
    const synthNow = () => synthInto(tempFolder('vo-reload-out-'), source, false);
    const first = synthNow();
    const code = [...first.functions.values()][0].code;
    expect(code.kind === 'directory' && code.directory === source).toBe(true);
    server = await LocalApiServer.start(first, { port: 0, print: (line) => lines.push(line), quiet: true });
    const url = `${base(server, 'Api')}/edited`;
    expect((await text(url)).body).toBe('edit 1');
    answer(source, 'edit 2');
    expect((await server.reload(synthNow())).functionsReloaded).toEqual(['InPlace/Edited']);
    expect((await text(url)).body).toBe('edit 2');
    expect((await server.reload(synthNow())).functionsReloaded).toEqual([]);
    answer(source, 'edit 3');
    expect((await server.reload(synthNow())).functionsReloaded).toEqual(['InPlace/Edited']);
    expect((await text(url)).body).toBe('edit 3');
  });

  test('a staged asset synthesized again into the same cdk.out is unchanged', async () => {
    const source = tempFolder('vo-reload-source-');
    answer(source, 'staged');
    const outdir = tempFolder('vo-reload-out-');
    server = await LocalApiServer.start(synthInto(outdir, source, true), { port: 0, print: (line) => lines.push(line), quiet: true });
    const summary = await server.reload(synthInto(outdir, source, true));
    expect(summary.functionsReloaded).toEqual([]);
    expect((await text(`${base(server, 'Api')}/edited`)).body).toBe('staged');
  });
});
