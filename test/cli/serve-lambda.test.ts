/**
 * `serve`, the Lambda side: payload limits, memory, names from the client that collide with
 * `Object.prototype`, reserved and account concurrency, scaling and idle retirement. A real
 * synthesized app served on 127.0.0.1; the functions run in real runtime host processes.
 */
import * as http from 'http';
import * as path from 'path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { FIXTURES, startCli, synth } from './local/support';
import { Invoker } from '../../src/cli/local/lambda/invoker';
import { MAX_REQUEST_PAYLOAD_BYTES, MAX_RESPONSE_PAYLOAD_BYTES } from '../../src/cli/local/lambda/limits';
import { LocalApp } from '../../src/cli/local/model/local-app';
import { readLocalApp } from '../../src/cli/local/read-local-app';
import { buildEvent } from '../../src/cli/local/rest/event';
import { LocalApiServer } from '../../src/cli/local/server/server';

const INTERNAL = '{"message":"Internal server error"}';

function buildApp(stack: Stack): void {
  const code = lambda.Code.fromAsset(path.join(FIXTURES, 'limits'));
  const fn = (id: string, props: Partial<lambda.FunctionProps> = {}) => new lambda.Function(stack, id, {
    runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code, timeout: Duration.seconds(20), ...props,
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'test' } });
  const route = (name: string, target: lambda.IFunction) => {
    const resource = api.root.addResource(name);
    resource.addMethod('GET', new apigw.LambdaIntegration(target));
    resource.addMethod('POST', new apigw.LambdaIntegration(target));
  };
  route('limits', fn('Limits', { memorySize: 128 }));
  route('reserved', fn('Reserved', { reservedConcurrentExecutions: 2 }));
  route('closed', fn('Closed', { reservedConcurrentExecutions: 0 }));
  route('single', fn('Single', { reservedConcurrentExecutions: 1 }));
  route('scale', fn('Scale'));
  route('exits', fn('ExitsAtInit', { code: lambda.Code.fromAsset(path.join(FIXTURES, 'exits-at-init')) }));
}

let assembly: string;
let app: LocalApp;

beforeAll(() => {
  assembly = synth(buildApp, { stackName: 'LambdaLimits' });
  app = readLocalApp(assembly);
});

interface Served {
  readonly base: string;
  readonly lines: string[];
  close(): Promise<void>;
}

async function serveApp(): Promise<Served> {
  const lines: string[] = [];
  const server = await LocalApiServer.start(app, { port: 0, print: (line) => lines.push(line), quiet: true });
  return { base: server.endpoints[0].urls[0].replace(/\/$/, ''), lines, close: () => server.close() };
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; requestId: string | null }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-amzn-requestid') };
}

/** The gateway's note for a request (what the terminal shows). */
function noteFor(lines: readonly string[], requestId: string | null): string {
  return lines.filter((l) => requestId !== null && l.startsWith(`${requestId} GATEWAY `)).join('\n');
}

describe('payload limits of a synchronous invocation', () => {
  let served: Served;
  beforeAll(async () => { served = await serveApp(); });
  afterAll(async () => { await served?.close(); });

  const wrapper = JSON.stringify({ statusCode: 200, body: '' }).length;

  test('a response of exactly 6291556 bytes is answered', async () => {
    const response = await call(`${served.base}/limits?mode=respond&bytes=${MAX_RESPONSE_PAYLOAD_BYTES - wrapper}`);
    expect(response.status).toBe(200);
    expect(response.text.length).toBe(MAX_RESPONSE_PAYLOAD_BYTES - wrapper);
  });

  test('one byte more: 502, the log says the response is too large, the server keeps serving', async () => {
    const response = await call(`${served.base}/limits?mode=respond&bytes=${MAX_RESPONSE_PAYLOAD_BYTES - wrapper + 1}`);
    expect([response.status, response.text]).toEqual([502, INTERNAL]);
    expect(noteFor(served.lines, response.requestId)).toContain(
      `Function.ResponseSizeTooLarge: Response payload size (${MAX_RESPONSE_PAYLOAD_BYTES + 1} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_PAYLOAD_BYTES} bytes).`);
    expect((await call(`${served.base}/limits`)).text).toBe('ok');
  });

  test('an event under 6291456 bytes reaches the function', async () => {
    const response = await call(`${served.base}/limits`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'b'.repeat(6_000_000) });
    expect([response.status, response.text]).toEqual([200, 'ok']);
  });

  test('an event over 6291456 bytes is refused by Lambda: 500, and the log says why', async () => {
    const response = await call(`${served.base}/limits`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'b'.repeat(MAX_REQUEST_PAYLOAD_BYTES) });
    expect([response.status, response.text]).toEqual([500, INTERNAL]);
    expect(noteFor(served.lines, response.requestId)).toMatch(
      new RegExp(`Lambda refused the invocation with 413 RequestEntityTooLargeException: Request must be smaller than ${MAX_REQUEST_PAYLOAD_BYTES} bytes for the InvokeFunction operation \\(the event is \\d+ bytes\\)`));
  });
});

