import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack, Stage } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { VendorOutputs } from '../../src';

let tmp: string;
let outdir: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-failed-synth-'));
  outdir = path.join(tmp, 'cdk.out');
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const storage = { vendorRegion: 'eu-west-1', bucketName: 'my-bucket' };

/** A construct of someone else's whose validation fails, as aws-cdk-lib's own constructs do. */
class Broken extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.node.addValidation({ validate: () => ['this construct is misconfigured'] });
  }
}

function backend(scope: Construct, id: string, frontendFile?: string): Stack {
  const stack = new Stack(scope, id, { env: { region: 'eu-west-1' } });
  VendorOutputs.of(stack).addOutput({ storage });
  if (frontendFile !== undefined) {
    VendorOutputs.of(stack).writeFinalFileTo(frontendFile);
  }
  return stack;
}

/** Every vendor_outputs file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) {
    return [];
  }
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('vendor_outputs.json')).sort();
}

function synthError(app: App): string {
  try {
    app.synth();
  } catch (error) {
    return (error as Error).message;
  }
  return 'synth did not fail';
}

describe('a failed synth writes no vendor_outputs file anywhere', () => {
  test('a sibling construct in the same stack fails validation', () => {
    const app = new App({ outdir });
    const frontend = path.join(tmp, 'frontend', 'vendor_outputs.json');
    const stack = backend(app, 'Backend', frontend);
    new Broken(stack, 'Broken');
    expect(synthError(app)).toContain('[Backend/Broken] this construct is misconfigured');
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('a construct in another stack of the app fails validation', () => {
    const app = new App({ outdir });
    const frontend = path.join(tmp, 'frontend', 'vendor_outputs.json');
    backend(app, 'Backend', frontend);
    new Broken(new Stack(app, 'Other'), 'Broken');
    expect(synthError(app)).toContain('[Other/Broken] this construct is misconfigured');
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('a backend in a nested stage, and a failure in a stack of the app (synthesized after the stage)', () => {
    const app = new App({ outdir });
    backend(new Stage(app, 'Prod'), 'Backend', path.join(tmp, 'frontend', 'vendor_outputs.json'));
    new Broken(new Stack(app, 'Other'), 'Broken');
    expect(synthError(app)).toContain('[Other/Broken] this construct is misconfigured');
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('a backend in the app, and a failure inside a nested stage', () => {
    const app = new App({ outdir });
    backend(app, 'Backend', path.join(tmp, 'frontend', 'vendor_outputs.json'));
    new Broken(new Stack(new Stage(app, 'Prod'), 'Other'), 'Broken');
    expect(synthError(app)).toContain('[Prod/Other/Broken] this construct is misconfigured');
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('when everything validates, every backend of every stage is written, with its final copy', () => {
    const app = new App({ outdir });
    backend(app, 'Backend', path.join(tmp, 'frontend', 'vendor_outputs.json'));
    const prod = backend(new Stage(app, 'Prod'), 'Backend', path.join(tmp, 'prod-frontend', 'vendor_outputs.json'));
    app.synth();
    expect(filesUnder(tmp)).toEqual([
      'cdk.out/Backend.vendor_outputs.json',
      `cdk.out/assembly-Prod/${prod.artifactId}.vendor_outputs.json`,
      'frontend/vendor_outputs.json',
      'prod-frontend/vendor_outputs.json',
    ]);
  });
});

describe('writeFinalFileTo', () => {
  test('two stacks writing to the same file fail the synth naming both, and nothing is written', () => {
    const app = new App({ outdir });
    const target = path.join(tmp, 'frontend', 'vendor_outputs.json');
    backend(app, 'One', target);
    const cwd = process.cwd();
    process.chdir(tmp);
    try {
      backend(app, 'Two', path.join('frontend', '.', 'vendor_outputs.json'));
    } finally {
      process.chdir(cwd);
    }
    expect(synthError(app)).toContain(`[Two/VendorOutputs.Collector] writeFinalFileTo: stacks One and Two both write their final file to ${target} `
      + '(asked by One and Two); give each backend its own file');
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('the same file reached through a symbolic link is the same file', () => {
    const app = new App({ outdir });
    fs.mkdirSync(path.join(tmp, 'frontend'));
    fs.symlinkSync(path.join(tmp, 'frontend'), path.join(tmp, 'web'));
    backend(app, 'One', path.join(tmp, 'frontend', 'vendor_outputs.json'));
    backend(app, 'Two', path.join(tmp, 'web', 'vendor_outputs.json'));
    expect(synthError(app)).toContain(`writeFinalFileTo: stacks One and Two both write their final file to ${path.join(tmp, 'web', 'vendor_outputs.json')}`);
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('the same file from stacks in different stages is refused too', () => {
    const app = new App({ outdir });
    const target = path.join(tmp, 'vendor_outputs.json');
    backend(app, 'Backend', target);
    backend(new Stage(app, 'Prod'), 'Backend', target);
    expect(synthError(app)).toContain(`writeFinalFileTo: stacks Backend and Prod/Backend both write their final file to ${target}`);
    expect(filesUnder(tmp)).toEqual([]);
  });

  test('a backend has one final file: another path is refused at the call, the same one again is fine', () => {
    const app = new App({ outdir });
    const stack = backend(app, 'Backend', path.join(tmp, 'a.json'));
    const web = new Construct(stack, 'Web');
    expect(() => VendorOutputs.of(web).writeFinalFileTo(path.join(tmp, 'a.json'))).not.toThrow();
    expect(() => VendorOutputs.of(web).writeFinalFileTo(path.join(tmp, 'b.json')))
      .toThrow(`Backend/Web: writeFinalFileTo(${JSON.stringify(path.join(tmp, 'b.json'))}): stack Backend already writes its final file to ${path.join(tmp, 'a.json')} (asked by Backend); a backend has one final file`);
  });

  test.each([
    ['an empty path', () => '', () => 'Backend: writeFinalFileTo needs the path of a file, e.g. \'../frontend/vendor_outputs.json\' (got "")'],
    ['a blank path', () => '  ', () => 'Backend: writeFinalFileTo needs the path of a file, e.g. \'../frontend/vendor_outputs.json\' (got "  ")'],
    ['a NUL byte', () => 'out\0.json', () => 'Backend: writeFinalFileTo needs the path of a file, e.g. \'../frontend/vendor_outputs.json\'; a path cannot contain a NUL byte (got "out\\u0000.json")'],
    ['a folder', () => tmp, () => `Backend: writeFinalFileTo needs the path of a file, e.g. '../frontend/vendor_outputs.json'; ${tmp} is a folder`],
    ['a path ending with a separator', () => path.join(tmp, 'new') + path.sep, () => `Backend: writeFinalFileTo needs the path of a file, e.g. '../frontend/vendor_outputs.json'; ${path.join(tmp, 'new')} is a folder`],
    ['a path under a file', () => {
      fs.writeFileSync(path.join(tmp, 'file'), 'x');
      return path.join(tmp, 'file', 'sub', 'vendor_outputs.json');
    }, () => `Backend: writeFinalFileTo needs the path of a file, e.g. '../frontend/vendor_outputs.json'; ${path.join(tmp, 'file')} is a file, not a folder, so ${path.join(tmp, 'file', 'sub', 'vendor_outputs.json')} cannot be created`],
  ])('%s fails at the call', (_, filePath, message) => {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Backend');
    expect(() => VendorOutputs.of(stack).writeFinalFileTo(filePath())).toThrow(message());
  });

  test('a token fails at the call', () => {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Backend');
    expect(() => VendorOutputs.of(stack).writeFinalFileTo(stack.region))
      .toThrow(/^Backend: writeFinalFileTo needs a path known at synth \(got the token \$\{Token\[AWS\.Region\.\d+\]\}\)$/);
  });
});
