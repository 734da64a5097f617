import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runSynth, STOP_GRACE_MS, synthEnvironment } from '../../../src/cli/sandbox/synth-runner';
import { isRunning, pidsIn, stubbornScript, waitUntilEnded } from '../../support/processes';

describe('the environment the app gets (as the CDK CLI gives it)', () => {
  test('CDK_OUTDIR, CDK_CONTEXT_JSON with the CLI defaults under the project context, region from AWS_REGION', () => {
    const env = synthEnvironment({ outdir: '/tmp/x', context: { 'mine': 1, 'aws:cdk:enable-path-metadata': false }, env: { AWS_REGION: 'eu-west-1', PATH: '/bin' } });
    expect(env.CDK_OUTDIR).toBe('/tmp/x');
    expect(JSON.parse(env.CDK_CONTEXT_JSON!)).toEqual({
      'aws:cdk:enable-path-metadata': false,
      'aws:cdk:enable-asset-metadata': true,
      'aws:cdk:bundling-stacks': ['**'],
      'mine': 1,
    });
    expect(env.CDK_DEFAULT_REGION).toBe('eu-west-1');
    expect(env.PATH).toBe('/bin');
    expect(env.CDK_DEFAULT_ACCOUNT).toBeUndefined();
  });

  test.each([
    [{ AWS_DEFAULT_REGION: 'ap-south-1' }, 'ap-south-1'],
    [{ CDK_DEFAULT_REGION: 'sa-east-1', AWS_REGION: 'eu-west-1' }, 'sa-east-1'],
    [{}, 'us-east-1'],
  ])('region from %j: %s', (env, region) => {
    expect(synthEnvironment({ outdir: '/o', context: {}, env }).CDK_DEFAULT_REGION).toBe(region);
  });

  test('an account the shell sets is passed on (offline there is no other way to know it)', () => {
    expect(synthEnvironment({ outdir: '/o', context: {}, env: { CDK_DEFAULT_ACCOUNT: '111122223333' } }).CDK_DEFAULT_ACCOUNT).toBe('111122223333');
  });
});

describe('running the app command', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-synth-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('through the shell, in the project folder; a manifest in CDK_OUTDIR is success', async () => {
    const outdir = path.join(dir, 'out');
    const result = await runSynth({
      command: 'echo "$CDK_DEFAULT_REGION" > where.txt && pwd >> where.txt && echo "{}" > "$CDK_OUTDIR/manifest.json"',
      cwd: dir,
      outdir,
      context: {},
      env: { PATH: process.env.PATH },
    });
    expect(result.ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'where.txt'), 'utf8')).toBe(`us-east-1\n${fs.realpathSync(dir)}\n`);
  });

  test('a failing app: its exit code and what it printed on both streams', async () => {
    const result = await runSynth({ command: 'echo to-out; echo to-err >&2; exit 3', cwd: dir, outdir: path.join(dir, 'out'), context: {}, env: { PATH: process.env.PATH } });
    expect(result.ok).toBe(false);
    expect(result.exit).toBe('exit code 3');
    expect(result.output).toContain('to-out');
    expect(result.output).toContain('to-err');
  });

  test('exit 0 without a manifest is a failure that says why', async () => {
    const result = await runSynth({ command: 'true', cwd: dir, outdir: path.join(dir, 'out'), context: {}, env: { PATH: process.env.PATH } });
    expect(result.ok).toBe(false);
    expect(result.exit).toMatch(/^exit code 0 but no manifest\.json in .* \(does the app call app\.synth\(\), and does it use CDK_OUTDIR\?\)$/);
  });
});

describe('stopping', () => {
  test('an aborted synth ends its app and reports the signal', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-synth-stop-'));
    try {
      const controller = new AbortController();
      const running = runSynth({ command: 'sleep 30', cwd: dir, outdir: path.join(dir, 'out'), context: {}, env: { PATH: process.env.PATH }, signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      const result = await running;
      expect(result.ok).toBe(false);
      expect(result.exit).toBe('signal SIGTERM');
      expect(result.ms).toBeLessThan(10_000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an app that ignores SIGTERM, and the child it started, are killed with the whole group after the grace period', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-synth-stubborn-'));
    try {
      const pidFile = path.join(dir, 'pids');
      fs.writeFileSync(path.join(dir, 'app.js'), stubbornScript(pidFile));
      const controller = new AbortController();
      const running = runSynth({ command: `"${process.execPath}" app.js`, cwd: dir, outdir: path.join(dir, 'out'), context: {}, env: { PATH: process.env.PATH }, signal: controller.signal });
      const pids = await pidsIn(pidFile, 2);
      expect(pids.every(isRunning)).toBe(true);
      const stoppedAt = Date.now();
      controller.abort();
      const result = await running;
      const took = Date.now() - stoppedAt;
      expect(result.ok).toBe(false);
      // The shell ends on SIGTERM (its exit is what is reported); the app and its child only on SIGKILL.
      expect(result.exit).toMatch(/^signal SIG(TERM|KILL)$/);
      expect(took).toBeGreaterThanOrEqual(STOP_GRACE_MS - 50);
      expect(took).toBeLessThan(STOP_GRACE_MS + 3_000);
      await waitUntilEnded(pids, 2_000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a cooperative app stops at once, and a child it left behind is killed with the group', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-synth-orphan-'));
    try {
      const pidFile = path.join(dir, 'pids');
      // The app ends on SIGTERM, but the child it started ignores it (and keeps no pipe open).
      const app = [
        "const { spawn } = require('child_process');",
        'const child = spawn(process.execPath, [\'-e\', "process.on(\'SIGTERM\', () => {}); setInterval(() => {}, 1000);"], { stdio: \'ignore\' });',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, process.pid + '\\n' + child.pid + '\\n');`,
        'setInterval(() => {}, 1000);',
      ].join('\n');
      fs.writeFileSync(path.join(dir, 'app.js'), app);
      const controller = new AbortController();
      const running = runSynth({ command: `"${process.execPath}" app.js`, cwd: dir, outdir: path.join(dir, 'out'), context: {}, env: { PATH: process.env.PATH }, signal: controller.signal, stopGraceMs: 60_000 });
      const pids = await pidsIn(pidFile, 2);
      const stoppedAt = Date.now();
      controller.abort();
      expect((await running).exit).toBe('signal SIGTERM');
      expect(Date.now() - stoppedAt).toBeLessThan(3_000);
      await waitUntilEnded(pids, 2_000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
