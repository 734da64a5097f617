// What both sandbox benchmarks do around a generated app folder: check that the CLI is compiled,
// start `vendor-outputs sandbox` in the folder, time one synth of the app as its own process, and
// stop the sandbox and remove the folder.
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { CLI } = require('./cli-process');

const ENV = { ...process.env, AWS_REGION: 'us-east-1', AWS_DEFAULT_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true', CDK_DISABLE_CLI_TELEMETRY: 'true' };

function requireCompiledCli() {
  if (!fs.existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run \`npx projen compile\` (npm run bench does)`);
  }
}

/**
 * `vendor-outputs sandbox` in `dir`; `ready` resolves with the `dev` stage's base URL once the first
 * reload is served, `state` gathers what it prints.
 */
function startSandbox(dir) {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--quiet'], { cwd: dir, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  const state = { out: '', err: '' };
  child.stderr.on('data', (d) => { state.err += d; });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      state.out += d;
      const m = /GET +(http:\/\/127\.0\.0\.1:\d+\/dev\/)items /.exec(state.out);
      if (m && state.out.includes('Press Ctrl+C to stop.')) {
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code}) before serving:\n${state.out}\n${state.err}`)));
  });
  return { child, ready, state };
}

/** Ends the sandbox and removes its app folder. */
async function stopSandbox(sandbox, dir) {
  sandbox.child.kill('SIGTERM');
  await new Promise((resolve) => sandbox.child.once('close', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Milliseconds one synth takes: `command` (the app's) in a process of its own, into a new folder. */
function synthMs(dir, command) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-synth-out-'));
  const start = process.hrtime.bigint();
  const result = spawnSync(command, { shell: true, cwd: dir, env: { ...ENV, CDK_OUTDIR: outdir }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  fs.rmSync(outdir, { recursive: true, force: true });
  if (result.status !== 0) {
    throw new Error(`\`${command}\` in ${dir} failed (exit ${result.status}):\n${result.stderr}`);
  }
  return ms;
}

module.exports = { requireCompiledCli, startSandbox, stopSandbox, synthMs };
