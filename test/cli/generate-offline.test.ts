/**
 * `vendor-outputs generate --outputs-file FILE --app DIR`: offline, from a synthesized assembly
 * and the JSON that `cdk deploy --outputs-file` writes. No AWS call is possible here: the
 * endpoint points at a closed port and there are no credentials.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnParameter, Stack, Stage } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { BackendIdentity, VendorOutputs } from '../../src';
import { runCli } from '../support/cli';
import { evaluateOutputs } from '../support/fake-cloudformation';

const TRICKY = 'quote " backslash \\ newline \n end';

let tmp: string;
let assembly: string;
let templates: Record<string, any>;

function backend(scope: App | Stage, id: string, identity?: { appId: string; branch: string }): Stack {
  const stack = new Stack(scope, id);
  const bucket = new s3.Bucket(stack, 'Files');
  const note = new CfnParameter(stack, 'Note', { type: 'String' });
  VendorOutputs.of(stack).addOutput({
    storage: { vendorRegion: stack.region, bucketName: bucket.bucketName },
    custom: { note: note.valueAsString },
  });
  if (identity) {
    BackendIdentity.tag(stack, identity);
  }
  return stack;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-offline-'));
  assembly = path.join(tmp, 'cdk.out');
  const app = new App({ outdir: assembly });
  backend(app, 'Backend', { appId: 'd123', branch: 'main' });
  const prod = new Stage(app, 'Prod');
  backend(prod, 'Backend', { appId: 'd123', branch: 'prod' });
  const literal = new Stack(app, 'Literal', { stackName: 'literal-backend' });
  VendorOutputs.of(literal).addOutput({ storage: { vendorRegion: 'eu-west-1', bucketName: 'existing-bucket' } });
  new s3.Bucket(new Stack(app, 'Plain'), 'Files');
  const cloud = app.synth();
  templates = {
    Backend: cloud.getStackByName('Backend').template,
  };
  for (const stage of cloud.nestedAssemblies) {
    for (const stack of stage.nestedAssembly.stacks) {
      templates[stack.stackName] = stack.template;
    }
  }
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function bucketId(template: any): string {
  return Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
}

function outputsOf(stackName: string, region = 'eu-west-1'): Record<string, string> {
  const template = templates[stackName];
  return evaluateOutputs(template, { 'AWS::Region': region, [bucketId(template)]: `${stackName.toLowerCase()}-files`, 'Note': TRICKY });
}

function writeOutputsFile(name: string, content: unknown): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function generate(args: string[]) {
  return runCli(['generate', ...args], {
    env: {
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      NODE_DEBUG: 'module',
    },
  });
}

function result(dir: string): any {
  return JSON.parse(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8'));
}

/** stderr without the module loader's debug lines. */
function messages(stderr: string): string {
  return stderr.split('\n').filter((l) => !/^MODULE \d+:/.test(l)).join('\n');
}

