/**
 * `vendor-outputs serve` as a real process: start-up listing, SIGINT/SIGTERM, --write-outputs,
 * usage errors, and no aws-cdk-lib loaded.
 */
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { pendingMarker, readCarriedDocument } from '../../src/outputs/cdk-free/carriage';
import { validateDocument } from '../../src/outputs/cdk-free/validation';
import { VendorOutputs } from '../../src/outputs/vendor-outputs';
import { runCli } from '../support/cli';
import { startCli, synth } from './local/support';

function itemsApi(stack: Stack, id: string, stageName: string): apigw.RestApi {
  const fn = new lambda.Function(stack, `${id}Fn`, {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline([
      `exports.handler = async () => { console.log('listing ${id}');`,
      `return { statusCode: 200, headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' }, body: JSON.stringify('${id} items') }; };`,
    ].join('\n')),
  });
  const api = new apigw.RestApi(stack, id, {
    restApiName: id,
    deployOptions: { stageName },
    defaultCorsPreflightOptions: { allowOrigins: apigw.Cors.ALL_ORIGINS },
  });
  api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn));
  return api;
}

let assembly: string;

beforeAll(() => {
  assembly = synth((stack) => {
    const items = itemsApi(stack, 'ItemsApi', 'prod');
    const orders = itemsApi(stack, 'OrdersApi', 'dev');
    const bucket = new s3.Bucket(stack, 'Uploads');
    VendorOutputs.of(stack).addOutput({
      custom: {
        api_id: items.restApiId,
        api_endpoint: items.url,
        api_name: 'ItemsApi',
        api_stage: items.deploymentStage.stageName,
        vendor_region: stack.region,
        orders: { api_id: orders.restApiId, api_endpoint: orders.url, api_name: 'OrdersApi', api_stage: 'dev', vendor_region: stack.region },
        uploads_bucket: bucket.bucketName,
      },
    });
  }, { stackName: 'CliTest' });
});

test('serve prints the routes, answers, logs function output, and stops cleanly on SIGTERM', async () => {
  const cli = startCli(['serve', '--app', assembly, '--port', '0']);
  await cli.waitFor('Press Ctrl+C to stop.');
  const out = cli.stdout();
  expect(out).toMatch(/^Serving 2 REST API\(s\) from /);
  const itemsUrl = /ItemsApi \(CliTest\/ItemsApi[0-9A-F]{8}\) at (http:\/\/127\.0\.0\.1:\d+\/prod\/)/.exec(out)![1];
  expect(out).toMatch(new RegExp(`GET +${itemsUrl.replace(/[.]/g, '\\.')}items +-> CliTest/ItemsApiFn  \\[NONE\\]\\n`));
  expect(out).toMatch(/OPTIONS +http:\/\/127\.0\.0\.1:\d+\/dev\/items +-> MOCK/);
  const response = await fetch(`${itemsUrl}items?limit=5`);
  expect(response.status).toBe(200);
  expect(await response.json()).toBe('ItemsApi items');
  const id = response.headers.get('x-amzn-requestid');
  await cli.waitFor(`${id} INFO listing ItemsApi`);
  cli.child.kill('SIGTERM');
  const exit = await cli.exited;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(cli.stderr()).toContain('vendor-outputs serve: SIGTERM, stopping');
});

test('SIGINT stops it too', async () => {
  const cli = startCli(['serve', '--app', assembly, '--port', '0', '--quiet']);
  await cli.waitFor('Press Ctrl+C to stop.');
  cli.child.kill('SIGINT');
  expect(await cli.exited).toEqual({ code: 0, signal: null });
  expect(cli.stderr()).toContain('vendor-outputs serve: SIGINT, stopping');
});

test('--write-outputs writes a valid vendor_outputs.json pointing at the local server', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-write-outputs-'));
  const cli = startCli(['serve', '--app', assembly, '--port', '0', '--write-outputs', dir]);
  try {
    await cli.waitFor('Press Ctrl+C to stop.');
    const out = cli.stdout();
    const itemsUrl = /ItemsApi \(CliTest\/ItemsApi[0-9A-F]{8}\) at (\S+)/.exec(out)![1];
    const ordersUrl = /OrdersApi \(CliTest\/OrdersApi[0-9A-F]{8}\) at (\S+)/.exec(out)![1];
    const file = path.join(dir, 'vendor_outputs.json');
    expect(out).toContain(`Wrote ${file} (1 value(s) known only after deploy left pending: /custom/uploads_bucket)`);
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(validateDocument(document)).toEqual([]);
    const template = JSON.parse(fs.readFileSync(path.join(assembly, 'CliTest.template.json'), 'utf8'));
    const carried = readCarriedDocument(template.Metadata, 'CliTest');
    const bucketEntry = carried.pending.find((e) => e.pointer === '/custom/uploads_bucket')!;
    expect(document.custom).toEqual({
      api_id: expect.stringMatching(/^ItemsApi[0-9A-F]{8}$/),
      api_endpoint: itemsUrl,
      api_name: 'ItemsApi',
      api_stage: 'prod',
      vendor_region: 'us-east-1',
      orders: { api_id: expect.stringMatching(/^OrdersApi[0-9A-F]{8}$/), api_endpoint: ordersUrl, api_name: 'OrdersApi', api_stage: 'dev', vendor_region: 'us-east-1' },
      uploads_bucket: pendingMarker(bucketEntry),
    });
    // A frontend reading the file reaches the local API.
    const response = await fetch(`${document.custom.api_endpoint}items`);
    expect(await response.json()).toBe('ItemsApi items');
    const orders = await fetch(`${document.custom.orders.api_endpoint}items`);
    expect(await orders.json()).toBe('OrdersApi items');
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
});

