/**
 * `vendor-outputs diff`: the real CLI compares a local file with what generate would write, offline
 * (a synthesized cloud assembly plus a `cdk deploy --outputs-file` JSON) and online (the real AWS
 * SDK client against a local CloudFormation stand-in).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnParameter, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { BackendIdentity, DataAuthorizationType, VendorOutputs } from '../../src';
import { LAYOUT_LINE } from '../../src/cli/diff/change-report';
import { HOSTED_BUILD_VARIABLES } from '../../src/outputs/cdk-free/hosted-build';
import { runCli } from '../support/cli';
import { evaluateOutputs, fakeAwsEnv, FakeCloudFormation } from '../support/fake-cloudformation';

/** A deployed value with everything a JSON or Dart string must escape or keep. */
const TRICKY = 'say "hi" \\ C:\\path ${name} $x \n second line';
const API_KEY = 'da2-supersecretkeyvalue0001';

let tmp: string;
let assembly: string;
let template: any;
const fake = new FakeCloudFormation();
let endpoint: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-'));
  assembly = path.join(tmp, 'cdk.out');
  const app = new App({ outdir: assembly });
  const stack = new Stack(app, 'Backend');
  const bucket = new s3.Bucket(stack, 'Files');
  const note = new CfnParameter(stack, 'Note', { type: 'String' });
  const key = new CfnParameter(stack, 'Key', { type: 'String', noEcho: true });
  VendorOutputs.of(stack).addOutput({
    storage: { vendorRegion: stack.region, bucketName: bucket.bucketName },
    data: {
      vendorRegion: stack.region,
      url: 'https://example.appsync-api.eu-west-1.amazonaws.com/graphql',
      apiKey: key.valueAsString,
      defaultAuthorizationType: DataAuthorizationType.API_KEY,
      authorizationTypes: [DataAuthorizationType.API_KEY],
    },
    custom: { note: note.valueAsString, literal: 'fixed' },
  });
  BackendIdentity.tag(stack, { appId: 'd123', branch: 'main' });
  // A second library stack of the same app, for the offline choice by a hosted build's identity.
  const other = new Stack(app, 'Preview');
  VendorOutputs.of(other).addOutput({ custom: { stage: 'preview' } });
  BackendIdentity.tag(other, { appId: 'd123', branch: 'preview' });
  template = app.synth().getStackByName('Backend').template;
  endpoint = await fake.start();
});

afterAll(async () => {
  await fake.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function outputs(values: Record<string, string> = {}): Record<string, string> {
  const bucket = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
  return evaluateOutputs(template, { 'AWS::Region': 'eu-west-1', [bucket]: 'backend-files', 'Note': TRICKY, 'Key': API_KEY, ...values });
}

/** A folder with an outputs file of the deploy; returns the offline options for it. */
function deployedOffline(name: string, values: Record<string, string> = {}): { dir: string; options: string[] } {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'outputs.json');
  fs.writeFileSync(file, JSON.stringify({ Backend: outputs(values) }, null, 2));
  return { dir, options: ['--outputs-file', file, '--app', assembly, '--stack', 'Backend'] };
}

/** No AWS endpoint reachable, and none of a hosted build's variables (a CI runner's own GITHUB_REF_NAME...). */
const OFFLINE_ENV = {
  ...Object.fromEntries(HOSTED_BUILD_VARIABLES.map((name) => [name, undefined])),
  AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
  AWS_ACCESS_KEY_ID: undefined,
  AWS_SECRET_ACCESS_KEY: undefined,
};

function cli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  return runCli(args, { cwd: options.cwd, env: { ...OFFLINE_ENV, ...options.env } });
}

/** Writes the file as generate does, then lets `edit` change its text. */
async function generated(name: string, edit: (text: string) => string = (t) => t, format: 'json' | 'dart' = 'json') {
  const { dir, options } = deployedOffline(name);
  const run = await cli(['generate', ...options, '--format', format, '--out-dir', dir]);
  expect(run.code).toBe(0);
  const file = path.join(dir, `vendor_outputs.${format}`);
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
  return { dir, file, options };
}