test('rebuilds the file from the outputs file, with --stack choosing among several stacks, and loads neither aws-cdk-lib nor the SDK', async () => {
  const file = writeOutputsFile('outputs.json', { 'Backend': outputsOf('Backend'), 'Prod-Backend': outputsOf('Prod-Backend') });
  const dir = path.join(tmp, 'out-ok', 'nested');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', 'Backend', '--out-dir', dir]);
  expect(messages(run.stderr)).toContain('stack Backend: 3 deploy-time value(s) filled; sections: storage, custom');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${path.join(dir, 'vendor_outputs.json')}\n`);
  expect(result(dir)).toEqual({
    $schema: 'https://cdk-vendor-outputs.example/schemas/2024-02/vendor_outputs.schema.json',
    version: '1',
    storage: { vendor_region: 'eu-west-1', bucket_name: 'backend-files' },
    custom: { note: TRICKY },
  });
  expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toContain(JSON.stringify(TRICKY));
  expect(run.stderr).not.toMatch(/aws-cdk-lib|client-cloudformation|@aws-amplify/);
});

test('a stack inside a stage is found by its stack name or display path', async () => {
  const file = writeOutputsFile('outputs-stage.json', { 'Prod-Backend': outputsOf('Prod-Backend', 'ap-south-1') });
  for (const name of ['Prod-Backend', 'Prod/Backend']) {
    const dir = path.join(tmp, `out-stage-${name.replace('/', '_')}`);
    const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', name, '--out-dir', dir]);
    expect(run.code).toBe(0);
    expect(result(dir).storage).toEqual({ vendor_region: 'ap-south-1', bucket_name: 'prod-backend-files' });
  }
});

test('without --stack, the one library stack present in the outputs file is used', async () => {
  const file = writeOutputsFile('outputs-one.json', { Backend: outputsOf('Backend'), Plain: {} });
  const dir = path.join(tmp, 'out-one');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--out-dir', dir]);
  expect(run.code).toBe(0);
  expect(result(dir).storage.bucket_name).toBe('backend-files');
});

test('--app-id/--branch selects the stack by the tags recorded in the assembly manifest', async () => {
  const file = writeOutputsFile('outputs-identity.json', { 'Backend': outputsOf('Backend'), 'Prod-Backend': outputsOf('Prod-Backend') });
  const dir = path.join(tmp, 'out-identity');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--app-id', 'd123', '--branch', 'prod', '--out-dir', dir]);
  expect(run.code).toBe(0);
  expect(result(dir).storage.bucket_name).toBe('prod-backend-files');
});

test('several library stacks and no --stack is an error listing them', async () => {
  const file = writeOutputsFile('outputs-two.json', { 'Backend': outputsOf('Backend'), 'Prod-Backend': outputsOf('Prod-Backend') });
  const run = await generate(['--outputs-file', file, '--app', assembly, '--out-dir', path.join(tmp, 'out-two')]);
  expect(run.code).toBe(1);
  expect(messages(run.stderr)).toContain(`several stacks in ${assembly} carry vendor outputs: Prod-Backend, Backend; pick one with --stack NAME`);
  expect(fs.existsSync(path.join(tmp, 'out-two'))).toBe(false);
});

test('a stack with no deploy-time value needs no outputs', async () => {
  const file = writeOutputsFile('outputs-empty.json', {});
  const dir = path.join(tmp, 'out-literal');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', 'literal-backend', '--out-dir', dir]);
  expect(run.code).toBe(0);
  expect(result(dir).storage).toEqual({ vendor_region: 'eu-west-1', bucket_name: 'existing-bucket' });
  expect(messages(run.stderr)).toContain('stack literal-backend: 0 deploy-time value(s) filled; sections: storage');
});

test.each([
  ['a stack missing from the outputs file', () => ({ Other: {} }), ['--stack', 'Backend'],
    /outputs-case.json has no outputs for stack Backend \(it has: Other\), which carries 3 deploy-time value\(s\) \(\/storage\/vendor_region, \/storage\/bucket_name, \/custom\/note\); deploy it with 'cdk deploy Backend --outputs-file/],
  ['a pending output missing', () => ({ Backend: {} }), ['--stack', 'Backend'],
    /stack Backend is missing output\(s\) VendorOutputsCollectorValues\w+, needed for \/storage\/vendor_region, \/storage\/bucket_name, \/custom\/note/],
  ['a stack not in the assembly', () => ({}), ['--stack', 'Nope'],
    /stack Nope not found in .*cdk.out; its stacks: Prod-Backend, Backend, literal-backend, Plain/],
  ['a stack without the Metadata', () => ({ Plain: {} }), ['--stack', 'Plain'],
    /stack Plain has no 'cdk-vendor-outputs\/v1' template Metadata: it was not synthesized with cdk-vendor-outputs/],
  ['no stack of that app and branch', () => ({}), ['--app-id', 'd123', '--branch', 'dev'],
    /no stack in .*cdk.out has tags vendor-outputs:app-id=d123 and vendor-outputs:branch=dev; stacks of app d123: Prod-Backend \(branch prod\), Backend \(branch main\)/],
  ['an outputs file that is not JSON', () => '{ nope', ['--stack', 'Backend'], /outputs-case.json: not valid JSON/],
  ['an outputs file of the wrong shape', () => ({ Backend: { Key: 1 } }), ['--stack', 'Backend'],
    /outputs-case.json: "Backend"."Key" is not a string \(got 1\); expected the JSON of 'cdk deploy --outputs-file'/],
])('%s is a clear error and writes nothing', async (_, content, args, message) => {
  const file = writeOutputsFile('outputs-case.json', content());
  const dir = path.join(tmp, 'out-error');
  const run = await generate(['--outputs-file', file, '--app', assembly, ...args, '--out-dir', dir]);
  expect(messages(run.stderr)).toMatch(message);
  expect(run.code).toBe(1);
  expect(fs.existsSync(dir)).toBe(false);
});

test('a folder that is not a cloud assembly, and an unreadable outputs file, are clear errors', async () => {
  const file = writeOutputsFile('outputs-x.json', {});
  const notAssembly = await generate(['--outputs-file', file, '--app', tmp]);
  expect(notAssembly.code).toBe(1);
  expect(messages(notAssembly.stderr)).toBe(`vendor-outputs generate: ${tmp}: no cloud assembly here (manifest.json is missing); run 'cdk synth' first or pass --app DIR\n`);
  const missing = await generate(['--outputs-file', path.join(tmp, 'nope.json'), '--app', assembly]);
  expect(missing.code).toBe(1);
  expect(messages(missing.stderr)).toContain('nope.json: cannot read: ENOENT');
});

test('--app defaults to cdk.out in the current directory', async () => {
  const file = writeOutputsFile('outputs-default.json', { Backend: outputsOf('Backend') });
  const run = await runCli(['generate', '--outputs-file', file, '--stack', 'Backend'], { cwd: tmp });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${path.join(tmp, 'vendor_outputs.json')}\n`);
  expect(result(tmp).custom.note).toBe(TRICKY);
});

