/**
 * `vendor-outputs generate` inside a hosted CI/CD build: the app id and branch come from the
 * build's environment variables. The real AWS SDK client talks to the local CloudFormation
 * stand-in; the CLI runs as a child process whose environment holds only the variables each test
 * sets (the test machine's own CI variables, e.g. GITHUB_REF_NAME on a CI runner, are removed).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { BackendIdentity, VendorOutputs } from '../../src';
import { parseRebuildArgs } from '../../src/cli/rebuild/arguments';
import { BRANCH_VARIABLES, HOSTED_BUILD_VARIABLES } from '../../src/outputs/cdk-free/hosted-build';
import { runCli } from '../support/cli';
import { evaluateOutputs, fakeAwsEnv, FakeCloudFormation, FakeStack } from '../support/fake-cloudformation';

const APP_ID_LOOKED = 'looked at AWS_APP_ID, VENDOR_OUTPUTS_APP_ID or cdk.json\'s context "vendor-outputs:app-id"';
const BRANCH_LOOKED = `looked at ${BRANCH_VARIABLES.slice(0, -1).join(', ')} or VENDOR_OUTPUTS_BRANCH`;

let tmp: string;
let assembly: string;
let endpoint: string;
const fake = new FakeCloudFormation();
const templates: Record<string, any> = {};

/** A library stack whose bucket name is a deploy-time value, tagged app d123 and `branch`. */
function backend(app: App, id: string, branch: string): void {
  const stack = new Stack(app, id);
  const bucket = new s3.Bucket(stack, 'Files');
  VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: 'eu-west-1', bucketName: bucket.bucketName } });
  BackendIdentity.tag(stack, { appId: 'd123', branch });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-hosted-'));
  assembly = path.join(tmp, 'cdk.out');
  const app = new App({ outdir: assembly });
  backend(app, 'Backend-main', 'main');
  backend(app, 'Backend-feature', 'feature/login');
  const cloud = app.synth();
  for (const stack of cloud.stacks) {
    templates[stack.stackName] = stack.template;
  }
  endpoint = await fake.start();
});

afterAll(async () => {
  await fake.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  fake.calls.length = 0;
  fake.stacks = ['Backend-main', 'Backend-feature'].map(deployed);
});

function bucketName(stackName: string): string {
  return `${stackName.toLowerCase()}-files`;
}

function outputsOf(stackName: string): Record<string, string> {
  const template = templates[stackName];
  const bucket = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
  return evaluateOutputs(template, { [bucket]: bucketName(stackName) });
}

