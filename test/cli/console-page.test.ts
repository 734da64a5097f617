/**
 * The console page that `vendor-outputs serve` serves at `/@console/` of each API port: its JSON
 * endpoints over real HTTP against a real `serve` process (the TEST gives what `test-invoke --json`
 * gives), what it refuses, and the page itself in headless Chromium (playwright-core, Debian's
 * chromium), with screenshots at laptop and phone widths.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Browser, chromium, Page } from 'playwright-core';
import { CliProcess, serve, startCli, synth } from './local/support';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { MAX_BODY_BYTES } from '../../src/cli/local/rest/gateway';
import { outputsStatus } from '../../src/cli/local/server/console/outputs-status';
import { checkHost } from '../../src/cli/local/server/console/request-guard';
import { VendorOutputs } from '../../src/outputs/vendor-outputs';
import { runCli } from '../support/cli';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the page, for a person to look at (git ignores the folder). */
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts');

const ITEMS_HANDLER = [
  'exports.handler = async (e) => ({',
  '  statusCode: 200,',
  "  headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Content-Type': 'application/json' },",
  '  body: JSON.stringify({ items: ["pen", "ink", "pad", "cap"].slice(0, Number((e.queryStringParameters || {}).limit || 4)),',
  '    method: e.httpMethod, resource: e.resource, path: e.path, stage: e.requestContext.stage, body: e.body }),',
  '});',
].join('\n');

let assembly: string;
let outputsDir: string;
let cli: CliProcess;
let consoleUrl: string;
let itemsApiId: string;
let consoleStageUrl: string;

beforeAll(async () => {
  assembly = synth((stack: Stack) => {
    const fn = new lambda.Function(stack, 'ItemsFn', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(ITEMS_HANDLER) });
    const api = new apigw.RestApi(stack, 'ItemsApi', { restApiName: 'ItemsApi', deployOptions: { stageName: 'dev' } });
    const items = api.root.addResource('items');
    items.addMethod('GET', new apigw.LambdaIntegration(fn));
    items.addMethod('POST', new apigw.LambdaIntegration(fn), { authorizationType: apigw.AuthorizationType.IAM });
    items.addProxy({ defaultIntegration: new apigw.LambdaIntegration(fn), anyMethod: true });
    // A stage named `console`: its routes are the API's, the page is at /@console/.
    const other = new apigw.RestApi(stack, 'ConsoleStageApi', { restApiName: 'ConsoleStageApi', deployOptions: { stageName: 'console' } });
    other.root.addResource('items').addMethod('GET', new apigw.MockIntegration({
      requestTemplates: { 'application/json': '{"statusCode": 200}' },
      integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '"from the console stage"' } }],
    }), { methodResponses: [{ statusCode: '200' }] });
    const bucket = new s3.Bucket(stack, 'Uploads');
    VendorOutputs.of(stack).addOutput({
      custom: { api_id: api.restApiId, api_endpoint: api.url, api_name: 'ItemsApi', uploads_bucket: bucket.bucketName },
    });
  }, { stackName: 'ConsoleTest' });
  outputsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-console-outputs-'));
  cli = startCli(['serve', '--app', assembly, '--port', '0', '--write-outputs', outputsDir, '--quiet']);
  const out = await cli.waitFor('Press Ctrl+C to stop.');
  consoleUrl = /^Console \(the API Gateway console's TEST, in a browser\): (http:\/\/127\.0\.0\.1:\d+\/@console\/)$/m.exec(out)![1];
  itemsApiId = `ConsoleTest/${/ItemsApi \(ConsoleTest\/(ItemsApi[0-9A-F]{8})\)/.exec(out)![1]}`;
  consoleStageUrl = /ConsoleStageApi \(ConsoleTest\/ConsoleStageApi[0-9A-F]{8}\) at (\S+)/.exec(out)![1];
});

afterAll(async () => {
  cli?.child.kill('SIGTERM');
  await cli?.exited;
});

/** A request sent exactly as written (no path normalization), to the console's port. */
interface RawOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