test('serve does not load aws-cdk-lib', async () => {
  const cli = startCli(['serve', '--app', assembly, '--port', '0', '--quiet'], { NODE_DEBUG: 'module' });
  await cli.waitFor('Press Ctrl+C to stop.');
  cli.child.kill('SIGTERM');
  await cli.exited;
  expect(cli.stderr()).not.toMatch(/aws-cdk-lib|@aws-amplify/);
  // The module log covers the server's own modules (the compiled CLI's lib/cli/local/server/server.js).
  expect(cli.stderr()).toMatch(/local[/\\]server[/\\]server\.js/);
});

test.each([
  [['--port', 'abc'], 2, "vendor-outputs serve: --port must be an integer from 0 to 65535 (got 'abc')"],
  [['--port', '70000'], 2, "vendor-outputs serve: --port must be an integer from 0 to 65535 (got '70000')"],
  [['--credentials', 'nocolon'], 2, 'vendor-outputs serve: --credentials must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)'],
  [['--bogus'], 2, "vendor-outputs serve: Unknown option '--bogus'"],
  [['--host', ''], 2, "vendor-outputs serve: --host must be an address or name to listen on, e.g. 127.0.0.1 or ::1 (got '')"],
  [['--port', '65535'], 2, 'vendor-outputs serve: --port 65535 leaves no room for 2 APIs (each takes the next port, up to 65536); pass --port 65534 or lower, or 0 for free ports'],
  [['--port', '0', '--host', '999.1.1.1'], 2, 'vendor-outputs serve: --host 999.1.1.1 is not an IPv4 address (four numbers from 0 to 255, e.g. 127.0.0.1)'],
  [['--port', '0', '--host', '::g'], 2, 'vendor-outputs serve: --host ::g is not an IPv6 address (e.g. ::1)'],
  [['--port', '0', '--host', '203.0.113.9'], 1, 'vendor-outputs serve: --host 203.0.113.9: no network interface of this machine has that address; pass an address of this machine, e.g. 127.0.0.1'],
  [['--port', '0', '--write-outputs', '/sys'], 1, 'vendor-outputs serve: --write-outputs: cannot write /sys/vendor_outputs.json: the directory is not writable (EACCES)'],
])('error %j: exit %i, one line, no stack trace', async (args, code, message) => {
  const run = await runCli(['serve', '--app', assembly, ...args]);
  expect(run.code).toBe(code);
  const lines = run.stderr.split('\n').filter((l) => l !== '' && !l.includes('warning:'));
  expect(lines[0]).toBe(message);
  expect(lines.slice(1).every((l) => l.startsWith("Run 'vendor-outputs serve --help'"))).toBe(true);
  expect(run.stderr).not.toMatch(/\n\s+at /);
});

test('a malformed VENDOR_OUTPUTS_CREDENTIALS is a usage error naming the variable', async () => {
  const run = await runCli(['serve', '--app', assembly, '--port', '0'], { env: { VENDOR_OUTPUTS_CREDENTIALS: 'no-colon-here' } });
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n')[0]).toBe('vendor-outputs serve: the environment variable VENDOR_OUTPUTS_CREDENTIALS must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)');
  expect(run.stderr).not.toContain('no-colon-here');
});

test.each(['0.0.0.0', '::'])('--host %s warns that the API and its functions are reachable from the network', async (host) => {
  const cli = startCli(['serve', '--app', assembly, '--port', '0', '--host', host, '--quiet']);
  try {
    await cli.waitFor('Press Ctrl+C to stop.');
    expect(cli.stderr()).toContain(`vendor-outputs serve: warning: --host ${host} is reachable from the network: other machines can call the API, and through it its functions, which run with this shell's AWS credentials and environment\n`);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
});

test('an IPv6 host is bracketed in the URLs and in --write-outputs, and answers', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-write-outputs-v6-'));
  const cli = startCli(['serve', '--app', assembly, '--port', '0', '--host', '::1', '--write-outputs', dir, '--quiet']);
  try {
    await cli.waitFor('Press Ctrl+C to stop.');
    const itemsUrl = /ItemsApi \(CliTest\/ItemsApi[0-9A-F]{8}\) at (http:\/\/\[::1\]:\d+\/prod\/)/.exec(cli.stdout())![1];
    expect((await fetch(`${itemsUrl}items`)).status).toBe(200);
    const document = JSON.parse(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8'));
    expect(document.custom.api_endpoint).toBe(itemsUrl);
    expect(cli.stderr()).not.toContain('reachable from the network');
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
});

test('a missing assembly is exit 1 with a clear message', async () => {
  const run = await runCli(['serve', '--app', '/nonexistent/cdk.out']);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe("vendor-outputs serve: /nonexistent/cdk.out: no cloud assembly here (manifest.json is missing); run 'cdk synth' first or pass --app DIR\n");
});

test('an unknown --stack is exit 1 naming the stacks', async () => {
  const run = await runCli(['serve', '--app', assembly, '--stack', 'Nope']);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(`vendor-outputs serve: no stack 'Nope' in ${assembly}; stacks: CliTest\n`);
});

test('a port in use is exit 1 with a clear message', async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const run = await runCli(['serve', '--app', assembly, '--port', String(port)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`vendor-outputs serve: port ${port} on 127.0.0.1 is in use; pass --port with a free port (or 0 for any)`);
  } finally {
    blocker.close();
  }
});

test('--help shows usage and an example', async () => {
  const run = await runCli(['serve', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Usage: vendor-outputs serve [--app DIR]');
  expect(run.stdout).toContain('Example:\n  npx cdk synth && vendor-outputs serve --write-outputs ../frontend/src');
});