function deployed(stackName: string): FakeStack {
  const branch = stackName === 'Backend-main' ? 'main' : 'feature/login';
  return { name: stackName, template: templates[stackName], outputs: outputsOf(stackName), tags: { 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': branch } };
}

/** Runs generate with exactly `variables` of the hosted-build table set. */
function generate(args: string[], variables: Record<string, string> = {}, cwd = tmp) {
  const clean = Object.fromEntries(HOSTED_BUILD_VARIABLES.map((name) => [name, undefined]));
  return runCli(['generate', ...args], {
    cwd,
    env: {
      ...clean,
      ...fakeAwsEnv(endpoint, tmp),
      ...variables,
    },
  });
}

let dirs = 0;
function outDir(): string {
  return path.join(tmp, `out-${++dirs}`);
}

function bucketWritten(dir: string): string {
  return JSON.parse(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8')).storage.bucket_name;
}

test('a CI variable of the test process itself (as on a CI runner) does not reach the child', async () => {
  const saved = process.env.GITHUB_REF_NAME;
  process.env.GITHUB_REF_NAME = 'leaked-from-the-runner';
  try {
    const run = await generate(['--out-dir', outDir()], { AWS_APP_ID: 'd123' });
    expect(run.stderr).toContain('found app id d123 in AWS_APP_ID but no branch');
    expect(run.code).toBe(2);
  } finally {
    if (saved === undefined) {
      delete process.env.GITHUB_REF_NAME;
    } else {
      process.env.GITHUB_REF_NAME = saved;
    }
  }
});

test.each([
  ['the anchor toolchain\'s hosted builds', { AWS_APP_ID: 'd123', AWS_BRANCH: 'main' }, 'Backend-main', 'app id d123 (AWS_APP_ID) and branch main (AWS_BRANCH)'],
  ['GitHub Actions, push', { VENDOR_OUTPUTS_APP_ID: 'd123', GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' }, 'Backend-main',
    'app id d123 (VENDOR_OUTPUTS_APP_ID) and branch main (GITHUB_REF_NAME)'],
  ['GitHub Actions, pull_request', { VENDOR_OUTPUTS_APP_ID: 'd123', GITHUB_REF_NAME: '12/merge', GITHUB_HEAD_REF: 'feature/login' }, 'Backend-feature',
    'app id d123 (VENDOR_OUTPUTS_APP_ID) and branch feature/login (GITHUB_HEAD_REF)'],
  ['GitLab CI/CD', { VENDOR_OUTPUTS_APP_ID: 'd123', CI_COMMIT_REF_NAME: 'main' }, 'Backend-main', 'branch main (CI_COMMIT_REF_NAME)'],
  ['GitLab CI/CD, merge request', { VENDOR_OUTPUTS_APP_ID: 'd123', CI_COMMIT_REF_NAME: 'refs/merge-requests/4/head', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/login' },
    'Backend-feature', 'branch feature/login (CI_MERGE_REQUEST_SOURCE_BRANCH_NAME)'],
  ['Bitbucket Pipelines', { VENDOR_OUTPUTS_APP_ID: 'd123', BITBUCKET_BRANCH: 'feature/login' }, 'Backend-feature', 'branch feature/login (BITBUCKET_BRANCH)'],
  ['AWS CodeBuild', { VENDOR_OUTPUTS_APP_ID: 'd123', CODEBUILD_WEBHOOK_HEAD_REF: 'refs/heads/main' }, 'Backend-main', 'branch main (CODEBUILD_WEBHOOK_HEAD_REF)'],
  ['CircleCI', { VENDOR_OUTPUTS_APP_ID: 'd123', CIRCLE_BRANCH: 'main' }, 'Backend-main', 'branch main (CIRCLE_BRANCH)'],
  ['Azure Pipelines', { VENDOR_OUTPUTS_APP_ID: 'd123', BUILD_SOURCEBRANCH: 'refs/heads/feature/login' }, 'Backend-feature', 'branch feature/login (BUILD_SOURCEBRANCH)'],
  ['Azure Pipelines, pull request', { VENDOR_OUTPUTS_APP_ID: 'd123', BUILD_SOURCEBRANCH: 'refs/pull/3/merge', SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/main' },
    'Backend-main', 'branch main (SYSTEM_PULLREQUEST_SOURCEBRANCH)'],
  ['Vercel', { VENDOR_OUTPUTS_APP_ID: 'd123', VERCEL_GIT_COMMIT_REF: 'main' }, 'Backend-main', 'branch main (VERCEL_GIT_COMMIT_REF)'],
  ['any other host', { VENDOR_OUTPUTS_APP_ID: 'd123', VENDOR_OUTPUTS_BRANCH: 'feature/login' }, 'Backend-feature', 'branch feature/login (VENDOR_OUTPUTS_BRANCH)'],
])('%s: generate with no stack selection finds the tagged stack and says which variables it used', async (_, variables, stackName, used) => {
  const dir = outDir();
  const run = await generate(['--out-dir', dir], variables);
  const notice = used.startsWith('app id') ? used : `app id d123 (VENDOR_OUTPUTS_APP_ID) and ${used}`;
  expect(run.stderr.startsWith(`vendor-outputs generate: using ${notice}\n`)).toBe(true);
  expect(run.stderr).toContain(`stack ${stackName}: 1 deploy-time value(s) filled`);
  expect(run.code).toBe(0);
  expect(bucketWritten(dir)).toBe(bucketName(stackName));
  expect(fake.actions()).toEqual(['DescribeStacks', 'GetTemplateSummary']);
  expect(fake.calls[0].params.StackName).toBeUndefined();
});

test('the notice is exactly one stderr line before the summary', async () => {
  const dir = outDir();
  const run = await generate(['--out-dir', dir], { AWS_APP_ID: 'd123', AWS_BRANCH: 'main' });
  expect(run.stderr).toBe('vendor-outputs generate: using app id d123 (AWS_APP_ID) and branch main (AWS_BRANCH)\n'
    + `stack Backend-main: 1 deploy-time value(s) filled; sections: storage; wrote ${path.join(dir, 'vendor_outputs.json')}\n`);
});

test('an empty variable counts as unset', async () => {
  const dir = outDir();
  const run = await generate(['--out-dir', dir], { AWS_APP_ID: '', VENDOR_OUTPUTS_APP_ID: 'd123', AWS_BRANCH: '', GITHUB_REF_NAME: 'feature/login' });
  expect(run.stderr).toContain('using app id d123 (VENDOR_OUTPUTS_APP_ID) and branch feature/login (GITHUB_REF_NAME)');
  expect(run.code).toBe(0);
  expect(bucketWritten(dir)).toBe(bucketName('Backend-feature'));
});

test('--app-id and --branch win over the environment, and then nothing is announced', async () => {
  const dir = outDir();
  const run = await generate(['--app-id', 'd123', '--branch', 'feature/login', '--out-dir', dir], { AWS_APP_ID: 'other', AWS_BRANCH: 'main' });
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain('using');
  expect(bucketWritten(dir)).toBe(bucketName('Backend-feature'));
});

test('one flag wins for its own value; the other value still comes from the environment', async () => {
  const branchOnly = outDir();
  const run = await generate(['--branch', 'feature/login', '--out-dir', branchOnly], { AWS_APP_ID: 'd123', AWS_BRANCH: 'main' });
  expect(run.stderr).toContain('vendor-outputs generate: using app id d123 (AWS_APP_ID) and branch feature/login (--branch)\n');
  expect(run.code).toBe(0);
  expect(bucketWritten(branchOnly)).toBe(bucketName('Backend-feature'));

  const appIdOnly = outDir();
  const other = await generate(['--app-id', 'd123', '--out-dir', appIdOnly], { GITHUB_REF_NAME: 'main' });
  expect(other.stderr).toContain('vendor-outputs generate: using app id d123 (--app-id) and branch main (GITHUB_REF_NAME)\n');
  expect(other.code).toBe(0);
  expect(bucketWritten(appIdOnly)).toBe(bucketName('Backend-main'));
});

test('--stack ignores the environment entirely', async () => {
  const dir = outDir();
  const run = await generate(['--stack', 'Backend-feature', '--out-dir', dir], { AWS_APP_ID: 'd123', AWS_BRANCH: 'main' });
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain('using');
  expect(fake.calls[0].params.StackName).toBe('Backend-feature');
  expect(bucketWritten(dir)).toBe(bucketName('Backend-feature'));
});

test.each([
  ['a branch but no app id', { GITHUB_REF_NAME: 'main' }, [],
    `found branch main in GITHUB_REF_NAME but no app id: give --app-id ID or set VENDOR_OUTPUTS_APP_ID (${APP_ID_LOOKED})`],
  ['an app id but no branch', { AWS_APP_ID: 'd123', AWS_BRANCH: '' }, [],
    `found app id d123 in AWS_APP_ID but no branch: give --branch NAME or set VENDOR_OUTPUTS_BRANCH (${BRANCH_LOOKED})`],
  ['--app-id and no branch anywhere', {}, ['--app-id', 'd123'],
    `--app-id needs --branch NAME: no branch in the environment either (${BRANCH_LOOKED})`],
  ['--branch and no app id anywhere', {}, ['--branch', 'main'],
    `--branch needs --app-id ID: no app id in the environment either (${APP_ID_LOOKED})`],
  ['nothing at all', {}, [], 'say which stack: --stack NAME, --app-id ID --branch NAME, or --outputs-file FILE (offline)'],
])('%s is a usage error (exit 2) naming what is missing and where it was looked for; no AWS call', async (_, variables, args, message) => {
  const dir = outDir();
  const run = await generate([...args, '--out-dir', dir], variables);
  expect(run.stderr).toBe(`vendor-outputs generate: ${message}\nRun 'vendor-outputs generate --help' for usage.\n`);
  expect(run.code).toBe(2);
  expect(fake.calls).toEqual([]);
  expect(fs.existsSync(dir)).toBe(false);
});

describe('the project\'s app id in cdk.json', () => {
  function project(context: unknown): string {
    const dir = fs.mkdtempSync(path.join(tmp, 'project-'));
    fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js', context }));
    return dir;
  }

  test('completes a branch from the environment', async () => {
    const dir = outDir();
    const run = await generate(['--out-dir', dir], { GITHUB_REF_NAME: 'main' }, project({ 'vendor-outputs:app-id': 'd123' }));
    expect(run.stderr).toContain('using app id d123 (cdk.json context vendor-outputs:app-id) and branch main (GITHUB_REF_NAME)');
    expect(run.code).toBe(0);
    expect(bucketWritten(dir)).toBe(bucketName('Backend-main'));
  });

  test('comes after the app id variables', async () => {
    const dir = outDir();
    const run = await generate(['--out-dir', dir], { VENDOR_OUTPUTS_APP_ID: 'd123', GITHUB_REF_NAME: 'main' }, project({ 'vendor-outputs:app-id': 'other' }));
    expect(run.stderr).toContain('using app id d123 (VENDOR_OUTPUTS_APP_ID)');
    expect(run.code).toBe(0);
  });

  test('a value that is not a string is an error naming the file', async () => {
    const cwd = project({ 'vendor-outputs:app-id': 7 });
    const run = await generate(['--out-dir', outDir()], { GITHUB_REF_NAME: 'main' }, cwd);
    expect(run.stderr).toBe(`vendor-outputs generate: ${path.join(cwd, 'cdk.json')}: context "vendor-outputs:app-id" must be a non-empty string (got 7)\n`);
    expect(run.code).toBe(1);
  });

  test('is not read when it is not needed (a broken cdk.json does not stop --stack)', async () => {
    const cwd = fs.mkdtempSync(path.join(tmp, 'broken-'));
    fs.writeFileSync(path.join(cwd, 'cdk.json'), '{ "context": ');
    const run = await generate(['--stack', 'Backend-main', '--out-dir', outDir()], { GITHUB_REF_NAME: 'main' }, cwd);
    expect(run.code).toBe(0);
  });
});

describe('offline (--outputs-file), with several stacks carrying vendor outputs', () => {
  function outputsFile(): string {
    const file = path.join(tmp, 'outputs.json');
    fs.writeFileSync(file, JSON.stringify({ 'Backend-main': outputsOf('Backend-main'), 'Backend-feature': outputsOf('Backend-feature') }));
    return file;
  }

  test('the environment\'s identity chooses the stack, and stderr says so', async () => {
    const dir = outDir();
    const run = await generate(['--outputs-file', outputsFile(), '--app', assembly, '--out-dir', dir], { AWS_APP_ID: 'd123', AWS_BRANCH: 'feature/login' });
    expect(run.stderr).toContain('vendor-outputs generate: chose stack Backend-feature of 2 by app id d123 (AWS_APP_ID) and branch feature/login (AWS_BRANCH)\n');
    expect(run.code).toBe(0);
    expect(bucketWritten(dir)).toBe(bucketName('Backend-feature'));
    expect(fake.calls).toEqual([]);
  });

  test('an identity that tags none of them is named in the error', async () => {
    const run = await generate(['--outputs-file', outputsFile(), '--app', assembly, '--out-dir', outDir()], { AWS_APP_ID: 'd123', AWS_BRANCH: 'dev' });
    expect(run.stderr).toContain(`several stacks in ${assembly} carry vendor outputs: Backend-main, Backend-feature; pick one with --stack NAME `
      + '(none of them tagged with app id d123 (AWS_APP_ID) and branch dev (AWS_BRANCH))');
    expect(run.code).toBe(1);
  });

  test('a partial identity with one deployed stack in the outputs file is no error either', async () => {
    const file = path.join(tmp, 'outputs-one.json');
    fs.writeFileSync(file, JSON.stringify({ 'Backend-main': outputsOf('Backend-main') }));
    const dir = outDir();
    const run = await generate(['--outputs-file', file, '--app', assembly, '--out-dir', dir], { GITHUB_REF_NAME: 'feature/login' });
    expect(run.code).toBe(0);
    expect(bucketWritten(dir)).toBe(bucketName('Backend-main'));
  });
});

describe('parseRebuildArgs (what diff builds on too)', () => {
  test('completes the request from the environment it is given, with the notice', () => {
    expect(parseRebuildArgs(['--out-dir', 'src'], { AWS_APP_ID: 'd1', AWS_BRANCH: 'main' }, tmp)).toMatchObject({
      appId: 'd1', branch: 'main', outDir: 'src', notices: ['using app id d1 (AWS_APP_ID) and branch main (AWS_BRANCH)'],
    });
  });

  test('reads process.env when given no environment', () => {
    const saved = { ...process.env };
    try {
      for (const name of HOSTED_BUILD_VARIABLES) {
        delete process.env[name];
      }
      process.env.VENDOR_OUTPUTS_APP_ID = 'd7';
      process.env.CIRCLE_BRANCH = 'dev';
      expect(parseRebuildArgs([])).toMatchObject({ appId: 'd7', branch: 'dev' });
    } finally {
      process.env = saved;
    }
  });

  test('offline with no selection, a complete identity only goes to environmentIdentity; a partial one is dropped', () => {
    const complete = parseRebuildArgs(['--outputs-file', 'o.json'], { AWS_APP_ID: 'd1', AWS_BRANCH: 'main' }, tmp);
    expect(complete.environmentIdentity).toEqual({ appId: 'd1', branch: 'main', description: 'app id d1 (AWS_APP_ID) and branch main (AWS_BRANCH)' });
    expect([complete.appId, complete.branch, complete.notices]).toEqual([undefined, undefined, []]);
    expect(parseRebuildArgs(['--outputs-file', 'o.json'], { AWS_BRANCH: 'main' }, tmp).environmentIdentity).toBeUndefined();
  });

  test('--stack with either identity flag is refused, whatever the environment', () => {
    expect(() => parseRebuildArgs(['--stack', 'S', '--branch', 'main'], { AWS_APP_ID: 'd1' }, tmp))
      .toThrow('give either --stack NAME or --app-id ID --branch NAME, not both');
    const byStack = parseRebuildArgs(['--stack', 'S'], { AWS_APP_ID: 'd1', AWS_BRANCH: 'main' }, tmp);
    expect([byStack.stack, byStack.appId, byStack.branch, byStack.environmentIdentity, byStack.notices]).toEqual(['S', undefined, undefined, undefined, []]);
  });
});

test('one pipeline: the stack BackendIdentity.tagFromEnvironment tags at synth is the stack generate finds with the same variables', async () => {
  const variables = { VENDOR_OUTPUTS_APP_ID: 'shop', GITHUB_REF_NAME: '9/merge', GITHUB_HEAD_REF: 'feature/pay' };
  const saved = { ...process.env };
  let tags: Record<string, string>;
  let template: any;
  try {
    for (const name of HOSTED_BUILD_VARIABLES) {
      delete process.env[name];
    }
    Object.assign(process.env, variables);
    const app = new App({ outdir: path.join(tmp, 'pipeline.out') });
    const stack = new Stack(app, 'Shop-feature-pay');
    VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: 'eu-west-1', bucketName: new s3.Bucket(stack, 'Files').bucketName } });
    BackendIdentity.tagFromEnvironment(stack);
    const artifact = app.synth().getStackByName('Shop-feature-pay');
    tags = artifact.tags;
    template = artifact.template;
  } finally {
    process.env = saved;
  }
  expect(tags).toEqual({ 'vendor-outputs:app-id': 'shop', 'vendor-outputs:branch': 'feature/pay' });
  const bucket = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
  fake.stacks.push({ name: 'Shop-feature-pay', template, outputs: evaluateOutputs(template, { [bucket]: 'shop-pay-files' }), tags });
  const dir = outDir();
  const run = await generate(['--out-dir', dir], variables);
  expect(run.stderr).toContain('using app id shop (VENDOR_OUTPUTS_APP_ID) and branch feature/pay (GITHUB_HEAD_REF)');
  expect(run.code).toBe(0);
  expect(bucketWritten(dir)).toBe('shop-pay-files');
});
