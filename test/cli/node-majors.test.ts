/**
 * The compiled CLI on Node.js 22 and 24 (Node.js 20, this machine's, runs it in every other test):
 * each command's main journey on Node.js's official build of that major, with its real output.
 * The builds come from the npm registry into the CLI's own cache (../support/node-majors.ts):
 * without the registry these tests fail, saying so.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnParameter, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { VendorOutputs } from '../../src';
import { ROOT, runCli } from '../support/cli';
import { evaluateOutputs, fakeAwsEnv, FakeCloudFormation } from '../support/fake-cloudformation';
import { NodeExecutable, nodeOfMajor } from '../support/node-majors';
import { startCli, synth } from './local/support';
import { CONTENT, git, GIT_ENV, removeTemps, repository, tempDir, waitForFile } from './stage-repository';

/** The majors tested here; Lambda's `nodejs22.x` and `nodejs24.x`. */
const MAJORS = [22, 24];
/** The served function's runtime is `nodejs22.x`: on Node.js 22 it runs on the CLI's own Node.js, on 24 on another, from the cache. */
const FUNCTION_MAJOR = 22;

/** 1,000 upper-cased copies of the request's 5 MB string: past the 512 MB heap of the process that evaluates templates. */
const HEAVY_TEMPLATE = "#set($s = $input.path('$.s'))#set($l = [])#foreach($i in [1..1000])#set($d = $l.add($s.toUpperCase()))#end{\"statusCode\": 200}";

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

let tmp: string;
let served: string;
let backend: any;
const cloudFormation = new FakeCloudFormation();
let endpoint: string;
const nodes = new Map<number, NodeExecutable>();

beforeAll(async () => {
  // Fetched before anything else, so a first download is not counted in a command's time.
  for (const major of MAJORS) {
    nodes.set(major, nodeOfMajor(major));
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-node-majors-'));
  served = synth((stack) => {
    const fn = new lambda.Function(stack, 'ItemsFn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline([
        "exports.handler = async (event) => { console.log('listing items');",
        'return { statusCode: 200, body: JSON.stringify({ path: event.path, limit: event.queryStringParameters.limit, node: process.version }) }; };',
      ].join('\n')),
    });
    const api = new apigw.RestApi(stack, 'ItemsApi', { restApiName: 'ItemsApi', deployOptions: { stageName: 'prod' } });
    api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn));
    // A response template that fills its template host's heap: V8's report of it differs by major.
    api.root.addResource('heavy').addMethod('POST', new apigw.MockIntegration({
      requestTemplates: { 'application/json': HEAVY_TEMPLATE },
      integrationResponses: [{ statusCode: '200' }],
    }), { methodResponses: [{ statusCode: '200' }] });
  }, { stackName: 'Majors' });
  backend = backendTemplate(path.join(tmp, 'backend.out'));
  endpoint = await cloudFormation.start();
  cloudFormation.stacks = [{
    name: 'Backend',
    template: backend,
    outputs: evaluateOutputs(backend, { 'AWS::Region': 'eu-west-1', [bucketId(backend)]: 'backend-files-1a2b', 'Note': 'from the stack' }),
  }];
}, 600_000);

