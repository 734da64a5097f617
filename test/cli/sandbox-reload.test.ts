/**
 * `vendor-outputs sandbox` reloading a TypeScript CDK app shaped as `cdk init` makes it (tsx or
 * ts-node, three NodejsFunctions bundled by the project's esbuild): handler edits are rebuilt
 * without a synth, stack edits go through the warm synth process, an app command it does not know
 * (or a warm process that dies) is synthesized cold, said once. Real synthesis, the compiled CLI,
 * real HTTP on 127.0.0.1.
 */
import * as fs from 'fs';
import * as path from 'path';
import { createProject, SandboxProcess, startSandbox } from './sandbox/project';
import { createTsProject, TsProject } from './sandbox/ts-project';

jest.setTimeout(180_000);

const ENV = { AWS_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true' };

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

/** Starts the sandbox in the project and returns it with the stage's base URL. */
async function start(project: TsProject): Promise<{ sandbox: SandboxProcess; base: string; startText: string }> {
  const sandbox = startSandbox(['--port', '0', '--quiet'], project.dir, ENV);
  const startText = await sandbox.waitFor('Press Ctrl+C to stop.', { ms: 120_000 });
  const base = /GET +(http:\/\/127\.0\.0\.1:\d+\/dev\/)items +-> SandboxTsStack\/ItemsFunction/.exec(startText)![1];
  return { sandbox, base, startText };
}

async function stop(sandbox: SandboxProcess): Promise<void> {
  sandbox.child.kill('SIGINT');
  expect(await sandbox.exited).toEqual({ code: 0, signal: null });
}

const synthLines = (text: string) => text.match(/synthesizing\.\.\./g) ?? [];

describe('a tsx app (npx tsx bin/app.ts)', () => {
  let project: TsProject;
  beforeAll(() => { project = createTsProject('tsx'); });
  afterAll(() => project.remove());

  test('handler and bundled-module edits are rebuilt without a synth; a stack edit goes through the warm synth', async () => {
    const { sandbox, base, startText } = await start(project);
    try {
      expect(startText).not.toContain('Synthesizing cold');
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 1, label: 'v1:item' } });
      // The SDK import is left external by NodejsFunction and found in the project's node_modules.
      expect(await getJson(`${base}stacks`)).toEqual({ status: 200, body: { sdk: 'function', region: 'us-east-1' } });

      // The handler: rebuilt alone, no synth, the new code answers.
      let mark = sandbox.stdout().length;
      project.writeItemsHandler(2);
      // (Lines of the functions' logs may come between these.)
      await sandbox.waitFor('Changed: lambda/items.ts; rebuilding SandboxTsStack/ItemsFunction (no synth)...\n', { from: mark });
      await sandbox.waitFor(/Rebuilt SandboxTsStack\/ItemsFunction in \d+ ms, no synth\.\n/, { from: mark });
      await sandbox.waitFor('  ~ function SandboxTsStack/ItemsFunction reloaded\n', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 2, label: 'v1:item' } });

      // A local module the handler's bundle includes: the same.
      mark = sandbox.stdout().length;
      project.writeFormat('v2');
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 2, label: 'v2:item' } });

      // A new module, then an import of it: the new file is in no build (a synth, warm), the
      // handler that imports it is rebuilt and its build now lists the new module.
      mark = sandbox.stdout().length;
      project.write('lambda/shared/shout.ts', 'export const format = (name: string): string => name.toUpperCase();\n');
      await sandbox.waitFor('Changed: lambda/shared/shout.ts; synthesizing... (lambda/shared/shout.ts is in no function\'s build; synth 2, warm)\n', { from: mark });
      await sandbox.waitFor('Reloaded in', { from: mark });
      mark = sandbox.stdout().length;
      project.writeItemsHandler(3, './shared/shout');
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 3, label: 'ITEM' } });
      mark = sandbox.stdout().length;
      project.write('lambda/shared/shout.ts', 'export const format = (name: string): string => `${name.toUpperCase()}!`;\n');
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 3, label: 'ITEM!' } });

      // The stack: a new route through the warm synth.
      mark = sandbox.stdout().length;
      expect((await fetch(`${base}extra`)).status).toBe(403);
      project.writeStack({ extraRoute: true });
      await sandbox.waitFor('Changed: lib/sandbox-ts-stack.ts; synthesizing... (lib/sandbox-ts-stack.ts is part of the app; synth 3, warm)\n', { from: mark });
      await sandbox.waitFor(`  + route GET ${base}extra`, { from: mark });
      expect(await getJson(`${base}extra`)).toEqual({ status: 200, body: { ok: true } });
      // Handlers still rebuild after that synth.
      mark = sandbox.stdout().length;
      project.writeItemsHandler(4, './shared/shout');
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 4, label: 'ITEM!' } });

      // Three synths in all: the first, the new module, the new route.
      expect(synthLines(sandbox.stdout())).toHaveLength(2);
    } finally {
      await stop(sandbox);
    }
  });

  test('a syntax error in a handler is shown with file and line; the old code keeps serving until it is fixed', async () => {
    const { sandbox, base } = await start(project);
    try {
      const before = await getJson(`${base}items`);
      expect(before.status).toBe(200);
      const errMark = sandbox.stderr().length;
      fs.writeFileSync(path.join(project.dir, 'lambda/items.ts'), [
        'export const handler = async () => ({',
        '  statusCode: 200,',
        '  body: JSON.stringify({ item: 5 +, }),',
        '});',
        '',
      ].join('\n'));
      await sandbox.waitFor(/rebuild of SandboxTsStack\/ItemsFunction failed:\nlambda\/items\.ts:3:35: error: Unexpected ","\n {4} {2}body: JSON\.stringify\(\{ item: 5 \+, \}\),\nStill serving the last good version\.\n/, { stream: 'stderr', from: errMark });
      expect(await getJson(`${base}items`)).toEqual(before);
      const mark = sandbox.stdout().length;
      project.writeItemsHandler(6);
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 6, label: 'v2:item' } });
      expect(synthLines(sandbox.stdout())).toHaveLength(0);
    } finally {
      await stop(sandbox);
    }
  });

  test('an app that ends its process during a warm synth: cold from then on, said once', async () => {
    const { sandbox, base } = await start(project);
    try {
      const mark = sandbox.stdout().length;
      const errMark = sandbox.stderr().length;
      project.write('bin/app.ts', 'process.exit(3);\n');
      await sandbox.waitFor("Synthesizing cold ('npx tsx bin/app.ts' in a new process at each synth): the warm synth process ended (exit code 3).\n", { from: mark });
      await sandbox.waitFor("synth failed: 'npx tsx bin/app.ts' ended with exit code 3", { stream: 'stderr', from: errMark });
      expect((await fetch(`${base}items`)).status).toBe(200);
      project.write('bin/app.ts', [
        "import * as cdk from 'aws-cdk-lib';",
        "import { SandboxTsStack } from '../lib/sandbox-ts-stack';",
        "new SandboxTsStack(new cdk.App(), 'SandboxTsStack');",
        '',
      ].join('\n'));
      await sandbox.waitFor('synthesizing... (bin/app.ts is part of the app; synth 3)\n', { from: mark });
      await sandbox.waitFor('Reloaded in', { from: mark });
      expect(sandbox.stdout().slice(mark).match(/Synthesizing cold/g)).toHaveLength(1);
    } finally {
      await stop(sandbox);
    }
  });
});

