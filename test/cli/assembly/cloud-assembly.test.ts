/**
 * The one cloud-assembly reader (src/cli/assembly) that generate and serve share: assemblies
 * synthesized by the aws-cdk-lib floor this repository tests with (2.189.1, metadata inline in
 * manifest.json) and by the newest 2.x (a committed fixture, test/fixtures/cdk-latest, whose
 * construct metadata is in the file named by `additionalMetadataFile`), and broken manifests.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack, Stage } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { readCloudAssembly, readTemplate } from '../../../src/cli/assembly/cloud-assembly';
import { readConstructPaths } from '../../../src/cli/assembly/construct-paths';
import { CliError } from '../../../src/cli/command';
import { readLocalApp } from '../../../src/cli/local/read-local-app';
import { ROOT, runCli } from '../../support/cli';
import { evaluateOutputs } from '../../support/fake-cloudformation';
import { startCli } from '../local/support';

const LATEST = path.join(ROOT, 'test', 'fixtures', 'cdk-latest', 'assembly');
const LATEST_VERSION = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'cdk-latest', 'VERSION'), 'utf8').trim();

let tmp: string;
let floor: string;

/** The same backend shape as the fixture's synthesize.js, with the installed (floor) aws-cdk-lib. */
function backend(scope: App | Stage, id: string): void {
  const stack = new Stack(scope, id);
  const handler = new lambda.Function(stack, 'Handler', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: "ok" });'),
  });
  new apigateway.LambdaRestApi(stack, 'Api', { handler, cloudWatchRole: false });
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assembly-reader-'));
  floor = path.join(tmp, 'floor.out');
  const app = new App({ outdir: floor });
  backend(app, 'Backend');
  backend(new Stage(app, 'Prod'), 'Backend');
  app.synth();
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A copy of an assembly folder, to break. */
function copyOf(source: string, name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(source, dir, { recursive: true });
  return dir;
}

function editManifest(dir: string, edit: (manifest: any) => void): void {
  const file = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(manifest);
  fs.writeFileSync(file, JSON.stringify(manifest));
}

function handlerId(template: any): string {
  return Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::Lambda::Function')!;
}

describe.each([
  ['the floor (2.189.1, metadata inline in manifest.json)', () => floor, 'inline'],
  [`the newest aws-cdk-lib (${LATEST_VERSION}, additionalMetadataFile)`, () => LATEST, 'file'],
])('an assembly synthesized by %s', (_, dir, where) => {
  test('lists both stacks with CDK\'s names: stack name, else artifact id; display name', () => {
    const assembly = readCloudAssembly(dir());
    expect(assembly.stacks.map((s) => [s.artifactId, s.stackName, s.displayName, s.region]).sort()).toEqual([
      ['Backend', 'Backend', 'Backend', undefined],
      ['ProdBackend8E824F82', 'Prod-Backend', 'Prod/Backend', undefined],
    ]);
    expect(assembly.stacks).toHaveLength(2);
    for (const stack of assembly.stacks) {
      expect(where === 'file' ? stack.metadataFile : stack.inlineMetadata).toBeDefined();
      expect(where === 'file' ? stack.inlineMetadata : stack.metadataFile).toBeUndefined();
      expect(readTemplate(stack).Resources).toBeDefined();
    }
  });

  test('construct paths come from where this version writes them', () => {
    for (const stack of readCloudAssembly(dir()).stacks) {
      const paths = readConstructPaths(stack);
      expect(paths.get(handlerId(readTemplate(stack)))).toBe(`${stack.displayName}/Handler/Resource`);
    }
  });

  test('serve\'s reader names functions and APIs by construct path, not Stack/LogicalId', () => {
    const app = readLocalApp(dir(), ['Prod/Backend']);
    expect(app.stacks.map((s) => s.stackName)).toEqual(['Prod-Backend']);
    expect([...app.functions.values()].map((f) => f.constructPath)).toEqual(['Prod/Backend/Handler']);
    expect(app.apis.map((a) => a.constructPath)).toEqual(['Prod/Backend/Api']);
  });
});

