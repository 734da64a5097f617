/**
 * `vendor-outputs generate --stack` and `--app-id/--branch`: the real AWS SDK v3 client talks to a
 * local CloudFormation stand-in that serves stacks synthesized in this test.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnParameter, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { BackendIdentity, VendorOutputs } from '../../src';
import { runCli } from '../support/cli';
import { evaluateOutputs, fakeAwsEnv, FakeCloudFormation, FakeStack } from '../support/fake-cloudformation';

const TRICKY = 'say "hi" \\ C:\\path\\ \n second line, with comma\ttab ✓';

let tmp: string;
let endpoint: string;
const fake = new FakeCloudFormation();
let backend: any;
let plain: any;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-stack-'));
  const app = new App({ outdir: path.join(tmp, 'cdk.out') });
  const stack = new Stack(app, 'Backend');
  const bucket = new s3.Bucket(stack, 'Files');
  const note = new CfnParameter(stack, 'Note', { type: 'String' });
  VendorOutputs.of(stack).addOutput({
    storage: { vendorRegion: stack.region, bucketName: bucket.bucketName },
    custom: { api_name: 'items', note: note.valueAsString, literal: 'fixed' },
  });
  BackendIdentity.tag(stack, { appId: 'd123', branch: 'main' });
  const other = new Stack(app, 'Plain');
  new s3.Bucket(other, 'Files');
  const assembly = app.synth();
  backend = assembly.getStackByName('Backend').template;
  plain = assembly.getStackByName('Plain').template;
  endpoint = await fake.start();
});

afterAll(async () => {
  await fake.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  fake.stacks = [];
  fake.errors = {};
  fake.calls.length = 0;
});

const BUCKET_REF = () => Object.keys(backend.Resources).find((id) => backend.Resources[id].Type === 'AWS::S3::Bucket')!;

function deployed(overrides: Partial<FakeStack> = {}, values: Record<string, string> = {}): FakeStack {
  return {
    name: 'Backend',
    template: backend,
    outputs: evaluateOutputs(backend, { 'AWS::Region': 'eu-west-1', [BUCKET_REF()]: 'backend-files-1a2b', 'Note': TRICKY, ...values }),
    tags: { 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': 'main' },
    ...overrides,
  };
}

function generate(args: string[], env: Record<string, string | undefined> = {}) {
  return runCli(['generate', ...args], {
    env: {
      ...fakeAwsEnv(endpoint, tmp),
      ...env,
    },
  });
}

function outDir(name: string): string {
  return path.join(tmp, name);
}

function readResult(dir: string): any {
  return JSON.parse(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8'));
}

test('--stack rebuilds the file from the deployed outputs and template Metadata', async () => {
  fake.stacks = [deployed()];
  const dir = outDir('stack-ok');
  const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
  expect(run.stderr).toContain('stack Backend: 3 deploy-time value(s) filled; sections: storage, custom');
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe(path.join(dir, 'vendor_outputs.json'));
  expect(readResult(dir)).toEqual({
    $schema: 'https://cdk-vendor-outputs.example/schemas/2024-02/vendor_outputs.schema.json',
    version: '1',
    storage: { vendor_region: 'eu-west-1', bucket_name: 'backend-files-1a2b' },
    custom: { api_name: 'items', note: TRICKY, literal: 'fixed' },
  });
  expect(fake.actions()).toEqual(['DescribeStacks', 'GetTemplateSummary']);
  expect(fake.calls[0].params.StackName).toBe('Backend');
});

test('a deployed value with quotes, backslashes and newlines comes back byte for byte as valid JSON', async () => {
  fake.stacks = [deployed()];
  const dir = outDir('stack-tricky');
  const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
  expect(run.code).toBe(0);
  const text = fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8');
  expect(text).toContain(JSON.stringify(TRICKY));
  expect(JSON.parse(text).custom.note).toBe(TRICKY);
  const validate = await runCli(['validate', path.join(dir, 'vendor_outputs.json')]);
  expect(validate.code).toBe(0);
});

test('the endpoint comes from AWS_ENDPOINT_URL too, and --region reaches the request signature', async () => {
  fake.stacks = [deployed()];
  const run = await generate(['--stack', 'Backend', '--region', 'eu-central-1', '--out-dir', outDir('stack-region')], {
    AWS_ENDPOINT_URL_CLOUDFORMATION: undefined,
    AWS_ENDPOINT_URL: endpoint,
  });
  expect(run.code).toBe(0);
  expect(fake.calls[0].authorization).toContain('/eu-central-1/cloudformation/aws4_request');
  expect(fake.calls[0].authorization).toContain('Credential=AKIDFAKE/');
});

test('--profile takes credentials and region from the shared AWS files', async () => {
  fake.stacks = [deployed()];
  const config = path.join(tmp, 'aws-config');
  const credentials = path.join(tmp, 'aws-credentials');
  fs.writeFileSync(config, '[profile dev]\nregion = ap-southeast-2\n');
  fs.writeFileSync(credentials, '[dev]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = profile-secret\n');
  const run = await generate(['--stack', 'Backend', '--profile', 'dev', '--out-dir', outDir('stack-profile')], {
    AWS_REGION: undefined,
    AWS_DEFAULT_REGION: undefined,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: credentials,
  });
  expect(run.stderr).not.toContain('error');
  expect(run.code).toBe(0);
  expect(fake.calls[0].authorization).toContain('Credential=AKIDPROFILE/');
  expect(fake.calls[0].authorization).toContain('/ap-southeast-2/cloudformation/aws4_request');
});

test('falls back to GetTemplate when GetTemplateSummary carries no Metadata', async () => {
  fake.stacks = [deployed({ summaryWithoutMetadata: true })];
  const dir = outDir('stack-get-template');
  const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
  expect(run.code).toBe(0);
  expect(fake.actions()).toEqual(['DescribeStacks', 'GetTemplateSummary', 'GetTemplate']);
  expect(readResult(dir).storage.bucket_name).toBe('backend-files-1a2b');
});

test('--app-id/--branch finds the tagged stack across DescribeStacks pages, skipping nested stacks', async () => {
  fake.pageSize = 2;
  fake.stacks = [
    { name: 'Unrelated', template: plain, outputs: {} },
    deployed({ name: 'Backend-dev', tags: { 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': 'dev' } }),
    { name: 'Other-app', template: plain, outputs: {}, tags: { 'vendor-outputs:app-id': 'zzz', 'vendor-outputs:branch': 'main' } },
    deployed({ name: 'Backend-main-Nested', rootId: 'arn:root' }, { [BUCKET_REF()]: 'nested-bucket' }),
    deployed({ name: 'Backend-main' }, { [BUCKET_REF()]: 'main-bucket' }),
  ];
  const dir = outDir('identity-ok');
  const run = await generate(['--app-id', 'd123', '--branch', 'main', '--out-dir', dir]);
  expect(run.stderr).toContain('stack Backend-main:');
  expect(run.code).toBe(0);
  expect(readResult(dir).storage.bucket_name).toBe('main-bucket');
  expect(fake.actions()).toEqual(['DescribeStacks', 'DescribeStacks', 'DescribeStacks', 'GetTemplateSummary']);
  expect(fake.calls[1].params.NextToken).toBe('2');
});

test('--app-id/--branch with no tagged stack names the stacks of that app', async () => {
  fake.stacks = [deployed({ name: 'Backend-dev', tags: { 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': 'dev' } })];
  const run = await generate(['--app-id', 'd123', '--branch', 'main', '--out-dir', outDir('identity-none')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('no stack in region us-east-1 has tags vendor-outputs:app-id=d123 and vendor-outputs:branch=main; stacks of app d123: Backend-dev (branch dev)');
  expect(fs.existsSync(outDir('identity-none'))).toBe(false);
});

test('--app-id/--branch matching several stacks is an error listing them', async () => {
  fake.stacks = [deployed({ name: 'Backend-a' }), deployed({ name: 'Backend-b' })];
  const run = await generate(['--app-id', 'd123', '--branch', 'main', '--out-dir', outDir('identity-many')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('2 stacks in region us-east-1 have tags vendor-outputs:app-id=d123 and vendor-outputs:branch=main: Backend-a, Backend-b; pick one with --stack NAME');
});

test('a stack that does not exist: clear error from the ValidationError response, nothing written', async () => {
  const dir = outDir('not-found');
  const run = await generate(['--stack', 'Missing', '--out-dir', dir]);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('vendor-outputs generate: stack Missing not found in region us-east-1 (check the name, --region and --profile)\n');
  expect(fs.existsSync(dir)).toBe(false);
});

test.each([
  ['UPDATE_IN_PROGRESS', /stack Backend is UPDATE_IN_PROGRESS: its outputs may still change; wait for the deployment to finish/],
  ['CREATE_IN_PROGRESS', /stack Backend is CREATE_IN_PROGRESS: its outputs may still change/],
  ['REVIEW_IN_PROGRESS', /stack Backend is REVIEW_IN_PROGRESS: its outputs may still change/],
  ['UPDATE_ROLLBACK_IN_PROGRESS', /is UPDATE_ROLLBACK_IN_PROGRESS: its outputs may still change/],
  ['CREATE_FAILED', /stack Backend is CREATE_FAILED: the deployment failed; fix it and deploy again/],
  ['UPDATE_ROLLBACK_FAILED', /is UPDATE_ROLLBACK_FAILED: the deployment failed/],
  ['ROLLBACK_COMPLETE', /stack Backend is ROLLBACK_COMPLETE: the deployment failed/],
])('a stack in %s is refused and nothing is written', async (status, message) => {
  fake.stacks = [deployed({ status })];
  const dir = outDir(`status-${status}`);
  const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(fs.existsSync(dir)).toBe(false);
});

test('UPDATE_ROLLBACK_COMPLETE is read, with a warning that the file is the previous deployment', async () => {
  fake.stacks = [deployed({ status: 'UPDATE_ROLLBACK_COMPLETE' })];
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('rolled-back')]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('warning: stack Backend is UPDATE_ROLLBACK_COMPLETE: its last change was rolled back, so the file describes the previous successful deployment');
});

test('a stack without the Metadata was not built with this library', async () => {
  fake.stacks = [{ name: 'Plain', template: plain, outputs: {} }];
  const run = await generate(['--stack', 'Plain', '--out-dir', outDir('plain')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("stack Plain has no 'cdk-vendor-outputs/v1' template Metadata: it was not synthesized with cdk-vendor-outputs");
  expect(fake.actions()).toEqual(['DescribeStacks', 'GetTemplateSummary', 'GetTemplate']);
});

test('a missing output names the output and the pointers it carries', async () => {
  fake.stacks = [deployed({ outputs: {} })];
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('missing-output')]);
  expect(run.code).toBe(1);
  const output = Object.keys(backend.Outputs)[0];
  expect(run.stderr).toContain(`stack Backend is missing output(s) ${output}, needed for /storage/vendor_region, /storage/bucket_name, /custom/note`);
});

test('an output with too few values names the pointer', async () => {
  const output = Object.keys(backend.Outputs)[0];
  fake.stacks = [deployed({ outputs: { [output]: Buffer.from('eu-west-1').toString('base64') } })];
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('short-output')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`stack Backend: output ${output} carries 1 value(s) but /storage/bucket_name needs value 1`);
});

test('an invalid rebuilt document lists pointer: message and writes nothing', async () => {
  const tampered = JSON.parse(JSON.stringify(backend));
  const carried = tampered.Metadata['cdk-vendor-outputs/v1'];
  carried.document.version = '2';
  carried.document.storage.bucket_url = 'https://example';
  fake.stacks = [deployed({ template: tampered })];
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('invalid')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('stack Backend: the rebuilt vendor_outputs.json is invalid (nothing written):');
  expect(run.stderr).toContain('/version: must be "1" (got "2")');
  expect(run.stderr).toContain('/storage/bucket_url: is not allowed here; allowed keys: vendor_region, bucket_name');
});

test('malformed carried Metadata is reported as such', async () => {
  const tampered = JSON.parse(JSON.stringify(backend));
  tampered.Metadata['cdk-vendor-outputs/v1'].pending[0].index = 'zero';
  fake.stacks = [deployed({ template: tampered })];
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('malformed')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("stack Backend: template Metadata 'cdk-vendor-outputs/v1' is malformed: pending[0] must be");
});

test('an AWS error (access denied) is reported without a stack trace', async () => {
  fake.stacks = [deployed()];
  fake.errors = { DescribeStacks: { code: 'AccessDenied', message: 'User: arn:aws:iam::123:user/x is not authorized to perform: cloudformation:DescribeStacks', status: 403 } };
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('denied')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('vendor-outputs generate: cannot call CloudFormation DescribeStacks: AccessDenied: User: arn:aws:iam::123:user/x is not authorized to perform: cloudformation:DescribeStacks\n');
});

test('no region anywhere is a clear error', async () => {
  const run = await generate(['--stack', 'Backend'], { AWS_REGION: undefined, AWS_DEFAULT_REGION: undefined });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('no AWS region: pass --region REGION or set AWS_REGION');
});

test('an existing good file is left untouched (bytes and mtime) when generate fails', async () => {
  const dir = outDir('keep');
  fs.mkdirSync(dir);
  const file = path.join(dir, 'vendor_outputs.json');
  fs.writeFileSync(file, '{"version":"1"}\n');
  const past = new Date('2024-01-01T00:00:00Z');
  fs.utimesSync(file, past, past);
  const before = fs.statSync(file);
  for (const stack of [deployed({ status: 'UPDATE_IN_PROGRESS' }), deployed({ outputs: {} })]) {
    fake.stacks = [stack];
    const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
    expect(run.code).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":"1"}\n');
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(fs.readdirSync(dir)).toEqual(['vendor_outputs.json']);
  }
});

test('generate --stack does not load aws-cdk-lib', async () => {
  fake.stacks = [deployed()];
  const run = await generate(['--stack', 'Backend', '--out-dir', outDir('no-cdk')], { NODE_DEBUG: 'module' });
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/client-cloudformation/);
  expect(run.stderr).not.toMatch(/aws-cdk-lib/);
});

describe('what the deployed stack says is checked before anything is written', () => {
  const OUTPUT = () => Object.keys(backend.Outputs).find((k) => k.startsWith('VendorOutputsCollectorValues'))!;

  /** A folder with a good vendor_outputs.json from an earlier run. */
  function withGoodFile(name: string): { dir: string; file: string; before: fs.Stats } {
    const dir = outDir(name);
    fs.mkdirSync(dir);
    const file = path.join(dir, 'vendor_outputs.json');
    fs.writeFileSync(file, '{"version":"1"}\n');
    const past = new Date('2024-01-01T00:00:00Z');
    fs.utimesSync(file, past, past);
    return { dir, file, before: fs.statSync(file) };
  }

  function expectUntouched(good: { dir: string; file: string; before: fs.Stats }): void {
    expect(fs.readFileSync(good.file, 'utf8')).toBe('{"version":"1"}\n');
    expect(fs.statSync(good.file).mtimeMs).toBe(good.before.mtimeMs);
    expect(fs.readdirSync(good.dir)).toEqual(['vendor_outputs.json']);
  }

  test.each([
    ['a raw value pasted into the output', () => 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/',
      'value 0: "https://abc.execute-api.eu-west-1.amazon..." is not Base64'],
    ['garbage that happens to be Base64', () => 'garbage+',
      'value 0: "garbage+" decodes to bytes that are not UTF-8 text'],
  ])('%s is refused and the good file stays (exit 1)', async (_, value, reason) => {
    fake.stacks = [deployed({ outputs: { ...deployed().outputs, [OUTPUT()]: value() } })];
    const good = withGoodFile(`garbage-${value().length}`);
    const run = await generate(['--stack', 'Backend', '--out-dir', good.dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`vendor-outputs generate: stack Backend: output ${OUTPUT()} (for /storage/vendor_region) is not what cdk-vendor-outputs deploys `
      + `(up to 8 comma-separated Base64 values of UTF-8 text): ${reason}; was the output changed after deploy? Deploy the stack again\n`);
    expectUntouched(good);
  });

  test.each([
    ['a pending pointer through __proto__', (c: any) => { c.pending[0].pointer = '/__proto__/polluted'; },
      'pending[0].pointer "/__proto__/polluted" does not lead to a pending value (null) of the document: / has no key "__proto__"'],
    ['a pending pointer through constructor', (c: any) => { c.pending[1].pointer = '/storage/constructor/prototype/x'; },
      'pending[1].pointer "/storage/constructor/prototype/x" does not lead to a pending value (null) of the document: /storage has no key "constructor"'],
    ['document: null', (c: any) => { c.document = null; }, 'document must be an object (got null)'],
    ['pending: null', (c: any) => { c.pending = null; }, 'pending must be a list (got null)'],
    ['a pointer to a literal value', (c: any) => { c.pending[0].pointer = '/version'; },
      'pending[0].pointer "/version" does not lead to a pending value (null) of the document: it holds "1"'],
  ])('crafted Metadata with %s is one clear line, exit 1, nothing written', async (_, tamper, message) => {
    const template = JSON.parse(JSON.stringify(backend));
    tamper(template.Metadata['cdk-vendor-outputs/v1']);
    fake.stacks = [deployed({ template })];
    const good = withGoodFile(`crafted-${message.length}`);
    const run = await generate(['--stack', 'Backend', '--out-dir', good.dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`vendor-outputs generate: stack Backend: template Metadata 'cdk-vendor-outputs/v1' is malformed: ${message}\n`);
    expectUntouched(good);
  });
});