describe('function output', () => {
  let served: Served;
  beforeAll(async () => { served = await serveApp(); });
  afterAll(async () => { await served?.close(); });

  test('process.stdout / process.stderr writes reach the terminal with the request id, from every environment', async () => {
    // Two at once: one runs in the runtime process's own thread, the other in a worker thread.
    const responses = await Promise.all(['a', 'b'].map((tag) => call(`${served.base}/scale?mode=streams&tag=${tag}&ms=300`)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const [i, tag] of ['a', 'b'].entries()) {
      expect(responses[i].status).toBe(200);
      expect(served.lines).toContain(`${responses[i].requestId} STDOUT raw out ${tag}`);
      expect(served.lines).toContain(`${responses[i].requestId} STDERR raw err ${tag}`);
    }
  });
});

describe('a module that exits while it loads', () => {
  let served: Served;
  beforeAll(async () => { served = await serveApp(); });
  afterAll(async () => { await served?.close(); });

  test('each request gets 502 with the exit status (Runtime.ExitError); the server keeps serving', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await call(`${served.base}/exits`);
      expect([response.status, response.text]).toEqual([502, INTERNAL]);
      expect(noteFor(served.lines, response.requestId)).toContain('Runtime.ExitError: Runtime exited with error: exit status 4');
    }
    expect((await call(`${served.base}/limits`)).text).toBe('ok');
  });
});

describe('MemorySize bounds the execution environment', () => {
  let served: Served;
  beforeAll(async () => { served = await serveApp(); });
  afterAll(async () => { await served?.close(); });

  test.each([
    ['a gradual heap leak', 'mode=leak'],
    ['one allocation far past the heap (the runtime process aborts)', 'mode=array'],
    ['a 300 MB buffer outside the heap', 'mode=buffer&mb=300'],
    ['a 256 MB string', 'mode=string'],
  ])('%s: 502, the log names Runtime.OutOfMemory, the environment is replaced', async (_, query) => {
    const response = await call(`${served.base}/limits?${query}`);
    expect([response.status, response.text]).toEqual([502, INTERNAL]);
    expect(noteFor(served.lines, response.requestId)).toContain('Runtime.OutOfMemory: Runtime exited with error: signal: killed (Runtime.OutOfMemory: the function used more than its MemorySize of 128 MB)');
    expect(served.lines).toContain(`${response.requestId} ERROR Runtime exited with error: signal: killed (Runtime.OutOfMemory: the function used more than its MemorySize of 128 MB); the execution environment is replaced`);
    const next = await call(`${served.base}/limits`);
    expect([next.status, next.text]).toEqual([200, 'ok']);
  });

  test('a buffer under MemorySize is fine', async () => {
    expect((await call(`${served.base}/limits?mode=buffer&mb=32`)).status).toBe(200);
  });
});