test('serve lists the newest version\'s routes with construct paths', async () => {
  const cli = startCli(['serve', '--app', LATEST, '--stack', 'Backend', '--port', '0']);
  try {
    const out = await cli.waitFor('Press Ctrl+C to stop.');
    // The handler's runtime is nodejs22.x: it runs on Node.js 22 (fetched when the host is another major), so no note.
    expect(out).toMatch(/ANY +http:\/\/127\.0\.0\.1:\d+\/prod\/ +-> Backend\/Handler  \[NONE\]\n/);
    expect(out).toMatch(/ANY +http:\/\/127\.0\.0\.1:\d+\/prod\/\{proxy\+\} +-> Backend\/Handler  \[NONE\]\n/);
    expect(out).not.toContain(`-> Backend/${handlerId(JSON.parse(fs.readFileSync(path.join(LATEST, 'Backend.template.json'), 'utf8')))}`);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
});

describe('generate offline on the newest version\'s assembly', () => {
  function outputsFile(): string {
    const outputs: Record<string, Record<string, string>> = {};
    for (const stack of readCloudAssembly(LATEST).stacks) {
      const template = readTemplate(stack);
      const bucket = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
      outputs[stack.stackName] = evaluateOutputs(template, { 'AWS::Region': 'eu-west-1', [bucket]: `${stack.stackName.toLowerCase()}-files` });
    }
    const file = path.join(tmp, 'latest-outputs.json');
    fs.writeFileSync(file, JSON.stringify(outputs));
    return file;
  }

  test.each([
    [['--stack', 'Prod/Backend'], 'prod-backend-files'],
    [['--app-id', 'd-latest', '--branch', 'main'], 'backend-files'],
  ])('%j rebuilds the file', async (args, bucket) => {
    const dir = path.join(tmp, `latest-${bucket}`);
    const run = await runCli(['generate', '--outputs-file', outputsFile(), '--app', LATEST, ...args, '--out-dir', dir]);
    expect(run.stderr).toContain('3 deploy-time value(s) filled; sections: storage, custom');
    expect(run.code).toBe(0);
    const document = JSON.parse(fs.readFileSync(path.join(dir, 'vendor_outputs.json'), 'utf8'));
    expect(document.storage).toEqual({ vendor_region: 'eu-west-1', bucket_name: bucket });
    expect(document.custom.api_endpoint).toMatch(/^https:\/\/Api\w+-physical-id\.execute-api\.eu-west-1\.amazonaws\.com\/ApiDeploymentStageprod\w+-physical-id\/$/);
  });
});

describe('a nested assembly that contains itself', () => {
  test.each([
    ['points to its own folder', (dir: string) => {
      editManifest(dir, (m) => { m.artifacts['assembly-Loop'] = { type: 'cdk:cloud-assembly', properties: { directoryName: '.' } }; });
      return `${path.join(dir, 'manifest.json')}: artifact "assembly-Loop" is a nested assembly in ".", which is the assembly itself: a cloud assembly cannot contain itself`;
    }],
    ['points back to the assembly that contains it', (dir: string) => {
      editManifest(path.join(dir, 'assembly-Prod'), (m) => { m.artifacts['assembly-Up'] = { type: 'cdk:cloud-assembly', properties: { directoryName: '..' } }; });
      return `${path.join(dir, 'assembly-Prod', 'manifest.json')}: artifact "assembly-Up" is a nested assembly in "..", which is the enclosing assembly ${dir}: a cloud assembly cannot contain itself`;
    }],
  ])('(it %s) is one line, exit 1, for generate and serve', async (name, breakIt) => {
    const dir = copyOf(floor, `loop-${name.length}`);
    const message = breakIt(dir);
    expect(() => readCloudAssembly(dir)).toThrow(new CliError(message));
    fs.writeFileSync(path.join(tmp, 'empty-outputs.json'), '{}');
    const offline = await runCli(['generate', '--outputs-file', path.join(tmp, 'empty-outputs.json'), '--app', dir]);
    expect(offline.stderr).toBe(`vendor-outputs generate: ${message}\n`);
    expect(offline.code).toBe(1);
    const serve = await runCli(['serve', '--app', dir, '--port', '0']);
    expect(serve.stderr).toBe(`vendor-outputs serve: ${message}\n`);
    expect(serve.code).toBe(1);
  });
});

describe('a malformed manifest is one line naming the file and artifact', () => {
  test.each([
    ['artifacts that are a list', (m: any) => { m.artifacts = []; }, (dir: string) => `${path.join(dir, 'manifest.json')}: "artifacts" must be an object`],
    ['a stack without a template file', (m: any) => { delete m.artifacts.Backend.properties.templateFile; },
      (dir: string) => `${path.join(dir, 'manifest.json')}: artifact "Backend" is a stack without properties.templateFile`],
    ['a nested assembly without a folder', (m: any) => { delete m.artifacts['assembly-Prod'].properties.directoryName; },
      (dir: string) => `${path.join(dir, 'manifest.json')}: artifact "assembly-Prod" is a nested assembly without properties.directoryName`],
    ['a nested assembly in a missing folder', (m: any) => { m.artifacts['assembly-Prod'].properties.directoryName = 'gone'; },
      (dir: string) => `${path.join(dir, 'manifest.json')}: artifact "assembly-Prod" is a nested assembly in ${path.join(dir, 'gone')}, which has no manifest.json`],
  ])('%s', (name, edit, message) => {
    const dir = copyOf(floor, `bad-${name.replace(/\W+/g, '-')}`);
    editManifest(dir, edit);
    expect(() => readCloudAssembly(dir)).toThrow(new CliError(message(dir)));
  });

  test('manifest.json that is not JSON', () => {
    const dir = copyOf(floor, 'bad-json');
    fs.writeFileSync(path.join(dir, 'manifest.json'), '{ nope');
    expect(() => readCloudAssembly(dir)).toThrow(`${path.join(dir, 'manifest.json')} is not valid JSON:`);
  });

  test('a missing additionalMetadataFile stops serve\'s reader, not generate\'s', () => {
    const dir = copyOf(LATEST, 'no-metadata-file');
    fs.rmSync(path.join(dir, 'Backend.metadata.json'));
    const stack = readCloudAssembly(dir).stacks.find((s) => s.stackName === 'Backend')!;
    expect(readTemplate(stack).Metadata).toBeDefined();
    expect(() => readLocalApp(dir, ['Backend'])).toThrow(new CliError(`cannot read stack Backend's metadata file ${path.join(dir, 'Backend.metadata.json')}: ENOENT`));
  });
});
