/**
 * The function's environment under the real `vendor-outputs serve` and `test-invoke`: what the
 * Lambda runtime defines, the shell's credentials and endpoints, `--env-vars` over the template,
 * the AWS SDK the runtime provides (from the app's node_modules), and the start-up warnings for
 * runtimes and missing SDK packages.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { runCli } from '../support/cli';
import { CliProcess, curl, FIXTURES, parseCurlResponse, startCli, synth } from './local/support';

const HOST_MAJOR = Number(process.versions.node.split('.')[0]);
const HOST_RUNTIME = new lambda.Runtime(`nodejs${HOST_MAJOR}.x`, lambda.RuntimeFamily.NODEJS, { supportsInlineCode: true });
const OTHER_MAJOR = HOST_MAJOR === 22 ? 20 : 22;
const OTHER_RUNTIME = new lambda.Runtime(`nodejs${OTHER_MAJOR}.x`, lambda.RuntimeFamily.NODEJS, { supportsInlineCode: true });

const ECHO_ENV = [
  'exports.handler = async () => ({ statusCode: 200, body: JSON.stringify({',
  '  env: process.env, offset: new Date(0).getTimezoneOffset(), node: process.version,',
  '}) });',
].join('\n');

let assembly: string;
let work: string;

function writeJson(name: string, value: unknown): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-env-test-'));
  assembly = synth((stack) => {
    const api = new apigw.RestApi(stack, 'ItemsApi', { deployOptions: { stageName: 'dev' } });
    const envFn = new lambda.Function(stack, 'EnvFn', {
      runtime: HOST_RUNTIME,
      handler: 'index.handler',
      code: lambda.Code.fromInline(ECHO_ENV),
      memorySize: 256,
      environment: { TABLE: 'template-table', KEEP: 'kept', STAGE: 'template-stage' },
    });
    api.root.addResource('env').addMethod('GET', new apigw.LambdaIntegration(envFn));
    const other = new lambda.Function(stack, 'OtherFn', {
      runtime: OTHER_RUNTIME,
      handler: 'index.handler',
      code: lambda.Code.fromInline(ECHO_ENV),
    });
    api.root.addResource('other').addMethod('GET', new apigw.LambdaIntegration(other));
    const reserved = new lambda.Function(stack, 'ReservedFn', {
      runtime: HOST_RUNTIME,
      handler: 'index.handler',
      code: lambda.Code.fromInline(ECHO_ENV),
      environment: { KEEP: 'kept' },
    });
    // aws-cdk-lib refuses reserved names itself; a template may still carry them (an escape hatch, another tool).
    const cfn = reserved.node.defaultChild as lambda.CfnFunction;
    cfn.addPropertyOverride('Environment.Variables.AWS_ACCESS_KEY_ID', 'template-key');
    cfn.addPropertyOverride('Environment.Variables.AWS_REGION', 'template-region');
    api.root.addResource('reserved').addMethod('GET', new apigw.LambdaIntegration(reserved));
    const sdk = new lambda.Function(stack, 'SdkFn', {
      runtime: HOST_RUNTIME,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(path.join(FIXTURES, 'sdk-present')),
    });
    api.root.addResource('sdk').addMethod('GET', new apigw.LambdaIntegration(sdk));
    const missing = new lambda.Function(stack, 'MissingFn', {
      runtime: HOST_RUNTIME,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(path.join(FIXTURES, 'sdk-missing')),
    });
    api.root.addResource('missing').addMethod('GET', new apigw.LambdaIntegration(missing));
    const ruby = new lambda.Function(stack, 'RubyFn', {
      runtime: lambda.Runtime.RUBY_3_3,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(path.join(FIXTURES, 'ruby')),
    });
    api.root.addResource('rb').addMethod('GET', new apigw.LambdaIntegration(ruby));
  }, { stackName: 'EnvStack', env: { account: '111111111111', region: 'eu-west-3' } });
});

afterAll(() => {
  fs.rmSync(assembly, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

describe('serve: the function environment', () => {
  let cli: CliProcess;
  let base: string;

  beforeAll(async () => {
    const envVars = writeJson('env.json', {
      'Parameters': { STAGE: 'local', TABLE: 'param-table' },
      'EnvStack/EnvFn': { TABLE: 'fn-table', COUNT: 3, FLAG: true },
      'NotAFunction': { X: 'y' },
    });
    cli = startCli(['serve', '--app', assembly, '--port', '0', '--env-vars', envVars], {
      AWS_ACCESS_KEY_ID: 'AKIDLOCALTEST',
      AWS_SECRET_ACCESS_KEY: 'local-secret',
      AWS_SESSION_TOKEN: 'local-token',
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000',
      TZ: 'America/New_York',
    });
    const out = await cli.waitFor('Press Ctrl+C');
    base = /at (http:\/\/127\.0\.0\.1:\d+\/dev\/)/.exec(out)![1];
  }, 60_000);

  afterAll(async () => {
    cli.child.kill('SIGTERM');
    await cli.exited;
  });

  test('the runtime-defined variables, the shell credentials and endpoints, --env-vars over the template', async () => {
    const response = parseCurlResponse((await curl(['-i', `${base}env`])).stdout);
    expect(response.status).toBe(200);
    const { env, offset } = JSON.parse(response.body);
    expect(env).toMatchObject({
      AWS_REGION: 'eu-west-3',
      AWS_DEFAULT_REGION: 'eu-west-3',
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      AWS_EXECUTION_ENV: `AWS_Lambda_nodejs${HOST_MAJOR}.x`,
      _HANDLER: 'index.handler',
      TZ: ':UTC',
      AWS_ACCESS_KEY_ID: 'AKIDLOCALTEST',
      AWS_SECRET_ACCESS_KEY: 'local-secret',
      AWS_SESSION_TOKEN: 'local-token',
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000',
      // The function's object over Parameters over the template; numbers and booleans as text.
      TABLE: 'fn-table',
      STAGE: 'local',
      KEEP: 'kept',
      COUNT: '3',
      FLAG: 'true',
    });
    expect(env.AWS_LAMBDA_FUNCTION_NAME).toMatch(/^EnvStack-EnvFn/);
    expect(env.AWS_LAMBDA_LOG_GROUP_NAME).toBe(`/aws/lambda/${env.AWS_LAMBDA_FUNCTION_NAME}`);
    expect(env.AWS_LAMBDA_LOG_STREAM_NAME).toMatch(/^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
    expect(fs.existsSync(env.LAMBDA_TASK_ROOT)).toBe(true);
    expect(fs.existsSync(env.LAMBDA_RUNTIME_DIR)).toBe(true);
    expect(env.NODE_PATH.split(path.delimiter)[0]).toBe(path.join(__dirname, '..', '..', 'node_modules'));
    // TZ=:UTC reaches the clock, whatever the shell's zone.
    expect(offset).toBe(0);
  });

  test('Parameters reach every function; the per-function object only its own', async () => {
    const { env } = JSON.parse(parseCurlResponse((await curl(['-i', `${base}other`])).stdout).body);
    expect(env.STAGE).toBe('local');
    expect(env.TABLE).toBe('param-table');
    expect(env.COUNT).toBeUndefined();
  });

  test('an --env-vars object naming no function is a warning', () => {
    expect(cli.stderr()).toContain(`vendor-outputs serve: warning: --env-vars ${path.join(work, 'env.json')}: /NotAFunction names no function of the app (use a logical id or a construct path such as Stack/Api/Handler); ignored\n`);
  });

  test('an AWS SDK package resolves from the app folder node_modules (NODE_PATH)', async () => {
    const response = parseCurlResponse((await curl(['-i', `${base}sdk`])).stdout);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ client: 'function' });
    expect(cli.stdout()).toMatch(/GET\s+http:\/\/127\.0\.0\.1:\d+\/dev\/sdk\s+-> EnvStack\/SdkFn  \[NONE\]\n/);
  });

  test('a missing AWS SDK package: one start-up warning with the install command, the route marked, 502 as an init failure', async () => {
    const nodeModules = path.join(__dirname, '..', '..', 'node_modules');
    expect(cli.stderr()).toContain(`vendor-outputs serve: warning: EnvStack/MissingFn: imports @aws-sdk/client-not-there, which the Lambda runtime provides but ${nodeModules} does not hold; their requests fail at init (502) until you run in ${path.dirname(nodeModules)}: npm install --save-dev @aws-sdk/client-not-there\n`);
    expect(cli.stdout()).toMatch(/GET\s+http:\/\/127\.0\.0\.1:\d+\/dev\/missing\s+-> EnvStack\/MissingFn \(missing @aws-sdk\/client-not-there\)  \[NONE\]\n/);
    const response = parseCurlResponse((await curl(['-i', `${base}missing`])).stdout);
    expect(response.status).toBe(502);
    expect(JSON.parse(response.body)).toEqual({ message: 'Internal server error' });
  });

  test('a Node.js runtime other than the host major runs on its own Node.js major (fetched once into the cache), with no warning', async () => {
    const other = `nodejs${OTHER_MAJOR}.x`;
    expect(cli.stderr()).not.toContain('EnvStack/OtherFn');
    expect(cli.stdout()).toMatch(/GET\s+http:\/\/127\.0\.0\.1:\d+\/dev\/other\s+-> EnvStack\/OtherFn  \[NONE\]\n/);
    const { env, node } = JSON.parse(parseCurlResponse((await curl(['-i', `${base}other`])).stdout).body);
    expect(env.AWS_EXECUTION_ENV).toBe(`AWS_Lambda_${other}`);
    expect(node).toMatch(new RegExp(`^v${OTHER_MAJOR}\\.`));
    const own = JSON.parse(parseCurlResponse((await curl(['-i', `${base}env`])).stdout).body);
    expect(own.node).toBe(process.version);
  });

  test('reserved names in the template: a start-up warning, and the runtime and shell values stay', async () => {
    expect(cli.stderr()).toContain('vendor-outputs serve: warning: EnvStack/ReservedFn: Environment.Variables sets AWS_ACCESS_KEY_ID, AWS_REGION, reserved by the Lambda runtime (Lambda refuses the function at deploy); ignored here\n');
    const { env } = JSON.parse(parseCurlResponse((await curl(['-i', `${base}reserved`])).stdout).body);
    expect(env.AWS_REGION).toBe('eu-west-3');
    expect(env.AWS_ACCESS_KEY_ID).toBe('AKIDLOCALTEST');
  });

  test('a runtime no family runs is listed as not runnable with the reason', () => {
    expect(cli.stdout()).toMatch(/GET\s+http:\/\/127\.0\.0\.1:\d+\/dev\/rb\s+-> EnvStack\/RubyFn \(not runnable: runtime ruby3\.3 is not run locally \(only nodejs, python runtimes are\)\)  \[NONE\]\n/);
  });
});

describe('--env-vars files that cannot be used', () => {
  const cases: Array<[string, unknown, string]> = [
    ['not JSON', '{"Parameters": ', 'not valid JSON ('],
    ['not an object', '[1, 2]', 'the file must hold one JSON object: {"Parameters": {"NAME": "value"}, "<function logical id or construct path>": {"NAME": "value"}}'],
    ['a function entry that is not an object', { EnvFn: 'x' }, '/EnvFn must be an object of NAME: "value" (got "x")'],
    ['a value that is an array', { 'Parameters': { A: 'ok' }, 'EnvStack/EnvFn': { LIST: [1] } }, '/EnvStack~1EnvFn/LIST must be a string, number or boolean (got an array)'],
    ['a null value', { Parameters: { NOTHING: null } }, '/Parameters/NOTHING must be a string, number or boolean (got null)'],
    ['a reserved variable', { Parameters: { AWS_REGION: 'us-west-2' } }, '/Parameters/AWS_REGION: AWS_REGION is reserved by the Lambda runtime and cannot be set'],
    ['a bad variable name', { EnvFn: { '1X': 'a' } }, '/EnvFn/1X is not a variable name (letters, digits and _, not starting with a digit)'],
  ];
  test.each(cases)('%s: exit 2 and one line naming the file and the JSON pointer', async (_name, content, message) => {
    const file = writeJson(`bad-${_name.replace(/\W/g, '-')}.json`, typeof content === 'string' ? content : JSON.stringify(content));
    const run = await runCli(['serve', '--app', assembly, '--port', '0', '--env-vars', file]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toContain(`vendor-outputs serve: --env-vars ${file}: ${message}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  test('a file that does not exist', async () => {
    const file = path.join(work, 'absent.json');
    const run = await runCli(['test-invoke', '--app', assembly, '--method', 'GET', '--path', '/env', '--env-vars', file]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`vendor-outputs test-invoke: --env-vars ${file}: cannot read the file (ENOENT)`);
  }, 30_000);
});

test('test-invoke --env-vars: the logical id selects the function', async () => {
  const template = JSON.parse(fs.readFileSync(path.join(assembly, 'EnvStack.template.json'), 'utf8'));
  const logicalId = Object.keys(template.Resources).find((id) => id.startsWith('EnvFn') && template.Resources[id].Type === 'AWS::Lambda::Function')!;
  const file = writeJson('by-id.json', { [logicalId]: { TABLE: 'by-logical-id' } });
  const run = await runCli(['test-invoke', '--app', assembly, '--method', 'GET', '--path', '/env', '--env-vars', file, '--json']);
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.status).toBe(200);
  const { env } = JSON.parse(result.body);
  expect(env.TABLE).toBe('by-logical-id');
  expect(env.KEEP).toBe('kept');
}, 60_000);

test("test-invoke --node host: a function of another Node.js major runs on this machine's Node.js, with the warning and why", async () => {
  const run = await runCli(['test-invoke', '--app', assembly, '--method', 'GET', '--path', '/other', '--node', 'host', '--json']);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(`vendor-outputs test-invoke: warning: EnvStack/OtherFn: runtime nodejs${OTHER_MAJOR}.x runs on this machine's Node.js ${process.version} (--node host); what differs between Node.js ${OTHER_MAJOR} and ${HOST_MAJOR} differs here\n`);
  expect(JSON.parse(JSON.parse(run.stdout).body).node).toBe(process.version);
});

test('--node takes runtime or host; anything else is a usage error (exit 2)', async () => {
  const run = await runCli(['test-invoke', '--app', assembly, '--method', 'GET', '--path', '/other', '--node', '22']);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe("vendor-outputs test-invoke: --node must be 'runtime' (each function on the Node.js major its runtime names) or 'host' (every function on this machine's Node.js) (got '22')\nRun 'vendor-outputs test-invoke --help' for usage.\n");
});