describe('header and query names that are Object.prototype members', () => {
  let served: Served;
  beforeAll(async () => { served = await serveApp(); });
  afterAll(async () => { await served?.close(); });

  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

  /** A request with exactly these header names (an object literal would treat `__proto__` as its prototype). */
  function raw(target: string, headers: Array<[string, string]>): Promise<{ status: number; body: string }> {
    const url = new URL(`${served.base}${target}`);
    return new Promise((resolve, reject) => {
      const request = http.request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}` }, (response) => {
        let body = '';
        response.on('data', (d) => { body += d; });
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('error', reject);
      for (const [name, value] of headers) {
        request.setHeader(name, value);
      }
      request.end();
    });
  }

  test('reach the function as ordinary keys of the event maps', async () => {
    const query = NAMES.map((n, i) => `${n}=${i}`).join('&') + '&constructor=again';
    const response = await raw(`/limits?mode=names&${query}`, NAMES.map((n) => [n, `h-${n}`]));
    expect(response.status).toBe(200);
    const echoed = JSON.parse(response.body);
    for (const name of NAMES) {
      expect(Object.getOwnPropertyDescriptor(echoed.headers, name)?.value).toBe(`h-${name}`);
      expect(Object.getOwnPropertyDescriptor(echoed.multiValueHeaders, name)?.value).toEqual([`h-${name}`]);
    }
    expect(echoed.queryStringParameters).toEqual(JSON.parse('{"mode":"names","__proto__":"0","constructor":"again","toString":"2","hasOwnProperty":"3"}'));
    expect(Object.getOwnPropertyDescriptor(echoed.multiValueQueryStringParameters, 'constructor')?.value).toEqual(['1', 'again']);
    expect(Object.getOwnPropertyDescriptor(echoed.multiValueQueryStringParameters, '__proto__')?.value).toEqual(['0']);
    expect(echoed.headersHaveObjectPrototype).toBe(true);
    expect(echoed.ownQueryNames).toEqual(['mode', ...NAMES]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as any).polluted).toBeUndefined();
  });
});

describe('concurrency', () => {
  let served: Served;
  beforeAll(async () => { served = await serveApp(); });
  afterAll(async () => { await served?.close(); });

  test('reserved concurrency 2: a third concurrent call is throttled (500), the log says why; then warm environments serve', async () => {
    const results = await Promise.all([0, 1, 2].map(() => call(`${served.base}/reserved?mode=sleep&ms=1500`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 500]);
    const throttled = results.find((r) => r.status === 500)!;
    expect(throttled.text).toBe(INTERNAL);
    expect(noteFor(served.lines, throttled.requestId)).toMatch(/Lambda refused the invocation with 429 TooManyRequestsException: Rate Exceeded\. \(LambdaLimits-Reserved\w+ is at its reserved concurrency \(2\), every execution environment busy\)/);
    const again = await Promise.all([0, 1].map(() => call(`${served.base}/reserved?mode=sleep&ms=10`)));
    expect(again.map((r) => r.status)).toEqual([200, 200]);
  });

  test('ReservedConcurrentExecutions is read from each function of the template', () => {
    const reserved = [...app.functions.values()].map((f) => [f.logicalId.replace(/[0-9A-F]{8}$/, ''), f.reservedConcurrency]);
    expect(Object.fromEntries(reserved)).toEqual(expect.objectContaining({ Reserved: 2, Closed: 0, Single: 1, Scale: undefined }));
  });

  test('reserved concurrency 1: concurrent calls run one at a time (the others are throttled, 500), then the next one runs', async () => {
    const started = Date.now();
    const results = await Promise.all([0, 1, 2].map(() => call(`${served.base}/single?mode=sleep&ms=600`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 500, 500]);
    for (const throttled of results.filter((r) => r.status === 500)) {
      expect(throttled.text).toBe(INTERNAL);
      expect(noteFor(served.lines, throttled.requestId)).toContain('429 TooManyRequestsException: Rate Exceeded. (LambdaLimits-Single');
      expect(noteFor(served.lines, throttled.requestId)).toContain('is at its reserved concurrency (1)');
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    // One after another, each call finds the one environment free.
    for (let i = 0; i < 3; i++) {
      expect((await call(`${served.base}/single?mode=sleep&ms=10`)).status).toBe(200);
    }
  });

  test('reserved concurrency 0: every call is throttled', async () => {
    const response = await call(`${served.base}/closed`);
    expect([response.status, response.text]).toEqual([500, INTERNAL]);
    expect(noteFor(served.lines, response.requestId)).toContain('429 TooManyRequestsException');
  });

  test('2,000 concurrent requests to a function that takes 200 ms all succeed', async () => {
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const url = new URL(`${served.base}/scale?mode=sleep&ms=200`);
    const one = () => new Promise<number>((resolve) => {
      const request = http.get({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      });
      request.on('error', () => resolve(0));
    });
    const statuses = await Promise.all(Array.from({ length: 2000 }, one));
    agent.destroy();
    const counts: Record<number, number> = {};
    for (const s of statuses) {
      counts[s] = (counts[s] ?? 0) + 1;
    }
    expect(counts).toEqual({ 200: 2000 });
  }, 120_000);
});

describe('idle environments are retired; the account concurrency is configurable', () => {
  const scale = () => [...app.functions.values()].find((f) => f.logicalId.startsWith('Scale'))!;
  // The finished event of GET /scale?mode=sleep&ms=300 (the invoker takes the event its callers build).
  const input = (requestId: string) => buildEvent({
    resource: '/scale',
    path: '/scale',
    httpMethod: 'GET',
    headers: [],
    // Each call outlasts an environment's start even on a busy machine, so every call of a burst
    // gets an environment of its own rather than waiting for a warm one.
    query: 'mode=sleep&ms=1000',
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    context: {
      resourceId: 'r',
      stage: 'test',
      path: '/test/scale',
      requestId,
      extendedRequestId: 'x',
      requestTimeEpoch: Date.now(),
      sourceIp: '127.0.0.1',
      domainName: 'localhost',
      apiId: 'api',
      identity: null,
    },
  });

  test('environments idle past idleRetireMs are stopped (one stays warm); new ones start on demand', async () => {
    const logs: string[] = [];
    const invoker = new Invoker(app.functions, { log: (id, level, text) => logs.push(`${id} ${level} ${text}`), idleRetireMs: 300 });
    try {
      const burst = async (tag: string) => Promise.all([0, 1, 2].map((i) => invoker.invoke(scale().key, input(`${tag}-${i}`), { awsRequestId: `${tag}-${i}` })));
      expect((await burst('a')).map((o) => o.kind)).toEqual(['ok', 'ok', 'ok']);
      expect(invoker.environmentCount(scale().key)).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(invoker.environmentCount(scale().key)).toBe(1);
      expect((await burst('b')).map((o) => o.kind)).toEqual(['ok', 'ok', 'ok']);
      expect(invoker.environmentCount(scale().key)).toBe(3);
    } finally {
      await invoker.close();
    }
  });

  test('maxConcurrency 1: a second concurrent call to an unreserved function is throttled', async () => {
    const invoker = new Invoker(app.functions, { log: () => undefined, maxConcurrency: 3 });
    try {
      // Reserved concurrency (2 + 0) is taken from the account's 3, leaving 1 for the others.
      const outcomes = await Promise.all([0, 1].map((i) => invoker.invoke(scale().key, input(`c-${i}`), { awsRequestId: `c-${i}` })));
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['ok', 'rejected']);
      expect(outcomes.find((o) => o.kind === 'rejected')).toMatchObject({
        statusCode: 429,
        errorType: 'TooManyRequestsException',
        errorMessage: expect.stringContaining("at the account's unreserved concurrency (1; set VENDOR_OUTPUTS_MAX_CONCURRENCY to change it)"),
      });
    } finally {
      await invoker.close();
    }
  });

  test.each(['0', '-3', '1.5', 'many'])('VENDOR_OUTPUTS_MAX_CONCURRENCY=%s: serve exits 2 naming the variable', async (value) => {
    const cli = startCli(['serve', '--app', assembly, '--port', '0'], { VENDOR_OUTPUTS_MAX_CONCURRENCY: value });
    const { code } = await cli.exited;
    expect(code).toBe(2);
    expect(cli.stderr()).toContain(`VENDOR_OUTPUTS_MAX_CONCURRENCY must be a positive whole number of concurrent executions (got '${value}')`);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });
});