/** Edits the parsed JSON of a file generate wrote, and writes it back as generate lays it out. */
function editJson(change: (doc: any) => any): (text: string) => string {
  return (text) => `${JSON.stringify(change(JSON.parse(text)), null, 2)}\n`;
}

describe('offline', () => {
  test('a file equal to what generate writes: exit 0, no change lines', async () => {
    const { file, options } = await generated('equal');
    const run = await cli(['diff', ...options, file]);
    expect(run.stderr).toBe(`vendor-outputs diff: ${file} is up to date (stack Backend)\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
  });

  test('offline, it loads neither aws-cdk-lib nor the AWS SDK', async () => {
    const { file, options } = await generated('modules');
    const run = await cli(['diff', ...options, file], { env: { NODE_DEBUG: 'module' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/MODULE \d+: .*diff[/\\]document-changes/);
    expect(run.stderr).not.toMatch(/aws-cdk-lib|client-cloudformation/);
  });

  test('without FILE, ./vendor_outputs.json is compared', async () => {
    const { dir, options } = await generated('default-file', editJson((doc) => ({ ...doc, custom: { ...doc.custom, literal: 'old' } })));
    const run = await cli(['diff', ...options], { cwd: dir });
    expect(run.stdout).toBe('~ /custom/literal: "old" -> "fixed"\n');
    expect(run.stderr).toContain('vendor_outputs.json is stale: generate would change it (1 difference(s), stack Backend)');
    expect(run.code).toBe(1);
  });

  test('a changed value: exit 1 with its pointer, old and new value', async () => {
    const { file, options } = await generated('changed', editJson((doc) => {
      doc.storage.bucket_name = 'old-files';
      doc.custom.note = 'old note';
      return doc;
    }));
    const run = await cli(['diff', ...options, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe([
      '~ /storage/bucket_name: "old-files" -> "backend-files"',
      `~ /custom/note: "old note" -> ${JSON.stringify(TRICKY)}`,
      '',
    ].join('\n'));
    expect(run.stderr).toContain(`${file} is stale: generate would change it (2 difference(s), stack Backend)`);
    expect(run.stderr).not.toContain('cannot compare');
  });

  test('added and removed keys, in the order of the generated document, removals after', async () => {
    const { file, options } = await generated('added-removed', editJson((doc) => {
      delete doc.storage;
      delete doc.custom.literal;
      doc.custom.gone = 'x';
      doc.geo = { vendor_region: 'eu-west-1' };
      return doc;
    }));
    const run = await cli(['diff', ...options, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe([
      '+ /storage: {"vendor_region":"eu-west-1","bucket_name":"backend-files"}',
      '+ /custom/literal: "fixed"',
      '- /custom/gone: "x"',
      '- /geo: {"vendor_region":"eu-west-1"}',
      '',
    ].join('\n'));
  });

  test('a long value is shortened', async () => {
    const long = `https://${'a'.repeat(200)}.example.com/`;
    const { file, options } = await generated('long', editJson((doc) => ({ ...doc, custom: { ...doc.custom, literal: long } })));
    const run = await cli(['diff', ...options, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`~ /custom/literal: ${JSON.stringify(long.slice(0, 80)).slice(0, 77)}... -> "fixed"\n`);
  });

  test('the same values in another key order: exit 1, the object named', async () => {
    const { file, options } = await generated('order', editJson((doc) => ({ ...doc, storage: { bucket_name: doc.storage.bucket_name, vendor_region: doc.storage.vendor_region } })));
    const run = await cli(['diff', ...options, file]);
    expect(run.stdout).toBe('! /storage: key order differs (generate writes: vendor_region, bucket_name)\n');
    expect(run.code).toBe(1);
  });

  test('the same values laid out differently: exit 1 with one layout line', async () => {
    const { file, options } = await generated('layout', (text) => JSON.stringify(JSON.parse(text), null, 4));
    const run = await cli(['diff', ...options, file]);
    expect(run.stdout).toBe('! (layout): not laid out as generate writes it (whitespace, indentation, escapes, duplicate keys, comments or the final newline)\n');
    expect(run.code).toBe(1);
    const json = await cli(['diff', ...options, '--json', file]);
    expect(JSON.parse(json.stdout).changes).toEqual([{ op: 'layout' }]);
  });

  test('a missing file: exit 1, every value an addition, and stderr says the file is missing', async () => {
    const { dir, options } = deployedOffline('missing');
    const file = path.join(dir, 'vendor_outputs.json');
    const run = await cli(['diff', ...options, file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`vendor-outputs diff: ${file} is missing: generate would create it (stack Backend)`);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((l) => l.slice(0, l.indexOf(':')))).toEqual(['+ /$schema', '+ /version', '+ /data', '+ /storage', '+ /custom']);
    expect(lines[1]).toBe('+ /version: "1"');
    expect(lines[2]).toMatch(/^\+ \/data: \{"vendor_region":"eu-west-1","url":"https:.*\.\.\.$/);
    expect(fs.existsSync(file)).toBe(false);
    const json = JSON.parse((await cli(['diff', ...options, '--json', file])).stdout);
    expect(json).toMatchObject({ equal: false, missing: true, file });
    expect(json.changes[2]).toEqual({ op: 'add', path: '/data', new: expect.objectContaining({ api_key: '(secret)' }) });
    expect(JSON.stringify(json)).not.toContain(API_KEY);
  });

  test('a file that is not valid JSON: exit 1, "cannot compare" with file:line:column', async () => {
    const { file, options } = await generated('invalid', (text) => text.replace('"version": "1",', '"version": "1",,'));
    const run = await cli(['diff', ...options, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`vendor-outputs diff: cannot compare: ${file}:3:18: not valid JSON: expected a property name in double quotes, found ','\n`);
  });

  test('a folder as FILE cannot be compared', async () => {
    const { dir, options } = deployedOffline('folder');
    const run = await cli(['diff', ...options, dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`vendor-outputs diff: cannot compare: ${dir} is not a regular file but a folder: give the client configuration file as FILE\n`);
  });

  test("offline in a hosted build, the build's identity chooses among the stacks, and stderr says so", async () => {
    const { dir } = deployedOffline('hosted-offline');
    const both = path.join(dir, 'outputs-both.json');
    fs.writeFileSync(both, JSON.stringify({ Backend: outputs(), Preview: {} }));
    const file = path.join(dir, 'vendor_outputs.json');
    fs.writeFileSync(file, '{}\n');
    const run = await cli(['diff', '--outputs-file', both, '--app', assembly, file], { env: { AWS_APP_ID: 'd123', AWS_BRANCH: 'preview' } });
    expect(run.stderr).toContain('vendor-outputs diff: chose stack Preview of 2 by app id d123 (AWS_APP_ID) and branch preview (AWS_BRANCH)\n');
    expect(run.stdout).toContain('+ /custom: {"stage":"preview"}\n');
    expect(run.code).toBe(1);
  });

  test('a rebuild that fails: exit 1, "cannot compare" with the message of generate', async () => {
    const { dir, options } = deployedOffline('no-stack');
    const run = await cli(['diff', ...options.slice(0, -1), 'Nope', path.join(dir, 'vendor_outputs.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`vendor-outputs diff: cannot compare: stack Nope not found in ${assembly}; its stacks: Backend, Preview\n`);
  });

  test('data.api_key is masked in text and in --json: only that it changed is shown', async () => {
    const oldKey = 'da2-oldkeyvaluethatleaks';
    const { file, options } = await generated('api-key', editJson((doc) => {
      doc.data.api_key = oldKey;
      doc.data.url = 'https://old.example.com/graphql';
      return doc;
    }));
    const run = await cli(['diff', ...options, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe([
      '~ /data/url: "https://old.example.com/graphql" -> "https://example.appsync-api.eu-west-1.amazonaws.com/graphql"',
      '~ /data/api_key: (secret changed)',
      '',
    ].join('\n'));
    const json = await cli(['diff', ...options, '--json', file]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      equal: false,
      file,
      missing: false,
      changes: [
        { op: 'replace', path: '/data/url', old: 'https://old.example.com/graphql', new: 'https://example.appsync-api.eu-west-1.amazonaws.com/graphql' },
        { op: 'replace', path: '/data/api_key', secret: true },
      ],
    });
    for (const out of [run.stdout, run.stderr, json.stdout, json.stderr]) {
      expect(out).not.toContain(oldKey);
      expect(out).not.toContain(API_KEY);
    }
  });

  test('--json on an equal file', async () => {
    const { file, options } = await generated('json-equal');
    const run = await cli(['diff', '--json', ...options, file]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ equal: true, file, missing: false, changes: [] });
  });
});

describe('--format dart', () => {
  test('an equal file: exit 0; ./vendor_outputs.dart is the default FILE', async () => {
    const { dir, file, options } = await generated('dart-equal', undefined, 'dart');
    expect(fs.readFileSync(file, 'utf8')).toContain(JSON.stringify(TRICKY));
    const run = await cli(['diff', ...options, '--format', 'dart'], { cwd: dir });
    expect(run.stderr).toBe('vendor-outputs diff: vendor_outputs.dart is up to date (stack Backend)\n');
    expect(run.code).toBe(0);
    // A FILE ending in .dart is read as dart without --format.
    expect((await cli(['diff', ...options, file])).code).toBe(0);
  });

  test('a changed value holding quotes, backslashes, $ and a newline, read back from the raw string', async () => {
    const old = 'it\'s "old" \\ $old ${x}\nline two';
    const { file, options } = await generated('dart-changed', (text) => text.replace(JSON.stringify(TRICKY), JSON.stringify(old)), 'dart');
    const run = await cli(['diff', ...options, '--format', 'dart', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`~ /custom/note: ${JSON.stringify(old)} -> ${JSON.stringify(TRICKY)}\n`);
  });

  test('a commented-out copy of the constant above the real one is not read: each differing pointer is reported', async () => {
    const { file, options } = await generated('dart-commented', (text) => {
      const real = text.replace(JSON.stringify(TRICKY), '"old note"').replace('"backend-files"', '"old-bucket"');
      // The copy in the comment is what generate writes now; the constant Dart compiles is stale.
      return `/* previous version:\n${text}*/\n${real}`;
    }, 'dart');
    const run = await cli(['diff', ...options, '--format', 'dart', file]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toEqual(expect.arrayContaining([
      '~ /storage/bucket_name: "old-bucket" -> "backend-files"',
      `~ /custom/note: "old note" -> ${JSON.stringify(TRICKY)}`,
      LAYOUT_LINE,
    ]));
    expect(lines).toHaveLength(3);
    expect(run.stderr).toBe(`vendor-outputs diff: ${file} is stale: generate would change it (3 difference(s), stack Backend)\n`);
  });

  test('a Dart file that is not what the format writes: exit 1 naming file and line', async () => {
    const { file, options } = await generated('dart-other', (text) => text.replace("const vendorConfig = r'''", "final config = '''"), 'dart');
    const run = await cli(['diff', ...options, '--format', 'dart', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`vendor-outputs diff: cannot compare: ${file}:2: not a Dart client configuration as vendor-outputs writes it: `
      + "expected the line const vendorConfig = r'''{...}'''; (the JSON in a raw Dart string)\n");
  });

  test('invalid JSON inside the Dart constant is located in the Dart file', async () => {
    const { file, options } = await generated('dart-invalid', (text) => text.replace('"version": "1",', '"version": 1 2,'), 'dart');
    const run = await cli(['diff', ...options, '--format', 'dart', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^vendor-outputs diff: cannot compare: ${file.replace(/[.\\]/g, '\\$&')}:4:16: not valid JSON: `));
  });

  test('a rebuilt document that a raw Dart string cannot hold: exit 1, cannot compare', async () => {
    const { dir, options } = deployedOffline('dart-quotes', { Note: "a'''b" });
    const run = await cli(['diff', ...options, '--format', 'dart', path.join(dir, 'vendor_outputs.dart')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("vendor-outputs diff: cannot compare: --format dart: the value at /custom/note contains ''' (three single quotes), "
      + "which a raw Dart string r'''...''' cannot hold; change that value or use --format json\n");
  });
});

describe('usage errors exit 2', () => {
  test.each([
    [['--outputs-file', 'o.json', '--out-dir', 'src'], 'diff writes nothing, so it takes no --out-dir: give the file to compare as FILE (default: ./vendor_outputs.json)'],
    [['--stack', 'S', 'a.json', 'b.json'], 'diff compares one FILE (got 2: a.json, b.json)'],
    [['--stack', 'S', '--format', 'yaml'], "--format must be one of json, dart (got 'yaml')"],
    [['--app-id', 'd123', '--stack-x'], "Unknown option '--stack-x'"],
    [['--app-id', 'd123'], '--app-id needs --branch NAME'],
    [['--stack', 'S', '--json=yes'], "Option '--json' does not take an argument"],
  ])('diff %j', async (args, message) => {
    const run = await cli(['diff', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`vendor-outputs diff: ${message}`);
    expect(run.stderr).toContain("Run 'vendor-outputs diff --help' for usage.");
    expect(run.stdout).toBe('');
  });
});

test('--help lists the exit codes with a CI example', async () => {
  const run = await cli(['diff', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('  0  FILE is up to date');
  expect(run.stdout).toContain('  1  FILE is stale');
  expect(run.stdout).toContain('  1  could not compare (stderr says "cannot compare: ...")');
  expect(run.stdout).toContain('  2  usage error');
  expect(run.stdout).toContain('vendor-outputs diff --stack MyBackend || {');
  const overview = await cli(['--help']);
  expect(overview.stdout).toMatch(/^ {2}diff +Show what generate would change/m);
});

describe('online, against a local CloudFormation', () => {
  function online(args: string[], variables: Record<string, string> = {}) {
    return cli(['diff', ...(Object.keys(variables).length > 0 ? [] : ['--stack', 'Backend']), ...args], {
      env: {
        ...variables,
        AWS_ENDPOINT_URL: undefined,
        ...fakeAwsEnv(endpoint, tmp),
      },
    });
  }

  test('equal after generate, then stale once the deployed bucket changes', async () => {
    fake.stacks = [{ name: 'Backend', template, outputs: outputs() }];
    const { file } = await generated('online');
    const equal = await online([file]);
    expect(equal.stderr).toBe(`vendor-outputs diff: ${file} is up to date (stack Backend)\n`);
    expect(equal.code).toBe(0);
    expect(fake.actions()).toEqual(['DescribeStacks', 'GetTemplateSummary']);

    fake.stacks = [{ name: 'Backend', template, outputs: outputs({ [Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!]: 'backend-files-v2' }) }];
    const stale = await online([file]);
    expect(stale.stdout).toBe('~ /storage/bucket_name: "backend-files" -> "backend-files-v2"\n');
    expect(stale.code).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toContain('"bucket_name": "backend-files"');
  });

  test("in a hosted build, the stack of the build's app id and branch, with stderr naming the variables", async () => {
    fake.stacks = [
      { name: 'Other', template, outputs: outputs({ Note: 'other' }), tags: { 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': 'dev' } },
      { name: 'Backend', template, outputs: outputs(), tags: { 'vendor-outputs:app-id': 'd123', 'vendor-outputs:branch': 'main' } },
    ];
    const { file } = await generated('hosted');
    const run = await online([file], { AWS_APP_ID: 'd123', AWS_BRANCH: 'main' });
    expect(run.stderr).toBe([
      'vendor-outputs diff: using app id d123 (AWS_APP_ID) and branch main (AWS_BRANCH)',
      `vendor-outputs diff: ${file} is up to date (stack Backend)`,
      '',
    ].join('\n'));
    expect(run.code).toBe(0);
    const stale = await online([file], { AWS_APP_ID: 'd123', AWS_BRANCH: 'dev' });
    expect(stale.stdout).toBe(`~ /custom/note: ${JSON.stringify(TRICKY)} -> "other"\n`);
    expect(stale.code).toBe(1);
  });

  test('a stack CloudFormation does not know: exit 1, cannot compare', async () => {
    fake.stacks = [];
    const { dir } = deployedOffline('online-missing');
    const run = await online([path.join(dir, 'vendor_outputs.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^vendor-outputs diff: cannot compare: .*Backend/);
  });
});
