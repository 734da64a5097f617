/**
 * Every TypeScript block of README.md type-checks and runs against the built library (lib/, which
 * the build's compile step writes before the tests): whole programs and `stack` fragments
 * synthesize and write their vendor_outputs.json, frontend blocks configure the placeholder client
 * library with the REST section. How a block is run is said by a marker before it (readme/blocks.ts).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { readmeBlocks, ReadmeBlock } from './readme/blocks';
import { CLIENT_PACKAGE, FRONTEND_OUTPUTS, stackProgram, VENDOR_CLIENT } from './readme/fixtures';

const ROOT = path.join(__dirname, '..');
const BLOCKS = readmeBlocks(path.join(ROOT, 'README.md'));

let work: string;
let diagnostics: Map<ReadmeBlock, string[]>;

function writeFiles(dir: string, files: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), text);
  }
}

function blockDir(block: ReadmeBlock): string {
  return path.join(work, `line-${block.line}`);
}

/** A temporary project: the built library, its peers, the placeholder packages, one folder per block. */
function createProject(libraryExports: string[]): string[] {
  const modules = path.join(work, 'node_modules');
  fs.mkdirSync(modules);
  fs.symlinkSync(ROOT, path.join(modules, 'cdk-vendor-outputs'), 'dir');
  // The peers, and the Amplify packages a user installs for ModelIntrospection and AmplifyGraphqlApi.
  fs.mkdirSync(path.join(modules, '@aws-amplify'));
  for (const peer of ['aws-cdk-lib', 'constructs', '@aws-amplify/graphql-api-construct', '@aws-amplify/graphql-generator']) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', peer), path.join(modules, peer), 'dir');
  }
  writeFiles(path.join(modules, 'vendor-client'), VENDOR_CLIENT);
  writeFiles(path.join(modules, 'cdk-vendor-outputs-client'), CLIENT_PACKAGE);
  fs.writeFileSync(path.join(work, 'schema.graphql'), 'type Query {\n  ping: String\n}\n');
  return BLOCKS.map((block) => {
    const dir = blockDir(block);
    const code = block.kind === 'stack' ? stackProgram(block.code, libraryExports) : block.code;
    // An Amplify-style schema where a block reads 'schema.graphql' from its working directory.
    writeFiles(dir, { 'app.ts': code, 'schema.graphql': 'type Todo @model @auth(rules: [{ allow: public }]) {\n  id: ID!\n  content: String\n}\n' });
    if (block.kind === 'frontend') {
      writeFiles(dir, { 'vendor_outputs.json': JSON.stringify(FRONTEND_OUTPUTS, null, 2) });
    }
    return path.join(dir, 'app.ts');
  });
}

/** Type-checks every block in one program and writes app.js next to each app.ts. */
function compile(files: string[]): Map<ReadmeBlock, string[]> {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    lib: ['lib.es2022.d.ts'],
    strict: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
  });
  const emitted = program.emit();
  const all = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  const byBlock = new Map<ReadmeBlock, string[]>();
  BLOCKS.forEach((block, i) => {
    const messages = all.filter((d) => d.file?.fileName === files[i]).map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      const text = d.file!.text.split('\n')[line].trim();
      return `${ts.flattenDiagnosticMessageText(d.messageText, '\n')} (at: ${text})`;
    });
    byBlock.set(block, messages);
  });
  const elsewhere = all.filter((d) => d.file === undefined || !files.includes(d.file.fileName));
  if (elsewhere.length > 0) {
    throw new Error(ts.formatDiagnostics(elsewhere, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => work, getNewLine: () => '\n' }));
  }
  return byBlock;
}

beforeAll(() => {
  const library = path.join(ROOT, 'lib', 'index.js');
  if (!fs.existsSync(library) || !fs.existsSync(path.join(ROOT, 'lib', 'client', 'index.js'))) {
    throw new Error('lib/ is missing: the README blocks run against the built library (npx projen compile)');
  }
  // The library's exported names, read in a child process (aws-cdk-lib stays out of jest's).
  const listed = spawnSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(library)}))))`], { encoding: 'utf8' });
  const libraryExports = (JSON.parse(listed.stdout) as string[]).filter((name) => /^[A-Z]/.test(name));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-blocks-'));
  diagnostics = compile(createProject(libraryExports));
}, 180_000);

afterAll(() => {
  if (work !== undefined) {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('README.md has TypeScript blocks of every kind', () => {
  expect(BLOCKS.filter((b) => b.kind === 'program').length).toBeGreaterThan(0);
  expect(BLOCKS.filter((b) => b.kind === 'stack').length).toBeGreaterThan(0);
  expect(BLOCKS.filter((b) => b.kind === 'frontend').length).toBeGreaterThan(0);
});

describe.each(BLOCKS.map((block) => [`README.md:${block.line} (${block.kind})`, block] as const))('%s', (_, block) => {
  test('type-checks against lib/', () => {
    expect(diagnostics.get(block)).toEqual([]);
  });

  test(block.kind === 'frontend' ? 'configures the client library with the REST section' : 'synthesizes', () => {
    const dir = blockDir(block);
    const outdir = path.join(dir, 'cdk.out');
    const run = spawnSync(process.execPath, ['app.js'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      // As under `cdk synth`: CDK_OUTDIR makes the App synthesize when the program ends.
      env: { ...process.env, CDK_OUTDIR: outdir, CDK_DISABLE_VERSION_CHECK: 'true' },
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    if (block.kind === 'frontend') {
      const configured = JSON.parse(/^CONFIGURED (.*)$/m.exec(run.stdout)?.[1] ?? 'null');
      expect(configured.API.REST.items).toEqual({ endpoint: FRONTEND_OUTPUTS.custom.api_endpoint, region: 'eu-west-1' });
    } else {
      // A cloud assembly with its templates (a block that adds no outputs writes no vendor_outputs.json).
      expect(fs.existsSync(path.join(outdir, 'manifest.json'))).toBe(true);
      expect(fs.readdirSync(outdir).filter((name) => name.endsWith('.template.json')).length).toBeGreaterThan(0);
    }
  });
});