function rawRequest(target: string, options: RawOptions = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(consoleUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: target, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A response's JSON body (any: the tests check its shape). */
async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}

function postTest(form: Record<string, unknown>): Promise<Response> {
  return fetch(`${consoleUrl}api/test-invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(form) });
}

/** Text with what differs between two runs (ids, times, latencies) replaced by placeholders. */
function withoutRunValues(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/Root=1-[0-9a-f]{8}-[0-9a-f]{24}/g, '<trace>')
    .replace(/(apigw-id=|"extendedRequestId":")[A-Za-z0-9_-]{15}=/g, '$1<apigw-id>')
    .replace(/[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d UTC \d{4}/g, '<time>')
    .replace(/\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}/g, '<request-time>')
    .replace(/("requestTimeEpoch":)\d+/g, '$1<epoch>')
    .replace(/Integration latency: \d+ ms/g, 'Integration latency: <n> ms');
}

/** A TEST result without its latency and with its run values replaced (see withoutRunValues). */
function comparable(result: Record<string, any>): unknown {
  expect(typeof result.latency).toBe('number');
  const ids = (value: string) => (/^[A-Za-z0-9_-]{15}=$/.test(value) ? '<apigw-id>' : withoutRunValues(value));
  return {
    request: result.request,
    status: result.status,
    body: withoutRunValues(result.body),
    headers: Object.fromEntries(Object.entries(result.headers as Record<string, string>).map(([k, v]) => [k, ids(v)])),
    multiValueHeaders: Object.fromEntries(Object.entries(result.multiValueHeaders as Record<string, string[]>).map(([k, v]) => [k, v.map(ids)])),
    log: withoutRunValues(result.log),
  };
}

/** How the execution log shows a secret header value: all but its last 4 characters hidden. */
const masked = (value: string) => `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;

describe('the page and its files', () => {
  test('serve prints the console address; /@console/ is the page, /@console redirects to it', async () => {
    const page = await fetch(consoleUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<ul id="tree" role="tree" aria-labelledby="resources-title"></ul>');
    expect(html).not.toMatch(/https?:\/\//);
    expect((await runCli(['serve', '--help'])).stdout).toContain("Every port also serves the console's TEST page at http://HOST:PORT/@console/");
    const redirect = await rawRequest('/@console');
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe('/@console/');
  });

  test.each([
    ['console.js', 'text/javascript; charset=utf-8', "'use strict';"],
    ['console.css', 'text/css; charset=utf-8', '@media (max-width: 760px)'],
  ])('%s is served with %s', async (name, type, content) => {
    const response = await fetch(`${consoleUrl}${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(await response.text()).toContain(content);
  });

  test.each([
    '/@console/../../package.json',
    '/@console/%2e%2e/',
    '/@console/%2e%2e/%2e%2e/package.json',
    '/@console/..%2f..%2fpackage.json',
    '/@console//etc/passwd',
    '/@console/console.js/..',
    '/@console/index.html',
    '/@console/api/',
  ])('%s is 404 and reads no file', async (target) => {
    const response = await rawRequest(target);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ message: `nothing at ${target.split('?')[0]}: the console is at /@console/` });
  });

  test('a method the endpoint does not take is 405 with Allow', async () => {
    const response = await rawRequest('/@console/api/test-invoke');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    const page = await rawRequest('/@console/', { method: 'DELETE' });
    expect(page.status).toBe(405);
    expect(page.headers.allow).toBe('GET, HEAD');
  });

  test('a stage named console does not collide: /console/items is the API, /@console/ the page', async () => {
    const stage = await fetch(`${consoleStageUrl}items`);
    expect(stage.status).toBe(200);
    expect(await stage.json()).toBe('from the console stage');
    const port = new URL(consoleStageUrl).port;
    const page = await fetch(`http://127.0.0.1:${port}/@console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>vendor-outputs console</title>');
  });
});

describe('GET /@console/api/apis', () => {
  test('lists every served API with its resource tree and methods', async () => {
    const response = await fetch(`${consoleUrl}api/apis`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { apis } = await json(response);
    expect(apis.map((a: { name: string }) => a.name)).toEqual(['ItemsApi', 'ConsoleStageApi']);
    const items = apis[0];
    expect(items).toMatchObject({ id: itemsApiId, stackName: 'ConsoleTest', constructPath: 'ConsoleTest/ItemsApi', stages: ['dev'] });
    expect(items.urls).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/dev\/$/)]);
    expect(items.root).toEqual({
      path: '/',
      pathPart: '',
      methods: [],
      children: [{
        path: '/items',
        pathPart: 'items',
        methods: [
          { httpMethod: 'GET', authorizationType: 'NONE', apiKeyRequired: false, integration: 'Lambda proxy: ConsoleTest/ItemsFn' },
          { httpMethod: 'POST', authorizationType: 'AWS_IAM', apiKeyRequired: false, integration: 'Lambda proxy: ConsoleTest/ItemsFn' },
        ],
        children: [{
          path: '/items/{proxy+}',
          pathPart: '{proxy+}',
          methods: [{ httpMethod: 'ANY', authorizationType: 'NONE', apiKeyRequired: false, integration: 'Lambda proxy: ConsoleTest/ItemsFn' }],
          children: [],
        }],
      }],
    });
    expect(apis[1].root.children[0].methods[0].integration).toBe('MOCK');
  });
});

describe('POST /@console/api/test-invoke', () => {
  const secretHeaders = 'Authorization: Bearer secret-token-value-1234\nX-Amz-Security-Token: session-token-abcdefgh';

  test('gives what `test-invoke --json` gives for the same request (but ids, times and latency)', async () => {
    const response = await postTest({ api: itemsApiId, method: 'GET', path: '/items', query: 'limit=3', headers: secretHeaders, body: '' });
    expect(response.status).toBe(200);
    const fromPage = await json(response);
    const run = await runCli(['test-invoke', '--app', assembly, '--api', 'ItemsApi', '--method', 'GET', '--path', '/items', '--query', 'limit=3',
      '--header', 'Authorization: Bearer secret-token-value-1234', '--header', 'X-Amz-Security-Token: session-token-abcdefgh', '--json']);
    expect(run.code).toBe(0);
    const fromCli = JSON.parse(run.stdout);
    expect(comparable(fromPage)).toEqual(comparable(fromCli));
    expect(fromPage.request).toBe('/items?limit=3');
    expect(fromPage.status).toBe(200);
    expect(JSON.parse(fromPage.body)).toMatchObject({ items: ['pen', 'ink', 'pad'], method: 'GET', resource: '/items', path: '/items', stage: 'test-invoke-stage' });
    expect(fromPage.headers['Access-Control-Allow-Origin']).toBe('*');
    expect(fromPage.log).toMatch(/^Execution log for request [0-9a-f-]{36}\n/);
    expect(fromPage.log).toContain('Method completed with status: 200');
    // The secrets reach the function but the log masks them.
    expect(fromPage.log).not.toContain('secret-token-value');
    expect(fromPage.log).not.toContain('session-token');
    expect(fromPage.log).toContain(`Authorization=${masked('Bearer secret-token-value-1234')}`);
    expect(fromPage.log).toContain(`X-Amz-Security-Token=${masked('session-token-abcdefgh')}`);
  });

  test('an IAM method runs without authorization, as the TEST does; ANY takes the chosen method and path', async () => {
    const post = await json(postTest({ api: itemsApiId, method: 'POST', path: '/items', query: '', headers: 'Content-Type: application/json', body: '{"name":"pen"}' }));
    expect(post.status).toBe(200);
    expect(JSON.parse(post.body)).toMatchObject({ method: 'POST', body: '{"name":"pen"}' });
    const proxy = await json(postTest({ api: itemsApiId, method: 'patch', path: '/items/object/42', query: '?x=1', headers: '', body: '' }));
    expect(proxy.request).toBe('/items/object/42?x=1');
    expect(JSON.parse(proxy.body)).toMatchObject({ method: 'PATCH', resource: '/items/{proxy+}', path: '/items/object/42' });
  });

  test.each([
    ['not JSON', '{', /^the request body is not JSON: /],
    ['an array', '[]', /^the request body must be a JSON object with the fields api, method, path, query, headers, body$/],
    ['a field of another type', JSON.stringify({ api: 'x', method: 'GET', path: '/items', query: 3 }), /^\/query must be a string \(got number\)$/],
    ['a method that is not a name', JSON.stringify({ method: 'GET /x', path: '/items' }), /^\/method must be an HTTP method name such as GET \(got 'GET \/x'\)$/],
    ['a relative path', JSON.stringify({ method: 'GET', path: 'items' }), /^\/path must start with '\/' \(got 'items'\)$/],
    ['an API that is not served', JSON.stringify({ api: 'Gone/Api', method: 'GET', path: '/items' }), /^\/api: no served API 'Gone\/Api' \(served: ConsoleTest\/ItemsApi[0-9A-F]{8}, ConsoleTest\/ConsoleStageApi[0-9A-F]{8}\); reload the page$/],
  ])('%s is a 400 that says what is wrong', async (_name, body, message) => {
    const response = await fetch(`${consoleUrl}api/test-invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(message);
  });

  test('a form larger than twice the gateway body limit is a 413', async () => {
    const response = await rawRequest('/@console/api/test-invoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api: itemsApiId, method: 'POST', path: '/items', body: 'x'.repeat(2 * MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ message: `the TEST form is larger than ${2 * MAX_BODY_BYTES} bytes` });
  });

  test('a header line without a name is a 400 naming the line', async () => {
    const response = await postTest({ api: itemsApiId, method: 'GET', path: '/items', headers: 'Accept: */*\n\n: nameless' });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message: "/headers line 3 must be Name:Value (got ': nameless')" });
  });

  test.each([
    ['another origin', { 'Origin': 'http://evil.example', 'Content-Type': 'application/json' }, 403, "the console's TEST accepts requests from its own page only (got Origin: http://evil.example)"],
    ['a form post (no JSON content type)', { 'Content-Type': 'text/plain' }, 415, "the console's TEST takes a JSON body (Content-Type: application/json; got text/plain)"],
    ['a DNS name pointed at this machine', { 'Host': 'attacker.example:80', 'Content-Type': 'application/json' }, 403,
      'the console answers only requests addressed to an IP address, localhost or --host 127.0.0.1 (got Host: attacker.example:80)'],
  ])('%s is refused', async (_name, headers, status, message) => {
    const response = await rawRequest('/@console/api/test-invoke', { method: 'POST', headers, body: JSON.stringify({ api: itemsApiId, method: 'GET', path: '/items' }) });
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body)).toEqual({ message });
  });
});

describe('GET /@console/api/outputs', () => {
  const file = () => path.join(outputsDir, 'vendor_outputs.json');

  test('the file serve wrote: valid, with its pending values and the local endpoint', async () => {
    const status = await json(fetch(`${consoleUrl}api/outputs`));
    expect(status).toMatchObject({ file: file(), exists: true, valid: true, problems: [], pending: ['/custom/uploads_bucket'] });
    expect(status.document.custom.api_endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dev\/$/);
  });

  test('read again at each request: a broken file shows its problems, a removed one shows as missing', async () => {
    const original = fs.readFileSync(file(), 'utf8');
    try {
      fs.writeFileSync(file(), original.replace('"version": "1"', '"version": "2"'));
      const broken = await json(fetch(`${consoleUrl}api/outputs`));
      expect(broken.valid).toBe(false);
      const lines = original.split('\n');
      const line = lines.findIndex((l) => l.includes('"version"'));
      expect(broken.problems).toEqual([`${file()}:${line + 1}:${lines[line].indexOf('"version"') + 1}: /version: must be "1" (got "2")`]);
      fs.writeFileSync(file(), '{"version": "1",');
      const notJson = await json(fetch(`${consoleUrl}api/outputs`));
      expect(notJson).toMatchObject({ exists: true, valid: false, document: null });
      expect(notJson.problems[0]).toContain('not valid JSON');
      fs.rmSync(file());
      expect(await json(fetch(`${consoleUrl}api/outputs`))).toEqual({ file: file(), exists: false, valid: false, problems: [], pending: [], document: null });
    } finally {
      fs.writeFileSync(file(), original);
    }
  });

  test('a server that writes no file says so', async () => {
    const running = await serve(assembly);
    try {
      const port = running.server.endpoints[0].port;
      const status = await json(fetch(`http://127.0.0.1:${port}/@console/api/outputs`));
      expect(status).toEqual({ file: null, exists: false, valid: false, problems: [], pending: [], document: null });
    } finally {
      await running.close();
    }
  });
});

describe('after a reload (sandbox)', () => {
  test('the tree and the TEST use the APIs and functions served now', async () => {
    const running = await serve(assembly);
    try {
      const base = `http://127.0.0.1:${running.server.endpoints[0].port}/@console/`;
      const before = await json(fetch(`${base}api/apis`));
      expect(before.apis[0].root.children.map((c: { path: string }) => c.path)).toEqual(['/items']);
      const changed = synth((stack: Stack) => {
        const fn = new lambda.Function(stack, 'ItemsFn', {
          runtime: lambda.Runtime.NODEJS_20_X,
          handler: 'index.handler',
          code: lambda.Code.fromInline("exports.handler = async (e) => ({ statusCode: 200, body: JSON.stringify('new code at ' + e.resource) });"),
        });
        const api = new apigw.RestApi(stack, 'ItemsApi', { restApiName: 'ItemsApi', deployOptions: { stageName: 'dev' } });
        api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn));
        api.root.addResource('orders').addMethod('GET', new apigw.LambdaIntegration(fn));
      }, { stackName: 'ConsoleTest' });
      await running.server.reload(readLocalApp(changed));
      const after = await json(fetch(`${base}api/apis`));
      expect(after.apis.map((a: { name: string }) => a.name)).toEqual(['ItemsApi']);
      expect(after.apis[0].root.children.map((c: { path: string }) => c.path)).toEqual(['/items', '/orders']);
      const result = await json(fetch(`${base}api/test-invoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ api: after.apis[0].id, method: 'GET', path: '/orders' }),
      }));
      expect(result).toMatchObject({ status: 200, body: '"new code at /orders"' });
    } finally {
      await running.close();
    }
  });
});

describe('outputs and hosts, without a server', () => {
  test('a vendor_outputs.dart (sandbox --format dart) is read from its raw string', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-console-dart-'));
    const file = path.join(dir, 'vendor_outputs.dart');
    const marker = "<pending: Outputs.VendorOutputsPending[0] after deploy; run 'vendor-outputs generate'>";
    fs.writeFileSync(file, `// Generated\nconst vendorConfig = r'''${JSON.stringify({ version: '1', storage: { vendor_region: 'us-east-1', bucket_name: marker } }, null, 2)}''';\n`);
    expect(outputsStatus(file)).toMatchObject({ file, exists: true, valid: true, problems: [], pending: ['/storage/bucket_name'] });
    fs.writeFileSync(file, "const vendorConfig = r'''{\"version\": \"2\"}''';\n");
    expect(outputsStatus(file)).toMatchObject({ valid: false, problems: [`${file}: /version: must be "1" (got "2")`] });
    fs.writeFileSync(file, 'const vendorConfig = 1;\n');
    expect(outputsStatus(file)).toMatchObject({
      exists: true,
      valid: false,
      problems: [`${file}:1: not a Dart client configuration as vendor-outputs writes it: expected the line const vendorConfig = r'''{...}'''; (the JSON in a raw Dart string)`],
    });
    fs.writeFileSync(file, "const vendorConfig = r'''{\"version\": 1 2}''';\n");
    expect(outputsStatus(file)).toMatchObject({ exists: true, valid: false, problems: [`${file}:1: the raw string of vendorConfig is not JSON`] });
  });

  test('a vendor_outputs.dart with a commented-out copy above the constant: the constant is read, as Dart reads it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-console-dart-'));
    const file = path.join(dir, 'vendor_outputs.dart');
    fs.writeFileSync(file, "/* old:\nconst vendorConfig = r'''{\"version\": \"2\"}''';\n*/\nconst vendorConfig = r'''{\"version\": \"1\"}''';\n");
    expect(outputsStatus(file)).toMatchObject({ exists: true, valid: true, problems: [], document: { version: '1' } });
  });

  test.each([
    ['127.0.0.1:3000', true],
    ['[::1]:3000', true],
    ['localhost:3000', true],
    ['LOCALHOST', true],
    ['192.168.1.20:3000', true],
    ['devbox:3000', false],
    ['127.0.0.1.nip.io:3000', false],
    ['', false],
  ])('Host %j is answered: %s', (host, answered) => {
    expect(checkHost(host === '' ? {} : { host }, '127.0.0.1') === undefined).toBe(answered);
  });

  test('the --host name is answered', () => {
    expect(checkHost({ host: 'devbox:3000' }, 'devbox')).toBeUndefined();
  });
});

describe('the page in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: run 'bash scripts/ensure-chromium.sh' (npx projen ensure-browser)`);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function openPage(width: number): Promise<{ page: Page; requested: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(consoleUrl);
    await page.waitForSelector('[role="treeitem"].method');
    return { page, requested };
  }

  test('select GET /items with the keyboard, test limit=3, read status, latency and log', async () => {
    const { page, requested } = await openPage(1280);
    try {
      // Keyboard: the tree holds one tab stop; arrows move, Enter selects and goes to the query field.
      await page.focus('[role="tree"] [tabindex="0"]');
      expect(await page.evaluate('document.activeElement.textContent')).toMatch(/^GET/);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      expect(await page.getAttribute('[role="treeitem"][aria-selected="true"]', 'aria-label')).toBe('GET /items, Lambda proxy: ConsoleTest/ItemsFn');
      expect(await page.evaluate('document.activeElement.id')).toBe('query');
      expect(await page.textContent('#execution-title')).toBe('Test GET /items');
      // Every field has a label.
      for (const id of ['api-select', 'method', 'path', 'query', 'headers', 'body']) {
        expect(await page.textContent(`label[for="${id}"]`)).not.toBe('');
      }
      await page.keyboard.type('limit=3');
      await page.fill('#headers', 'Authorization: Bearer secret-token-value-1234');
      await page.focus('#query');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#report:not([hidden])');
      expect(await page.textContent('#r-request')).toBe('/items?limit=3');
      expect(await page.textContent('#r-status')).toBe('200');
      expect(await page.textContent('#r-latency')).toMatch(/^\d+ ms$/);
      const body = await page.textContent('#r-body');
      expect(JSON.parse(body!)).toMatchObject({ items: ['pen', 'ink', 'pad'], stage: 'test-invoke-stage' });
      expect(body).toContain('\n  "items": [');
      expect(await page.textContent('#r-headers')).toContain('Access-Control-Allow-Origin: *');
      const log = await page.textContent('#r-log');
      expect(log).toMatch(/^Execution log for request /);
      expect(log).toContain('Method completed with status: 200');
      expect(log).toContain(`Authorization=${masked('Bearer secret-token-value-1234')}`);
      expect(log).not.toContain('secret-token-value');
      // The outputs pane: the file, its validity and the value pending until deploy.
      expect(await page.textContent('#o-validity')).toBe('Valid against the schema (pending values accepted).');
      expect(await page.textContent('#o-pending')).toBe('/custom/uploads_bucket');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-1280.png'), fullPage: true });
      // Offline: nothing but the console's own files and endpoints.
      expect(requested.filter((url) => !url.startsWith(consoleUrl))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('a path parameter must be filled in; the API selector switches the tree; readable at 390 px', async () => {
    const { page } = await openPage(390);
    try {
      await page.click('[aria-label^="ANY /items/{proxy+}"]');
      await page.selectOption('#method', 'DELETE');
      await page.click('#test-button');
      expect(await page.textContent('#form-error')).toBe('Replace {proxy+} in Path with a value, e.g. /items/42.');
      await page.fill('#path', '/items/42');
      await page.click('#test-button');
      await page.waitForSelector('#report:not([hidden])');
      expect(JSON.parse((await page.textContent('#r-body'))!)).toMatchObject({ method: 'DELETE', path: '/items/42' });
      // Nothing wider than the screen.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-390.png'), fullPage: true });
      await page.selectOption('#api-select', { label: 'ConsoleStageApi (ConsoleTest/ConsoleStageApi) · REST API' });
      expect(await page.getAttribute('[role="treeitem"].method', 'aria-label')).toBe('GET /items, MOCK');
      process.stdout.write(`console screenshots: ${ARTIFACTS}/console-1280.png, console-390.png\n`);
    } finally {
      await page.close();
    }
  });
});