describe('a tsx app that synthesizes only when run directly (require.main === module)', () => {
  let project: TsProject;
  beforeAll(() => {
    project = createTsProject('tsx');
    project.write('bin/app.ts', [
      "import * as cdk from 'aws-cdk-lib';",
      "import { SandboxTsStack } from '../lib/sandbox-ts-stack';",
      '',
      'if (require.main === module && process.argv[1]?.endsWith(`bin/app.ts`)) {',
      "  new SandboxTsStack(new cdk.App(), 'SandboxTsStack');",
      '}',
      '',
    ].join('\n'));
  });
  afterAll(() => project.remove());

  test('the warm synth runs it as the main module', async () => {
    const { sandbox, base, startText } = await start(project);
    try {
      expect(startText).not.toContain('Synthesizing cold');
      const mark = sandbox.stdout().length;
      project.writeStack({ extraRoute: true });
      await sandbox.waitFor('synthesizing... (lib/sandbox-ts-stack.ts is part of the app; synth 2, warm)\n', { from: mark });
      await sandbox.waitFor(`  + route GET ${base}extra`, { from: mark });
    } finally {
      await stop(sandbox);
    }
  });
});

test('a `node app.js` app that prints while it synthesizes: the warm synth finishes (the first console.log opens stdout in the warm process, which used to keep it busy forever)', async () => {
  const project = createProject();
  const appFile = path.join(project.dir, 'app.js');
  fs.writeFileSync(appFile, `console.log('building the app');\nconsole.error('a warning of the app');\n${fs.readFileSync(appFile, 'utf8')}`);
  const sandbox = startSandbox(['--port', '0', '--quiet'], project.dir, ENV);
  try {
    const startText = await sandbox.waitFor('Press Ctrl+C to stop.', { ms: 60_000 });
    expect(startText).not.toContain('Synthesizing cold');
  } finally {
    await stop(sandbox);
    project.remove();
  }
});

