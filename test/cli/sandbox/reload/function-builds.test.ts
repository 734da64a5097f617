/**
 * FunctionBuilds on a real folder with the real esbuild: what a change needs (a rebuild of the
 * builds that read the file, a copy of a folder asset, or a synth and why), and rebuilds that
 * write a new folder or report a compile error with file, line and column.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildSync } from 'esbuild';
import type { FunctionSpec } from '../../../../src/cli/local/model/function-spec';
import type { LocalApp } from '../../../../src/cli/local/model/local-app';
import { AssetCopy, BuildRecord, fileDigest } from '../../../../src/cli/sandbox/reload/build-record';
import { FunctionBuild, FunctionBuilds } from '../../../../src/cli/sandbox/reload/function-builds';

let root: string;
let builds: FunctionBuilds;
let newDirs = 0;
const newDir = () => path.join(root, 'out', `rebuild-${++newDirs}`);

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

function fn(key: string, directory: string): FunctionSpec {
  return { key, logicalId: key, stackName: 'S', constructPath: `S/${key}`, functionName: key, runtime: 'nodejs20.x', handler: 'index.handler', code: { kind: 'directory', directory }, environment: {}, timeoutSeconds: 3, memoryMb: 128, region: 'us-east-1' };
}

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-function-builds-')));
  fs.symlinkSync(path.join(__dirname, '..', '..', '..', '..', 'node_modules'), path.join(root, 'node_modules'));
  write('lambda/items.ts', "import { label } from './shared';\nexport const handler = async () => label('items');\n");
  write('lambda/shared.ts', 'export const label = (x: string) => `v1:${x}`;\n');
  write('lambda/other.ts', 'export const handler = async () => 1;\n');
  write('bin/app.ts', '// the app\n');
  write('folder/index.js', 'exports.handler = async () => 1;\n');
  // What the synth did: an esbuild run staged into asset.items, a folder copied into asset.folder.
  const command = `npx --no-install esbuild --bundle "${root}/lambda/items.ts" --target=node20 --platform=node --outfile="${root}/out/asset.items/index.js" --external:@aws-sdk/*`;
  buildSync({ entryPoints: [`${root}/lambda/items.ts`], bundle: true, target: 'node20', platform: 'node', outfile: `${root}/out/asset.items/index.js`, external: ['@aws-sdk/*'], logLevel: 'silent' });
  fs.cpSync(path.join(root, 'folder'), path.join(root, 'out', 'asset.folder'), { recursive: true });
  const records: BuildRecord[] = [{ command, cwd: root, outfile: `${root}/out/asset.items/index.js`, outputDigest: fileDigest(`${root}/out/asset.items/index.js`)! }];
  const copies: AssetCopy[] = [{ source: path.join(root, 'folder'), staged: path.join(root, 'out', 'asset.folder') }];
  const app = { functions: new Map([['Items', fn('Items', `${root}/out/asset.items`)], ['Folder', fn('Folder', `${root}/out/asset.folder`)]]) } as unknown as LocalApp;
  builds = FunctionBuilds.create(root)!;
  builds.update(app, { builds: records, copies, appModules: [path.join(root, 'bin/app.ts')] });
});

afterAll(async () => {
  await builds.close();
  fs.rmSync(root, { recursive: true, force: true });
});

test.each([
  ['lambda/items.ts', ['Items']],
  ['lambda/shared.ts', ['Items']],
  ['folder/index.js', ['Folder']],
])('a change of %s rebuilds %j without a synth', async (file, keys) => {
  const plan = await builds.plan([file]);
  expect(plan.kind).toBe('rebuild');
  expect(plan.kind === 'rebuild' && plan.builds.flatMap((b) => b.functionKeys)).toEqual(keys);
});

test.each([
  ['bin/app.ts', 'bin/app.ts is part of the app'],
  ['lambda/other.ts', "lambda/other.ts is in no function's build"],
  ['lambda/gone.ts', 'lambda/gone.ts was removed'],
])('a change of %s needs a synth: %s', async (file, reason) => {
  expect(await builds.plan([file])).toEqual({ kind: 'synth', reason });
});

test('a batch with one file no build reads needs a synth', async () => {
  expect(await builds.plan(['lambda/items.ts', 'lambda/other.ts'])).toEqual({ kind: 'synth', reason: "lambda/other.ts is in no function's build" });
});

test('a rebuild writes the new bundle into a new folder and serves it from there', async () => {
  write('lambda/shared.ts', 'export const label = (x: string) => `v2:${x}`;\n');
  const plan = await builds.plan(['lambda/shared.ts']);
  const [outcome] = await builds.rebuild(plan.kind === 'rebuild' ? plan.builds : [], newDir);
  expect(outcome.ok).toBe(true);
  const dir = (outcome as { dir: string }).dir;
  expect(outcome.build.servedDir).toBe(dir);
  expect(fs.readFileSync(path.join(dir, 'index.js'), 'utf8')).toContain('v2:');
  expect(fs.readFileSync(path.join(root, 'out', 'asset.items', 'index.js'), 'utf8')).toContain('v1:');
});

test('a folder asset is copied again into a new folder', async () => {
  write('folder/index.js', 'exports.handler = async () => 2;\n');
  const plan = await builds.plan(['folder/index.js']);
  const [outcome] = await builds.rebuild(plan.kind === 'rebuild' ? plan.builds : [], newDir);
  expect(outcome.ok).toBe(true);
  expect(fs.readFileSync(path.join((outcome as { dir: string }).dir, 'index.js'), 'utf8')).toBe('exports.handler = async () => 2;\n');
});

test('a handler that does not compile: the error with file, line, column and the line; the build keeps its inputs', async () => {
  write('lambda/items.ts', "import { label } from './shared';\nexport const handler = async () => label('items' +);\n");
  const plan = await builds.plan(['lambda/items.ts']);
  const [outcome] = await builds.rebuild(plan.kind === 'rebuild' ? plan.builds : [], newDir);
  expect(outcome).toEqual({ ok: false, build: expect.anything(), message: 'lambda/items.ts:2:51: error: Unexpected ")"\n    export const handler = async () => label(\'items\' +);' });
  expect((await builds.plan(['lambda/shared.ts'])).kind).toBe('rebuild');
});

test('the next synth, which bundles into a new assembly folder, keeps the build and its esbuild context', async () => {
  write('lambda/items.ts', "import { label } from './shared';\nexport const handler = async () => label('items');\n");
  const before = await builds.plan(['lambda/items.ts']);
  const outfile = `${root}/out2/asset.items/index.js`;
  buildSync({ entryPoints: [`${root}/lambda/items.ts`], bundle: true, target: 'node20', platform: 'node', outfile, external: ['@aws-sdk/*'], logLevel: 'silent' });
  const command = `npx --no-install esbuild --bundle "${root}/lambda/items.ts" --target=node20 --platform=node --outfile="${outfile}" --external:@aws-sdk/*`;
  const app = { functions: new Map([['Items', fn('Items', `${root}/out2/asset.items`)]]) } as unknown as LocalApp;
  builds.update(app, { builds: [{ command, cwd: root, outfile, outputDigest: fileDigest(outfile)! }], copies: [], appModules: [path.join(root, 'bin/app.ts')] });
  const after = await builds.plan(['lambda/items.ts']);
  expect(before.kind === 'rebuild' && after.kind === 'rebuild').toBe(true);
  const [kept] = (after as { builds: readonly FunctionBuild[] }).builds;
  expect(kept).toBe((before as { builds: readonly FunctionBuild[] }).builds[0]);
  expect(kept.servedDir).toBe(`${root}/out2/asset.items`);
  const [outcome] = await builds.rebuild([kept], newDir);
  expect(outcome.ok && fs.readFileSync(path.join(outcome.dir, 'index.js'), 'utf8')).toContain('`v2:${x}`');
});