test('an output value that is not the library\'s encoding is refused, naming the output and pointer; the good file stays', async () => {
  const outputs = outputsOf('Backend');
  const key = Object.keys(outputs).find((k) => k.startsWith('VendorOutputsCollectorValues'))!;
  const file = writeOutputsFile('outputs-pasted.json', { Backend: { ...outputs, [key]: 'eu-west-1,backend-files' } });
  const dir = path.join(tmp, 'out-pasted');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'vendor_outputs.json'), '{"version":"1"}\n');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', 'Backend', '--out-dir', dir]);
  expect(run.code).toBe(1);
  expect(messages(run.stderr)).toBe(`vendor-outputs generate: stack Backend: output ${key} (for /storage/vendor_region) is not what cdk-vendor-outputs deploys `
    + '(up to 8 comma-separated Base64 values of UTF-8 text): value 0: "eu-west-1" is not Base64; was the output changed after deploy? Deploy the stack again\n');
  expect(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).toBe('{"version":"1"}\n');
});

test('stack and output names like __proto__ in the outputs file are plain keys', async () => {
  const file = writeOutputsFile('outputs-proto.json', '{"__proto__": {"Backend": "x"}, "constructor": {}}');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', 'Backend', '--out-dir', path.join(tmp, 'out-proto')]);
  expect(run.code).toBe(1);
  expect(messages(run.stderr)).toContain('outputs-proto.json has no outputs for stack Backend (it has: __proto__, constructor)');
});

test('--format dart writes vendor_outputs.dart: the same JSON in a raw string, quotes, backslashes, $ and newlines kept', async () => {
  const file = writeOutputsFile('outputs-dart.json', { Backend: outputsOf('Backend') });
  const dir = path.join(tmp, 'out-dart');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', 'Backend', '--out-dir', dir, '--format', 'dart']);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${path.join(dir, 'vendor_outputs.dart')}\n`);
  const text = fs.readFileSync(path.join(dir, 'vendor_outputs.dart'), 'utf8');
  const m = /^const vendorConfig = r'''([\s\S]*)''';\n$/m.exec(text);
  expect(m).not.toBeNull();
  expect(JSON.parse(m![1]).custom.note).toBe(TRICKY);
  await generate(['--outputs-file', file, '--app', assembly, '--stack', 'Backend', '--out-dir', dir]);
  expect(m![1]).toBe(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8').trimEnd());
});

test('--format dart refuses a value a raw Dart string cannot hold, naming its pointer, and writes nothing; a bad --format is a usage error', async () => {
  const template = templates.Backend;
  const outputs = evaluateOutputs(template, { 'AWS::Region': 'eu-west-1', [bucketId(template)]: 'files', 'Note': "ends ''' here $x" });
  const file = writeOutputsFile('outputs-dart-bad.json', { Backend: outputs });
  const dir = path.join(tmp, 'out-dart-bad');
  const run = await generate(['--outputs-file', file, '--app', assembly, '--stack', 'Backend', '--out-dir', dir, '--format', 'dart']);
  expect(run.code).toBe(1);
  expect(messages(run.stderr)).toContain("the value at /custom/note contains ''' (three single quotes)");
  expect(fs.existsSync(path.join(dir, 'vendor_outputs.dart'))).toBe(false);
  const usage = await generate(['--outputs-file', file, '--app', assembly, '--format', 'yaml']);
  expect(usage.code).toBe(2);
  expect(messages(usage.stderr)).toContain("--format must be one of json, dart (got 'yaml')");
});
