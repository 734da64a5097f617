/**
 * Mapping templates that break API Gateway's limits, through the compiled `vendor-outputs serve` on
 * 127.0.0.1: a `#foreach` over [1..2000000000] (walked up to 1,000, never built), two nested loops
 * over [1..100000], a string doubled 23 times (past the 10 MB payload), a template over 300 KB, a
 * loop that outlives the deadline. Each is answered as the gateway answers (200, or 500 `Internal
 * server error` for a template that fails), while another API answers within a second, and the
 * server stops on SIGTERM even while a template spins.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { CliProcess, startCli, synth } from './local/support';

jest.setTimeout(60_000);

const SPIN = '#foreach($i in [1..1000])#foreach($j in [1..1000])#foreach($k in [1..1000])#end#end#end';
const INTERNAL_ERROR = '{"message":"Internal server error"}';

/** A MOCK integration answering 200 through `responseTemplate` (its request template is `requestTemplate`). */
function mock(responseTemplate: string, requestTemplate = '{"statusCode": 200}'): apigw.MockIntegration {
  return new apigw.MockIntegration({
    requestTemplates: { 'application/json': requestTemplate },
    integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': responseTemplate } }],
  });
}

let assembly: string;

beforeAll(() => {
  assembly = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Templates', { deployOptions: { stageName: 'prod' } });
    const methods: Record<string, apigw.MockIntegration> = {
      'range': mock('#foreach($i in [1..2000000000])#set($last = $i)#end$last'),
      'range-value': mock('#set($r = [1..2000000000])$r.size()'),
      'nested': mock('#foreach($i in [1..100000])#foreach($j in [1..100000])x#end#end'),
      'double': mock('#set($s = "0123456789")#foreach($i in [1..23])#set($s = "$s$s")#end$s'),
      'oversized': mock(`$context.stage${' '.repeat(300 * 1024)}`),
      'spin': mock(SPIN),
      'spin-request': mock('never', `${SPIN}{"statusCode": 200}`),
    };
    for (const [name, integration] of Object.entries(methods)) {
      api.root.addResource(name).addMethod('GET', integration, { methodResponses: [{ statusCode: '200' }] });
    }
    const other = new apigw.RestApi(stack, 'Other', { deployOptions: { stageName: 'dev' } });
    other.root.addResource('ping').addMethod('GET', mock('{"pong": "$context.stage"}'), { methodResponses: [{ statusCode: '200' }] });
    other.root.addResource('static').addMethod('GET', mock('{"pong": true}'), { methodResponses: [{ statusCode: '200' }] });
  }, { stackName: 'LimitsTest' });
});

interface Served {
  readonly cli: CliProcess;
  readonly templates: string;
  readonly other: string;
}

async function startServe(): Promise<Served> {
  const cli = startCli(['serve', '--app', assembly, '--port', '0']);
  await cli.waitFor('Press Ctrl+C to stop.');
  const urlOf = (name: string) => new RegExp(`${name} \\(LimitsTest/${name}[0-9A-F]{8}\\) at (http://127\\.0\\.0\\.1:\\d+/\\w+/)`).exec(cli.stdout())![1];
  return { cli, templates: urlOf('Templates'), other: urlOf('Other') };
}

/** The server prints `text` (it may reach the test's pipe after the answer it is about). */
async function expectPrinted(cli: CliProcess, text: string): Promise<void> {
  expect(await cli.waitFor(text, 10_000)).toContain(text);
}

async function get(url: string): Promise<{ status: number; body: string; ms: number }> {
  const started = Date.now();
  const response = await fetch(url);
  return { status: response.status, body: await response.text(), ms: Date.now() - started };
}

async function stop(cli: CliProcess): Promise<number> {
  const started = Date.now();
  cli.child.kill('SIGTERM');
  expect(await cli.exited).toEqual({ code: 0, signal: null });
  return Date.now() - started;
}

describe('one server', () => {
  let served: Served;

  beforeAll(async () => {
    served = await startServe();
  });

  afterAll(async () => {
    await stop(served.cli);
  });

  test('#foreach over [1..2000000000]: 200, the loop stopped after 1,000 iterations (the range is never built)', async () => {
    expect(await get(`${served.templates}range`)).toMatchObject({ status: 200, body: '1000' });
  });

  test('the same range used as a value: 500, the template fails', async () => {
    expect(await get(`${served.templates}range-value`)).toMatchObject({ status: 500, body: INTERNAL_ERROR });
    await expectPrinted(served.cli, 'response template: the range [1..2000000000] has 2000000000 numbers');
  });

  test('two nested loops over [1..100000]: 200, 1,000 × 1,000 iterations', async () => {
    expect(await get(`${served.templates}nested`)).toMatchObject({ status: 200, body: 'x'.repeat(1_000_000) });
  });

  test('a string doubled 23 times: 500, stopped at the 10 MB payload', async () => {
    expect(await get(`${served.templates}double`)).toMatchObject({ status: 500, body: INTERNAL_ERROR });
    await expectPrinted(served.cli, "response template: the template's output passed API Gateway's payload limit of 10485760 bytes (10 MB)");
  });

  test('a template over 300 KB: 500', async () => {
    expect(await get(`${served.templates}oversized`)).toMatchObject({ status: 500, body: INTERNAL_ERROR });
    await expectPrinted(served.cli, 'response template: the mapping template is 307214 bytes; API Gateway accepts templates of up to 307200 bytes (300 KB)');
  });

  test.each(['spin', 'spin-request'])('a %s template past the deadline: 500 after 3 s; meanwhile another API answers within a second', async (name) => {
    const spinning = get(`${served.templates}${name}`);
    // Well into the spin (the server has started a spare template host by then).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ping = await get(`${served.other}ping`);
    expect(ping).toMatchObject({ status: 200, body: '{"pong": "dev"}' });
    expect(ping.ms).toBeLessThan(1000);
    const plain = await get(`${served.other}static`);
    expect(plain).toMatchObject({ status: 200, body: '{"pong": true}' });
    expect(plain.ms).toBeLessThan(1000);
    const spun = await spinning;
    expect(spun).toMatchObject({ status: 500, body: INTERNAL_ERROR });
    expect(spun.ms).toBeGreaterThanOrEqual(2900);
    expect(spun.ms).toBeLessThan(6000);
    const which = name === 'spin' ? 'response' : 'request';
    await expectPrinted(served.cli, `${which} template: the template ran longer than 3000 ms and was stopped`);
  });
});

test('SIGTERM stops the server at once while a template spins', async () => {
  const { cli, templates } = await startServe();
  const spinning = fetch(`${templates}spin`).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await stop(cli)).toBeLessThan(1500);
  await spinning;
});