/** Permission bits as `ls` shows them in octal: `600`, `644`. */
function permissions(file: string): string {
  return fs.statSync(file).mode.toString(8).slice(-3);
}

describe('replacing an existing file', () => {
  test('keeps its mode: a 0600 file stays readable by its owner only', async () => {
    fake.stacks = [deployed()];
    const dir = outDir('mode');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'vendor_outputs.json');
    fs.writeFileSync(file, '{"version":"1"}\n', { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
    expect(run.code).toBe(0);
    expect(readResult(dir).storage.bucket_name).toBe('backend-files-1a2b');
    expect(permissions(file)).toBe('600');
  });

  test('a new file gets the mode of any new file (0666 less the umask)', async () => {
    fake.stacks = [deployed()];
    const dir = outDir('mode-new');
    const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
    expect(run.code).toBe(0);
    const reference = path.join(tmp, 'reference-mode');
    fs.writeFileSync(reference, '');
    expect(permissions(path.join(dir, 'vendor_outputs.json'))).toBe(permissions(reference));
  });

  test('a symbolic link keeps pointing where it did, and its target gets the new content', async () => {
    fake.stacks = [deployed()];
    const dir = outDir('symlink');
    const shared = outDir('symlink-target');
    fs.mkdirSync(dir);
    fs.mkdirSync(shared);
    const target = path.join(shared, 'config.json');
    fs.writeFileSync(target, '{"version":"1"}\n', { mode: 0o640 });
    fs.chmodSync(target, 0o640);
    const link = path.join(dir, 'vendor_outputs.json');
    fs.symlinkSync(path.join('..', 'symlink-target', 'config.json'), link);
    const run = await generate(['--stack', 'Backend', '--out-dir', dir]);
    expect(run.code).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(link)).toBe(path.join('..', 'symlink-target', 'config.json'));
    expect(JSON.parse(fs.readFileSync(target, 'utf8')).storage.bucket_name).toBe('backend-files-1a2b');
    expect(permissions(target)).toBe('640');
    expect(fs.readdirSync(dir)).toEqual(['vendor_outputs.json']);
    expect(fs.readdirSync(shared)).toEqual(['config.json']);
  });
});