test('an app command the warm synth does not know: cold synths, said once; handler edits still rebuilt (the cold synth records its builds)', async () => {
  const project = createTsProject('script');
  try {
    const { sandbox, base, startText } = await start(project);
    try {
      expect(startText.match(/Synthesizing cold/g)).toHaveLength(1);
      expect(startText).toContain('Synthesizing cold (\'sh -c "npx tsx bin/app.ts"\' in a new process at each synth): the app command \'sh -c "npx tsx bin/app.ts"\' is not one the warm synth runs (npx tsx FILE, npx ts-node --prefer-ts-exts FILE, node FILE).\n');
      let mark = sandbox.stdout().length;
      project.writeItemsHandler(2);
      await sandbox.waitFor(/Rebuilt SandboxTsStack\/ItemsFunction in \d+ ms, no synth\.\n/, { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 2, label: 'v1:item' } });
      // The stack: a cold synth (the app's modules were recorded too).
      mark = sandbox.stdout().length;
      project.writeStack({ extraRoute: true });
      await sandbox.waitFor('Changed: lib/sandbox-ts-stack.ts; synthesizing... (lib/sandbox-ts-stack.ts is part of the app; synth 2)\n', { from: mark });
      await sandbox.waitFor(`  + route GET ${base}extra`, { from: mark });
      // And after that synth, handlers are still rebuilt.
      mark = sandbox.stdout().length;
      project.writeFormat('v3');
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 2, label: 'v3:item' } });
      expect(sandbox.stdout().match(/Synthesizing cold/g)).toHaveLength(1);
      expect(fs.readdirSync(path.join(project.dir, 'cdk.out')).filter((f) => f.endsWith('.builds.jsonl'))).toEqual([]);
    } finally {
      await stop(sandbox);
    }
  } finally {
    project.remove();
  }
});

test('a ts-node app (npx ts-node --prefer-ts-exts bin/app.ts): warm synth, handler edits rebuilt', async () => {
  const project = createTsProject('ts-node');
  try {
    const { sandbox, base, startText } = await start(project);
    try {
      expect(startText).not.toContain('Synthesizing cold');
      const mark = sandbox.stdout().length;
      project.writeItemsHandler(2);
      await sandbox.waitFor('Rebuilt SandboxTsStack/ItemsFunction in', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { item: 2, label: 'v1:item' } });
      project.writeStack({ extraRoute: true });
      await sandbox.waitFor('synthesizing... (lib/sandbox-ts-stack.ts is part of the app; synth 2, warm)\n', { from: mark });
      await sandbox.waitFor(`  + route GET ${base}extra`, { from: mark });
    } finally {
      await stop(sandbox);
    }
  } finally {
    project.remove();
  }
});
