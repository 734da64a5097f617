/**
 * `vendor-outputs sandbox` on a real temporary CDK project: real synthesis of `node app.js` (no
 * CDK CLI), the real local server on 127.0.0.1, real file changes picked up by the watcher.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createProject, startSandbox, SYNTH_DELAY_VARIABLE, TempProject } from './sandbox/project';
import { UsageError } from '../../src/cli/command';
import { LocalApiError } from '../../src/cli/local/common/local-api-error';
import { helpRows, LOCAL_API_HELP } from '../../src/cli/local-api-options';
import { command } from '../../src/cli/sandbox';
import { STOP_GRACE_MS } from '../../src/cli/sandbox/synth-runner';
import { command as serveCommand } from '../../src/cli/serve';
import { toRestConfig } from '../../src/client';
import { runCli } from '../support/cli';
import { deployedOutputs } from '../support/deploy';
import { evaluateOutputs, FakeCloudFormation } from '../support/fake-cloudformation';
import { isRunning, pidsIn, stubbornScript, waitUntilEnded } from '../support/processes';

jest.setTimeout(120_000);

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

describe('the watch loop', () => {
  let project: TempProject;
  beforeAll(() => { project = createProject(); });
  afterAll(() => project.remove());

  test('first answer; a handler edit, a new resource and a broken app, each reloaded or reported while serving', async () => {
    const sandbox = startSandbox(['--port', '0'], project.dir);
    try {
      const start = await sandbox.waitFor('Press Ctrl+C to stop.');
      const base = /GET +(http:\/\/127\.0\.0\.1:\d+\/dev\/)items +-> SandboxTest\/Items/.exec(start)![1];
      const origin = new URL(base).origin;
      expect(start).toContain(`Console (TEST page): ${origin}/@console/`);
      expect(start).toContain(`Wrote ${path.join(project.dir, 'vendor_outputs.json')}`);
      expect(start).toContain(`Watching ${project.dir} (include: **). Press Ctrl+C to stop.`);

      // The frontend's file points at this server.
      const outputsFile = path.join(project.dir, 'vendor_outputs.json');
      const written = JSON.parse(fs.readFileSync(outputsFile, 'utf8'));
      expect(written.custom.api_endpoint).toBe(base);
      const firstStat = fs.statSync(outputsFile);

      expect(await getJson(`${base}items?limit=3`)).toEqual({ status: 200, body: { version: 1, limit: '3' } });

      // Edit the handler (a Code.fromAsset folder): copied again without a synth, the new code
      // answers on the same port, and the file is left alone.
      let mark = sandbox.stdout().length;
      project.writeHandler(2);
      await sandbox.waitFor(/Changed: handler\/index\.js; rebuilding SandboxTest\/Items \(no synth\)\.\.\.\nRebuilt SandboxTest\/Items in \d+ ms, no synth\.\n  ~ function SandboxTest\/Items reloaded\n/, { from: mark });
      expect(sandbox.stdout().slice(mark)).not.toContain('synthesizing');
      expect(await getJson(`${base}items?limit=3`)).toEqual({ status: 200, body: { version: 2, limit: '3' } });
      const secondStat = fs.statSync(outputsFile);
      expect(secondStat.ino).toBe(firstStat.ino);
      expect(secondStat.mtimeMs).toBe(firstStat.mtimeMs);

      // Add a resource in the stack: a new route.
      mark = sandbox.stdout().length;
      expect((await fetch(`${base}health`)).status).toBe(403);
      project.writeApp({ health: true });
      await sandbox.waitFor(`  + route GET ${base}health`, { from: mark });
      expect(await getJson(`${base}health`)).toEqual({ status: 200, body: { ok: true } });

      // Break the app: the error is shown, the last good version keeps serving.
      const errMark = sandbox.stderr().length;
      project.writeApp({ broken: true, health: true });
      await sandbox.waitFor(/synth failed: 'node app\.js' ended with exit code 1 after \d+ ms:\n[\s\S]*Error: the app is broken on purpose[\s\S]*\nStill serving the last good version\.\n/, { stream: 'stderr', from: errMark });
      expect(await getJson(`${base}health`)).toEqual({ status: 200, body: { ok: true } });
      expect(await getJson(`${base}items?limit=1`)).toEqual({ status: 200, body: { version: 2, limit: '1' } });

      // Fixed again: back to serving the new synth; the route it drops is listed.
      mark = sandbox.stdout().length;
      project.writeApp({});
      await sandbox.waitFor(`  - route GET ${base}health`, { from: mark });
      expect((await fetch(`${base}health`)).status).toBe(403);
      expect(fs.statSync(outputsFile).mtimeMs).toBe(firstStat.mtimeMs);

      // An output value changes: named by its pointer, and the file is rewritten.
      mark = sandbox.stdout().length;
      project.writeApp({ apiName: 'renamedApi' });
      await sandbox.waitFor(`  ~ /custom/api_name changed\n  wrote ${outputsFile}\n`, { from: mark });
      expect(JSON.parse(fs.readFileSync(outputsFile, 'utf8')).custom.api_name).toBe('renamedApi');
    } finally {
      sandbox.child.kill('SIGTERM');
    }
    expect(await sandbox.exited).toEqual({ code: 0, signal: null });
    expect(sandbox.stderr()).toContain('vendor-outputs sandbox: SIGTERM, stopping');
    // Each synth's folder (cdk.out/sandbox-<pid>-<n>) is gone.
    expect(fs.readdirSync(path.join(project.dir, 'cdk.out')).filter((f) => f.startsWith('sandbox-'))).toEqual([]);
  });

  test('changes during a synth make exactly one more; Ctrl+C during a synth stops the app and exits 0', async () => {
    // Each synth lasts at least 1.5 s, so that both saves below fall inside the first one.
    const sandbox = startSandbox(['--port', '0', '--quiet'], project.dir, { [SYNTH_DELAY_VARIABLE]: '1500' });
    try {
      const start = await sandbox.waitFor('Press Ctrl+C to stop.');
      const base = /GET +(http:\/\/127\.0\.0\.1:\d+\/dev\/)items /.exec(start)![1];
      // Edits of the app (handler edits are copied without a synth).
      const mark = sandbox.stdout().length;
      project.writeApp({ apiName: 'first' });
      await sandbox.waitFor('synthesizing...', { from: mark });
      // Two saves while that synth runs, once it has read app.js: a save at the moment the synth
      // loads the file can be read half-written (an empty app), which is a save's race, not this test's.
      await new Promise((resolve) => setTimeout(resolve, 300));
      project.writeApp({ apiName: 'second' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      project.writeApp({ health: true });
      await sandbox.waitFor(/Reloaded in[\s\S]*Reloaded in/, { from: mark });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const log = sandbox.stdout().slice(mark);
      expect({ log, synths: log.match(/synthesizing\.\.\./g)?.length }).toEqual({ log, synths: 2 });
      expect(await getJson(`${base}health`)).toEqual({ status: 200, body: { ok: true } });

      const stopMark = sandbox.stdout().length;
      project.writeApp({});
      await sandbox.waitFor('synthesizing...', { from: stopMark });
      sandbox.child.kill('SIGINT');
      const started = Date.now();
      expect(await sandbox.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(sandbox.stderr()).not.toContain('Still serving');
      expect(sandbox.stdout().slice(stopMark)).not.toContain('Reloaded');
    } finally {
      sandbox.child.kill('SIGTERM');
    }
  });

  test('changes to excluded files start no synth', async () => {
    const sandbox = startSandbox(['--port', '0', '--quiet'], project.dir);
    try {
      await sandbox.waitFor('Press Ctrl+C to stop.');
      const mark = sandbox.stdout().length;
      fs.writeFileSync(path.join(project.dir, 'README.md'), 'excluded by cdk.json\n');
      fs.writeFileSync(path.join(project.dir, '.notes'), 'a dot file\n');
      fs.mkdirSync(path.join(project.dir, 'cdk.out'), { recursive: true });
      fs.writeFileSync(path.join(project.dir, 'cdk.out', 'x.json'), '{}');
      fs.writeFileSync(path.join(project.dir, 'watched.txt'), 'included\n');
      await sandbox.waitFor('Changed: watched.txt; synthesizing...', { from: mark });
      await sandbox.waitFor('Reloaded in', { from: mark });
      expect(sandbox.stdout().slice(mark)).not.toMatch(/README|\.notes|cdk\.out/);
    } finally {
      sandbox.child.kill('SIGINT');
    }
    expect(await sandbox.exited).toEqual({ code: 0, signal: null });
  });
});

/** Whether process `pid` is gone (or a zombie nobody reaps, as under a container's init) within `ms`. */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    let state: string;
    try {
      state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0];
    } catch {
      return true;
    }
    if (state === 'Z' || Date.now() > until) {
      return state === 'Z';
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('Ctrl+C during the first synth stops the app, removes its folder and exits 0', async () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-sandbox-hang-')));
  try {
    // An app that never finishes, and says when it started.
    const app = "require('fs').writeFileSync('started', String(process.pid)); setInterval(() => {}, 1000);";
    fs.writeFileSync(path.join(dir, 'app.js'), app);
    fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js' }));
    const sandbox = startSandbox([], dir);
    const started = path.join(dir, 'started');
    const until = Date.now() + 30_000;
    while (!fs.existsSync(started) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const appPid = Number(fs.readFileSync(started, 'utf8'));
    sandbox.child.kill('SIGINT');
    expect(await sandbox.exited).toEqual({ code: 0, signal: null });
    expect(sandbox.stderr()).toBe('vendor-outputs sandbox: SIGINT, stopping\n');
    expect(await endsWithin(appPid, 5_000)).toBe(true);
    const output = path.join(dir, 'cdk.out');
    expect(fs.existsSync(output) ? fs.readdirSync(output) : []).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('API entries (addRestApi, addHttpApi) point at the local server', () => {
  let project: TempProject;
  beforeAll(() => { project = createProject({ apiEntries: true }); });
  afterAll(() => project.remove());

  test('a frontend reading the REST entry through toRestConfig reaches the local API; the HTTP entry points at the local HTTP API', async () => {
    const sandbox = startSandbox(['--port', '0'], project.dir);
    try {
      const start = await sandbox.waitFor('Press Ctrl+C to stop.');
      const ordersBase = /GET +(http:\/\/127\.0\.0\.1:\d+\/prod\/) +-> MOCK/.exec(start)![1];
      const written = JSON.parse(fs.readFileSync(path.join(project.dir, 'vendor_outputs.json'), 'utf8'));
      expect(written.custom.orders).toEqual({
        api_id: expect.stringMatching(/^Orders[0-9A-F]{8}$/), api_endpoint: ordersBase, api_name: 'orders', api_stage: 'prod', vendor_region: 'us-east-1', api_kind: 'rest',
      });
      const rest = toRestConfig({ ...written, custom: { orders: written.custom.orders } });
      expect(rest).toEqual({ orders: { endpoint: ordersBase, region: 'us-east-1' } });
      expect(await getJson(rest.orders.endpoint)).toEqual({ status: 200, body: { orders: [] } });
      // The HTTP API's entry: its $default stage at the root of the local server, its logical id as its id.
      expect(written.custom.chat).toMatchObject({ api_id: expect.stringMatching(/^Chat[0-9A-F]{8}$/), api_name: 'chat', api_stage: '$default', api_kind: 'http' });
      expect(written.custom.chat.api_endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(start).toContain(written.custom.chat.api_endpoint);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.exited;
    }
  });
});

describe('--once', () => {
  let project: TempProject;
  beforeAll(() => {
    project = createProject({ bucket: true });
    fs.mkdirSync(path.join(project.dir, 'cdk.out'), { recursive: true });
  });
  afterAll(() => project.remove());

  test('synthesizes into cdk.out, writes the file for --port, lists the pending values, exits 0', async () => {
    const run = await runCli(['sandbox', '--once', '--port', '4100'], { cwd: project.dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const file = path.join(project.dir, 'vendor_outputs.json');
    expect(run.stdout).toMatch(/^Synthesized cdk\.out in \d+ ms\n/);
    expect(run.stdout).toContain(`Wrote ${file}\nPending until a cloud deploy (1; fill them with --from-stack NAME or --outputs-file FILE):\n  /storage/bucket_name\n`);
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(document.custom.api_endpoint).toBe('http://127.0.0.1:4100/dev/');
    expect(document.storage.vendor_region).toBe('us-east-1');
    expect(fs.existsSync(path.join(project.dir, 'cdk.out', 'manifest.json'))).toBe(true);

    // Again: the same content, so the file is not rewritten.
    const before = fs.statSync(file);
    const again = await runCli(['sandbox', '--once', '--port', '4100'], { cwd: project.dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Up to date: ${file}\n`);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(fs.statSync(file).ino).toBe(before.ino);
  });

  test('--outputs-file fills the pending values from a deploy; the REST endpoint stays local', async () => {
    const template = JSON.parse(fs.readFileSync(path.join(project.dir, 'cdk.out', 'SandboxTest.template.json'), 'utf8'));
    const outputs = deployedOutputs(template, (expression) => (JSON.stringify(expression).includes('Files') ? 'deployed-files-bucket' : 'https://abcdef1234.execute-api.us-east-1.amazonaws.com/dev/'));
    fs.writeFileSync(path.join(project.dir, 'outputs.json'), JSON.stringify({ SandboxTest: outputs }));
    const run = await runCli(['sandbox', '--once', '--outputs-file', 'outputs.json', '--outputs-out-dir', 'web'], { cwd: project.dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const file = path.join(project.dir, 'web', 'vendor_outputs.json');
    expect(run.stdout).toContain(`Wrote ${file}\n`);
    expect(run.stdout).not.toContain('Pending');
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(document.storage.bucket_name).toBe('deployed-files-bucket');
    expect(document.custom.api_endpoint).toBe('http://127.0.0.1:3000/dev/');
  });

  test('--from-stack fills them from the deployed stack (AWS SDK against a local CloudFormation); the REST endpoint stays local', async () => {
    const template = JSON.parse(fs.readFileSync(path.join(project.dir, 'cdk.out', 'SandboxTest.template.json'), 'utf8'));
    const bucketId = Object.keys(template.Resources).find((id) => template.Resources[id].Type === 'AWS::S3::Bucket')!;
    const cloudFormation = new FakeCloudFormation();
    const endpoint = await cloudFormation.start();
    try {
      cloudFormation.stacks = [{ name: 'SandboxTest', template, outputs: evaluateOutputs(template, { [bucketId]: 'cloud-files-bucket' }) }];
      const env = {
        AWS_ENDPOINT_URL_CLOUDFORMATION: endpoint,
        // The region is the test's, not the shell's (a shell without AWS_REGION has none).
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'AKIDFAKE',
        AWS_SECRET_ACCESS_KEY: 'fake-secret',
        AWS_SESSION_TOKEN: undefined,
        AWS_PROFILE: undefined,
        AWS_CONFIG_FILE: path.join(project.dir, 'no-config'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(project.dir, 'no-credentials'),
      };
      const run = await runCli(['sandbox', '--once', '--from-stack', 'SandboxTest', '--outputs-out-dir', 'cloud'], { cwd: project.dir, env });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const document = JSON.parse(fs.readFileSync(path.join(project.dir, 'cloud', 'vendor_outputs.json'), 'utf8'));
      expect(document.storage.bucket_name).toBe('cloud-files-bucket');
      expect(document.custom.api_endpoint).toBe('http://127.0.0.1:3000/dev/');
      expect(cloudFormation.calls.map((c) => c.action)).toContain('DescribeStacks');

      const missing = await runCli(['sandbox', '--once', '--from-stack', 'Missing', '--outputs-out-dir', 'missing'], { cwd: project.dir, env });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^vendor-outputs sandbox: stack Missing not found in region us-east-1/);
      expect(fs.existsSync(path.join(project.dir, 'missing', 'vendor_outputs.json'))).toBe(false);
    } finally {
      await cloudFormation.stop();
    }
  });

  test('--format dart writes vendor_outputs.dart holding the same document', async () => {
    const run = await runCli(['sandbox', '--once', '--format', 'dart', '--outputs-out-dir', 'lib'], { cwd: project.dir });
    expect(run.code).toBe(0);
    const text = fs.readFileSync(path.join(project.dir, 'lib', 'vendor_outputs.dart'), 'utf8');
    const json = /\nconst vendorConfig = r'''([\s\S]*)''';\n$/.exec(text)![1];
    expect(JSON.parse(json).custom.api_endpoint).toBe('http://127.0.0.1:3000/dev/');
  });

  test('a failing synth: exit 1 with the app\'s output, no file written', async () => {
    const broken = createProject({ broken: true });
    try {
      const run = await runCli(['sandbox', '--once'], { cwd: broken.dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^vendor-outputs sandbox: synth failed: 'node app\.js' ended with exit code 1 after \d+ ms:\n/);
      expect(run.stderr).toContain('Error: the app is broken on purpose');
      expect(fs.existsSync(path.join(broken.dir, 'vendor_outputs.json'))).toBe(false);
    } finally {
      broken.remove();
    }
  });

  test('--app DIR serves an assembly as it is (no synth)', async () => {
    const run = await runCli(['sandbox', '--once', '--app', 'cdk.out', '--outputs-out-dir', 'from-assembly', '--port', '4200'], { cwd: project.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('Synthesized');
    expect(JSON.parse(fs.readFileSync(path.join(project.dir, 'from-assembly', 'vendor_outputs.json'), 'utf8')).custom.api_endpoint).toBe('http://127.0.0.1:4200/dev/');
  });
});

describe('the local-API options serve has', () => {
  let project: TempProject;
  beforeAll(() => { project = createProject(); });
  afterAll(() => project.remove());

  function writeGreetingHandler(version: number): void {
    fs.writeFileSync(path.join(project.dir, 'handler', 'index.js'), [
      'exports.handler = async () => ({',
      '  statusCode: 200,',
      `  body: JSON.stringify({ version: ${version}, greeting: process.env.GREETING || null }),`,
      '});',
      '',
    ].join('\n'));
  }

  test('--env-vars reaches the functions at start and after a reload; --credentials is accepted', async () => {
    // A dot file: never watched, so writing it starts no synth.
    const envVars = path.join(project.dir, '.env-vars.json');
    fs.writeFileSync(envVars, JSON.stringify({ Parameters: { GREETING: 'hello from --env-vars' } }));
    writeGreetingHandler(1);
    const sandbox = startSandbox(['--port', '0', '--quiet', '--env-vars', envVars, '--credentials', 'AKIDSANDBOX:secret'], project.dir);
    try {
      const start = await sandbox.waitFor('Press Ctrl+C to stop.');
      const base = /GET +(http:\/\/127\.0\.0\.1:\d+\/dev\/)items /.exec(start)![1];
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { version: 1, greeting: 'hello from --env-vars' } });

      const mark = sandbox.stdout().length;
      writeGreetingHandler(2);
      await sandbox.waitFor('  ~ function SandboxTest/Items reloaded', { from: mark });
      expect(await getJson(`${base}items`)).toEqual({ status: 200, body: { version: 2, greeting: 'hello from --env-vars' } });
    } finally {
      sandbox.child.kill('SIGTERM');
    }
    expect(await sandbox.exited).toEqual({ code: 0, signal: null });
  });
});

describe('an app that ignores SIGTERM cannot keep the sandbox running', () => {
  /** The bound: SIGTERM, the grace period, SIGKILL to the app's group, then the server's close. */
  const STOP_BOUND_MS = STOP_GRACE_MS + 3_000;

  test('during a reload: exit 0 within the bound, the app and its child killed', async () => {
    const project = createProject();
    try {
      const sandbox = startSandbox(['--port', '0', '--quiet'], project.dir);
      try {
        await sandbox.waitFor('Press Ctrl+C to stop.');
        const pidFile = path.join(os.tmpdir(), `vo-stubborn-${process.pid}-${Date.now()}.pids`);
        fs.writeFileSync(path.join(project.dir, 'app.js'), stubbornScript(pidFile));
        const pids = await pidsIn(pidFile, 2, 30_000);
        fs.rmSync(pidFile);
        expect(pids.every(isRunning)).toBe(true);
        const stoppedAt = Date.now();
        sandbox.child.kill('SIGTERM');
        expect(await sandbox.exited).toEqual({ code: 0, signal: null });
        expect(Date.now() - stoppedAt).toBeLessThan(STOP_BOUND_MS);
        await waitUntilEnded(pids, 1_000);
        expect(sandbox.stderr()).toContain('vendor-outputs sandbox: SIGTERM, stopping');
      } finally {
        sandbox.child.kill('SIGKILL');
      }
    } finally {
      project.remove();
    }
  });

  /** A project whose app never finishes its first synth and ignores SIGTERM. */
  function stubbornProject(): { dir: string; pidFile: string } {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-sandbox-stubborn-')));
    const pidFile = path.join(dir, '.pids');
    fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: `"${process.execPath}" stubborn.js` }));
    fs.writeFileSync(path.join(dir, 'stubborn.js'), stubbornScript(pidFile));
    return { dir, pidFile };
  }

  test('during the first synth: exit 0 within the bound, the app and its child killed', async () => {
    const { dir, pidFile } = stubbornProject();
    try {
      const sandbox = startSandbox(['--port', '0'], dir);
      try {
        const pids = await pidsIn(pidFile, 2);
        const stoppedAt = Date.now();
        sandbox.child.kill('SIGTERM');
        expect(await sandbox.exited).toEqual({ code: 0, signal: null });
        expect(Date.now() - stoppedAt).toBeLessThan(STOP_BOUND_MS);
        await waitUntilEnded(pids, 1_000);
      } finally {
        sandbox.child.kill('SIGKILL');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('--once stopped by %s during the synth: exit %d within the bound, the app and its child killed, nothing written', async (signal, status) => {
    const { dir, pidFile } = stubbornProject();
    try {
      const sandbox = startSandbox(['--once'], dir);
      try {
        const pids = await pidsIn(pidFile, 2);
        const stoppedAt = Date.now();
        sandbox.child.kill(signal);
        expect(await sandbox.exited).toEqual({ code: status, signal: null });
        expect(Date.now() - stoppedAt).toBeLessThan(STOP_BOUND_MS);
        await waitUntilEnded(pids, 1_000);
        expect(sandbox.stderr()).toBe(`vendor-outputs sandbox: ${signal}, stopping\n`);
        expect(fs.existsSync(path.join(dir, 'vendor_outputs.json'))).toBe(false);
      } finally {
        sandbox.child.kill('SIGKILL');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('usage errors (exit 2)', () => {
  let project: TempProject;
  beforeAll(() => { project = createProject(); });
  afterAll(() => project.remove());

  test.each([
    [['--format', 'yaml'], "--format must be one of json, dart (got 'yaml')"],
    [['--port', '70000'], "--port must be an integer from 0 to 65535 (got '70000')"],
    [['--once', '--port', '0'], '--once writes endpoints without serving them, so it needs a real port: pass --port N (default 3000), not 0'],
    [['--from-stack', 'A', '--outputs-file', 'o.json'], 'give either --from-stack NAME or --outputs-file FILE, not both'],
    [['--from-stack', ' '], '--from-stack needs the name of a deployed stack'],
    [['--outputs-out-dir', ''], '--outputs-out-dir must name a directory'],
    [['--app', ''], '--app needs a command (e.g. --app "node app.js") or the directory of a synthesized cloud assembly'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['--outputs-out-dir', 'a', '--write-outputs', 'b'], 'give either --outputs-out-dir DIR or --write-outputs DIR (two names of one option), not both'],
    [['--write-outputs', ' '], '--write-outputs must name a directory'],
  ])('%j', async (args, message) => {
    // In-process: these are refused before anything reads the project.
    const failure = command.run(args);
    await expect(failure).rejects.toThrow(UsageError);
    await expect(failure).rejects.toThrow(message);
  });

  test('from the command line: exit 2, the message and a hint to --help on stderr (here: no cdk.json and no --app)', async () => {
    const cwd = path.join(project.dir, 'handler');
    const run = await runCli(['sandbox'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`vendor-outputs sandbox: no cdk.json in ${cwd}: run sandbox in the folder of your CDK app (where cdk.json is), `
      + "or say what to run with --app 'node app.js' (a command) or --app cdk.out (a synthesized cloud assembly)\nRun 'vendor-outputs sandbox --help' for usage.\n");
  });

  test('the command loads no aws-cdk-lib (the app synthesizes in its own process)', async () => {
    const run = await runCli(['sandbox', '--help'], { env: { NODE_DEBUG: 'module' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/cli[/\\]sandbox\.js/);
    expect(run.stderr).not.toMatch(/aws-cdk-lib/);
  });

  test.each([
    [['--credentials', 'nocolon'], '--credentials must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)'],
    [['--api-key', 'no-equals'], "--api-key must be NAME=VALUE, NAME being the key's Name, logical id or construct path (got 'no-equals')"],
    [['--env-vars', 'no-such-env-vars.json'], '--env-vars no-such-env-vars.json: cannot read the file (ENOENT)'],
  ])('%j: the options serve has, checked as serve checks them', async (args, message) => {
    const failure = command.run(args);
    await expect(failure).rejects.toThrow(LocalApiError);
    await expect(failure).rejects.toMatchObject({ kind: 'usage', message });
  });

  test('every option of serve is an option of sandbox, with the same help row', () => {
    const serveFlags = [...serveCommand.help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(serveFlags.length).toBeGreaterThan(10);
    for (const flag of serveFlags) {
      expect(command.help).toMatch(new RegExp(`^ {2}${flag}[ |]`, 'm'));
    }
    for (const name of ['credentials', 'allow-unsigned', 'api-key', 'env-vars', 'jwks', 'quiet'] as const) {
      const row = helpRows([LOCAL_API_HELP[name]]).join('\n');
      expect(serveCommand.help).toContain(row);
      expect(command.help).toContain(row);
    }
  });

  test('--help shows usage and examples', () => {
    expect(command.help).toMatch(/^Usage: vendor-outputs sandbox /);
    expect(command.help).toContain('Examples:\n  cd my-backend && npx vendor-outputs sandbox --outputs-out-dir ../frontend/src');
  });
});
