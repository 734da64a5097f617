/**
 * The package's entry points (package.json `exports`), resolved the way an installed copy is: from
 * a project whose node_modules/cdk-vendor-outputs is this repository with its built lib/. Node's
 * ESM loader refuses folder imports (ERR_UNSUPPORTED_DIR_IMPORT) and TypeScript's node16/nodenext
 * resolution follows `exports` only, so each subpath must be declared.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..');
let project: string;

function node(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
}

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'lib', 'client', 'index.js'))) {
    throw new Error('lib/ is missing: the entry points are checked against the built library (npx projen compile)');
  }
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'package-exports-'));
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(project, 'node_modules', 'cdk-vendor-outputs'), 'dir');
});

afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

test('an ES module imports the client helper, the schema and the old lib/client path', () => {
  const script = [
    "import { toRestConfig } from 'cdk-vendor-outputs/client';",
    "import * as old from 'cdk-vendor-outputs/lib/client';",
    "import schema from 'cdk-vendor-outputs/schema' with { type: 'json' };",
    'console.log(JSON.stringify([typeof toRestConfig, typeof old.toRestConfig, schema.$id]));',
  ].join('\n');
  const run = node(['--input-type=module', '--no-warnings', '-e', script]);
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual(['function', 'function', 'https://cdk-vendor-outputs.example/schemas/2024-02/vendor_outputs.schema.json']);
});

test('require() resolves the main entry, the client helper, the schema, .jsii and package.json', () => {
  const script = `console.log(JSON.stringify(${JSON.stringify(['cdk-vendor-outputs', 'cdk-vendor-outputs/client', 'cdk-vendor-outputs/schema', 'cdk-vendor-outputs/.jsii', 'cdk-vendor-outputs/package.json'])}.map((s) => require('path').relative(${JSON.stringify(ROOT)}, require.resolve(s)))))`;
  const run = node(['-e', script]);
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual(['lib/index.js', 'lib/client/index.js', 'schema/vendor-outputs.schema.json', '.jsii', 'package.json']);
});

test('paths inside the package that are not entry points are refused', () => {
  const run = node(['-e', "require('cdk-vendor-outputs/lib/outputs/merge')"]);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  expect(run.stderr).toContain("Package subpath './lib/outputs/merge' is not defined by \"exports\"");
});

test.each([
  ['nodenext', ts.ModuleKind.NodeNext, ts.ModuleResolutionKind.NodeNext],
  ['node16', ts.ModuleKind.Node16, ts.ModuleResolutionKind.Node16],
  ['node (typesVersions)', ts.ModuleKind.CommonJS, ts.ModuleResolutionKind.Node10],
  ['bundler', ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler],
])('TypeScript with moduleResolution %s finds the client helper\'s types', (_, module, moduleResolution) => {
  const file = path.join(project, `client-${moduleResolution}.ts`);
  fs.writeFileSync(file, [
    "import { toRestConfig, RestConfig } from 'cdk-vendor-outputs/client';",
    "const rest: RestConfig = toRestConfig({ version: '1' });",
    '// @ts-expect-error the options are typed, so the helper\'s declarations were found',
    'toRestConfig({}, { defaultRegion: 42 });',
    'export { rest };',
  ].join('\n'));
  const program = ts.createProgram([file], { module, moduleResolution, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true, types: [], ignoreDeprecations: '6.0' });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(problems).toEqual([]);
});