afterAll(async () => {
  await cloudFormation.stop();
  for (const dir of [tmp, served]) {
    if (dir !== undefined) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  removeTemps();
});

/** A library stack with a bucket and a parameter, as `generate --stack` reads it back. */
function backendTemplate(outdir: string): any {
  const app = new App({ outdir });
  const stack = new Stack(app, 'Backend');
  const bucket = new s3.Bucket(stack, 'Files');
  const note = new CfnParameter(stack, 'Note', { type: 'String' });
  VendorOutputs.of(stack).addOutput({
    storage: { vendorRegion: stack.region, bucketName: bucket.bucketName },
    custom: { note: note.valueAsString },
  });
  return app.synth().getStackByName('Backend').template;
}

function bucketId(template: any): string {
  return Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
}

/** The executable a running process was started from (Linux). */
function executableOf(pid: number): string {
  return fs.readlinkSync(`/proc/${pid}/exe`);
}

/** Fails on any warning Node.js printed (`(node:PID) [DEP0040] DeprecationWarning: ...`). */
function expectNoNodeWarning(stderr: string): void {
  expect(stderr.split('\n').filter((line) => /^\(node:\d+\)/.test(line))).toEqual([]);
}

describe.each(MAJORS)('the CLI on Node.js %d', (major) => {
  const node = () => nodes.get(major)!.path;
  const cli = (args: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(args, { ...options, node: node() });

  test('the executable is Node.js of that major', () => {
    expect(nodes.get(major)!.version).toMatch(new RegExp(`^v${major}\\.\\d+\\.\\d+$`));
  });

  test('--version and --help', async () => {
    const version = await cli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expectNoNodeWarning(version.stderr);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['validate', 'generate', 'init', 'stage', 'serve', 'test-invoke']) {
      expect(help.stdout).toContain(`  ${name}`);
    }
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  test('generate --stack through the AWS SDK, then validate accepts the file and rejects a broken one', async () => {
    const dir = path.join(tmp, `generated-${major}`);
    cloudFormation.calls.length = 0;
    const run = await cli(['generate', '--stack', 'Backend', '--out-dir', dir], { env: fakeAwsEnv(endpoint, tmp) });
    expect(run.stderr).toContain('stack Backend: 3 deploy-time value(s) filled; sections: storage, custom');
    expect(run).toMatchObject({ code: 0, stdout: `${path.join(dir, 'vendor_outputs.json')}\n` });
    expectNoNodeWarning(run.stderr);
    expect(cloudFormation.calls.map((c) => c.action)).toEqual(['DescribeStacks', 'GetTemplateSummary']);
    const file = path.join(dir, 'vendor_outputs.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      $schema: 'https://cdk-vendor-outputs.example/schemas/2024-02/vendor_outputs.schema.json',
      version: '1',
      storage: { vendor_region: 'eu-west-1', bucket_name: 'backend-files-1a2b' },
      custom: { note: 'from the stack' },
    });

    expect(await cli(['validate', file])).toMatchObject({ code: 0, stdout: '', stderr: '1 file(s) valid\n' });
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, '{\n  "version": "1",\n  "storage": {\n    "bucket_name": "b"\n  }\n}\n');
    expect(await cli(['validate', broken])).toMatchObject({ code: 1, stdout: `${broken}:3:3: /storage/vendor_region: is required but missing\n` });
  });

  test(`serve answers through a nodejs${FUNCTION_MAJOR}.x function on Node.js ${FUNCTION_MAJOR}, survives a template out of memory, and stops cleanly on SIGTERM`, async () => {
    const server = startCli(['serve', '--app', served, '--port', '0'], {}, node());
    try {
      await server.waitFor('Press Ctrl+C to stop.');
      expect(executableOf(server.child.pid!)).toBe(fs.realpathSync(node()));
      const url = /ItemsApi \(Majors\/ItemsApi[0-9A-F]{8}\) at (http:\/\/127\.0\.0\.1:\d+\/prod\/)/.exec(server.stdout())![1];
      expect(server.stdout()).toMatch(new RegExp(`GET +${url.replace(/[.]/g, '\\.')}items +-> Majors/ItemsFn  \\[NONE\\]\\n`));
      const response = await fetch(`${url}items?limit=5`);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body).toEqual({ path: '/items', limit: '5', node: expect.stringMatching(new RegExp(`^v${FUNCTION_MAJOR}\\.`)) });
      await server.waitFor(`${response.headers.get('x-amzn-requestid')} INFO listing items`);
      // A template that runs out of memory fails alone, named as such; the server answers on.
      const heavy = await fetch(`${url}heavy`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ s: 'x'.repeat(5 * 1024 * 1024) }) });
      expect([heavy.status, await heavy.text()]).toEqual([500, '{"message":"Internal server error"}']);
      // The line may reach the test's pipe after the answer.
      const outOfMemory = 'request template: the template ran out of memory and its evaluation was stopped';
      expect(await server.waitFor(outOfMemory, 10_000)).toContain(outOfMemory);
      expect((await fetch(`${url}items?limit=1`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain('vendor-outputs serve: SIGTERM, stopping');
    // The function's Node.js was in the cache: not fetched again, no fallback to the CLI's own.
    expect(server.stderr()).not.toMatch(/Fetching Node\.js|could not be fetched/);
    expectNoNodeWarning(server.stderr());
  });

  test('test-invoke runs the method and prints status, body and the execution log', async () => {
    const run = await cli(['test-invoke', '--app', served, '--method', 'GET', '--path', '/items', '--query', 'limit=7']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Request: \/items\?limit=7\nStatus: 200\nLatency: \d+ ms\nResponse body:\n/);
    expect(JSON.parse(run.stdout.split('\n')[4])).toEqual({ path: '/items', limit: '7', node: expect.stringMatching(new RegExp(`^v${FUNCTION_MAJOR}\\.`)) });
    expect(run.stdout).toContain('Method completed with status: 200');
    expect(run.stderr).toMatch(/^[0-9a-f-]{36} INFO listing items\n/);
    expectNoNodeWarning(run.stderr);
  });

  test('init ignores the file in a git repository; stage stages it for a command and forwards SIGTERM to it', async () => {
    const dir = repository();
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
    const init = await cli(['init'], { cwd: dir, env: GIT_ENV });
    expect(init).toMatchObject({ code: 0, stdout: `Added vendor_outputs.json to ${dir}/.gitignore\n` });

    const staged = await cli(['stage', '--', 'git', 'diff', '--cached', '--name-only'], { cwd: dir, env: GIT_ENV });
    expect(staged).toMatchObject({ code: 0, stdout: 'vendor_outputs.json\n' });
    expect(staged.stderr).toContain('vendor-outputs stage: vendor_outputs.json unstaged (still on disk)');
    expectNoNodeWarning(staged.stderr);

    // SIGTERM to stage reaches the command while the file is staged; stage then unstages it and ends by that signal.
    const pidFile = path.join(tempDir(), 'stage.pid');
    const script = `trap 'echo got TERM; git diff --cached --name-only; exit 7' TERM; echo $PPID > '${pidFile}'; while :; do sleep 0.1; done`;
    const running = cli(['stage', '--', 'sh', '-c', script], { cwd: dir, env: GIT_ENV });
    const stagePid = Number(await waitForFile(pidFile));
    const executable = executableOf(stagePid);
    process.kill(stagePid, 'SIGTERM');
    expect(executable).toBe(fs.realpathSync(node()));
    const stopped = await running;
    expect(stopped).toMatchObject({ signal: 'SIGTERM', stdout: 'got TERM\nvendor_outputs.json\n' });
    expect(stopped.stderr).toContain('vendor_outputs.json unstaged (still on disk)');
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('');
    expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toBe(CONTENT);
  });
});
