/**
 * Lambda's rule, through the real server: every concurrent invocation gets an execution
 * environment of its own (with its own module state, globals and init), a warm one is reused, one
 * slow invocation never holds up the others, and an environment ends alone (its `process.exit`,
 * a loop past its timeout) while the function's other environments keep serving.
 */
import * as path from 'path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, FIXTURES, parseCurlResponse, Running, serve, synth } from './local/support';

const STATE = `let count = 0;
const born = Math.random().toString(36).slice(2);
console.log('init ' + born);
exports.handler = async (event) => {
  const q = event.queryStringParameters || {};
  if (q.mode === 'exit') {
    process.exit(3);
  }
  if (q.mode === 'spin') {
    for (;;) {}
  }
  count += 1;
  global.seen = (global.seen || 0) + 1;
  await new Promise((resolve) => setTimeout(resolve, Number(q.ms || 0)));
  return { statusCode: 200, body: JSON.stringify({ count, born, seen: global.seen, sameTimers: global.setTimeout === setTimeout && globalThis.console === console }) };
};`;

/** A module that declares names the environment also provides at its top level. */
const SHADOWING = `const { setTimeout } = require('timers/promises');
let process = { env: { SHADOWED: 'yes' } };
const console = { log() {} };
exports.handler = async () => {
  await setTimeout(5);
  return { statusCode: 200, body: process.env.SHADOWED };
};`;

let running: Running;

beforeAll(async () => {
  const assembly = synth((stack: Stack) => {
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'dev' } });
    const state = new lambda.Function(stack, 'State', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(STATE), timeout: Duration.seconds(1) });
    api.root.addResource('state').addMethod('GET', new apigw.LambdaIntegration(state));
    const esm = new lambda.Function(stack, 'Esm', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromAsset(path.join(FIXTURES, 'esm-state')) });
    api.root.addResource('esm').addMethod('GET', new apigw.LambdaIntegration(esm));
    const shadowing = new lambda.Function(stack, 'Shadowing', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(SHADOWING) });
    api.root.addResource('shadowing').addMethod('GET', new apigw.LambdaIntegration(shadowing));
    // What NodejsFunction's `sourceMap: true` deploys: a bundle with its map, and source maps on.
    const mapped = new lambda.Function(stack, 'Mapped', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(path.join(FIXTURES, 'source-mapped')),
      environment: { NODE_OPTIONS: '--enable-source-maps' },
    });
    api.root.addResource('mapped').addMethod('GET', new apigw.LambdaIntegration(mapped));
  }, { stackName: 'Environments' });
  running = await serve(assembly, { quiet: true });
});

afterAll(async () => {
  await running?.close();
});

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly ms: number;
  readonly requestId: string;
}

async function get(route: string): Promise<Answer> {
  const started = performance.now();
  const response = parseCurlResponse((await curl(['-i', `${running.url}${route}`])).stdout);
  return { status: response.status, body: response.body, ms: performance.now() - started, requestId: response.headers['x-amzn-requestid'] };
}

const state = (answer: Answer): { count: number; born: string; seen: number; sameTimers: boolean } => JSON.parse(answer.body);

test('concurrent invocations each get an environment of their own: their own module state, globals and init', async () => {
  const answers = await Promise.all([0, 1, 2].map(() => get('state?ms=800')));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  const born = answers.map((a) => state(a).born);
  expect(new Set(born).size).toBe(3);
  expect(answers.map((a) => state(a).count)).toEqual([1, 1, 1]);
  for (const answer of answers) {
    expect(state(answer).seen).toBe(state(answer).count);
    // `global.setTimeout` and `setTimeout` are the same (the environment's, ended with it).
    expect(state(answer).sameTimers).toBe(true);
  }
  for (const each of born) {
    expect(running.lines.join('\n')).toContain(`init ${each}`);
  }
  // One after another, a warm environment serves: its module state carries on.
  const next = state(await get('state'));
  expect(born).toContain(next.born);
  expect(next.count).toBeGreaterThanOrEqual(2);
});

test('a slow invocation does not hold up quick ones to the same function', async () => {
  const slow = get('state?ms=900');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const quick = await Promise.all([0, 1, 2, 3, 4].map(() => get('state?ms=10')));
  expect(quick.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  for (const answer of quick) {
    expect(answer.ms).toBeLessThan(600);
  }
  expect((await slow).status).toBe(200);
});

test('process.exit ends only the environment that called it: 502 with the exit status, the others finish', async () => {
  const slow = get('state?ms=600');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const exited = await get('state?mode=exit');
  expect([exited.status, exited.body]).toEqual([502, '{"message":"Internal server error"}']);
  expect(running.lines.join('\n')).toContain(`${exited.requestId} ERROR Runtime exited with error: exit status 3; the execution environment is replaced`);
  expect((await slow).status).toBe(200);
  expect((await get('state')).status).toBe(200);
});

test('a handler looping past its timeout: 502 (Task timed out), its runtime process is replaced, the next request is answered', async () => {
  const spun = await get('state?mode=spin');
  expect([spun.status, spun.body]).toEqual([502, '{"message":"Internal server error"}']);
  expect(running.lines.join('\n')).toContain('Task timed out after 1.00 seconds');
  const next = await get('state');
  expect(next.status).toBe(200);
});

test('an ES module handler: an environment per concurrent invocation too (worker threads), each with its own module state', async () => {
  // Each call outlasts a worker's start even on a busy machine, so none finds another's environment free.
  const answers = await Promise.all([0, 1, 2].map(() => get('esm?ms=1500')));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  expect(new Set(answers.map((a) => state(a).born)).size).toBe(3);
  expect(answers.map((a) => state(a).count)).toEqual([1, 1, 1]);
});

test('a module may declare process, console or setTimeout of its own at its top level', async () => {
  expect(await get('shadowing')).toMatchObject({ status: 200, body: 'yes' });
});

test("with source maps on (NODE_OPTIONS=--enable-source-maps), an error's stack names the original source and line", async () => {
  expect(await get('mapped')).toMatchObject({ status: 200, body: 'mapped' });
  const thrown = await get('mapped?mode=throw');
  expect(thrown.status).toBe(502);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(running.lines.join('\n')).toMatch(/handler\.ts:8:\d+/);
});
