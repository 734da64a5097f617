// `vendor-outputs sandbox` (compiled lib/): time from saving a handler change to the first answer
// with the new code, beside the time of the same synth alone (`node app.js` with CDK_OUTDIR, as
// the sandbox runs it), both measured in this run on the same temporary CDK project.
// Target: reload <= synth + 300 ms (debounce, reading the assembly, swapping the function, writing
// the outputs file and the first request all fit in 300 ms).
// BENCH_CLI=path/to/main.js measures another build of the CLI (default lib/cli/main.js).
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { median } = require('./stats');

const ROOT = path.join(__dirname, '..');
const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(ROOT, 'lib', 'cli', 'main.js');
const RUNS = Number(process.env.BENCH_SANDBOX_RUNS || 5);
const BUDGET_MS = 300;
const ENV = { ...process.env, AWS_REGION: 'us-east-1', AWS_DEFAULT_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true', CDK_DISABLE_CLI_TELEMETRY: 'true' };

/** A CDK project: RestItemsApi (from lib/) with its own asset function in handler/. */
function createProject() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-sandbox-'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.mkdirSync(path.join(dir, 'handler'));
  fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js', watch: { include: ['**'] } }));
  fs.writeFileSync(path.join(dir, 'app.js'), [
    "const path = require('path');",
    "const { App, Stack } = require('aws-cdk-lib');",
    "const lambda = require('aws-cdk-lib/aws-lambda');",
    `const { RestItemsApi } = require(${JSON.stringify(path.join(ROOT, 'lib'))});`,
    'const app = new App();',
    "const stack = new Stack(app, 'BenchSandbox');",
    "const handler = new lambda.Function(stack, 'Items', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromAsset(path.join(__dirname, 'handler')) });",
    "new RestItemsApi(stack, 'ItemsApi', { apiName: 'itemsApi', stageName: 'dev', handler });",
    '',
  ].join('\n'));
  writeHandler(dir, 0);
  return dir;
}

function writeHandler(dir, version) {
  fs.writeFileSync(path.join(dir, 'handler', 'index.js'),
    `exports.handler = async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ version: ${version} }) });\n`);
}

/** The synth alone, as the sandbox runs it. */
function synthMs(dir) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-sandbox-out-'));
  const start = process.hrtime.bigint();
  const result = spawnSync('node app.js', { shell: true, cwd: dir, env: { ...ENV, CDK_OUTDIR: outdir }, stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  fs.rmSync(outdir, { recursive: true, force: true });
  if (result.status !== 0) {
    throw new Error(`synth of the bench project failed (exit ${result.status})`);
  }
  return ms;
}

function startSandbox(dir) {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--quiet'], { cwd: dir, env: ENV, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /GET +(http:\/\/127\.0\.0\.1:\d+\/dev\/)items /.exec(out);
      if (m && out.includes('Press Ctrl+C to stop.')) {
        resolve(`${m[1]}items`);
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code}) before serving:\n${out}`)));
  });
  return { child, ready };
}

/** Saves handler version `version`, then asks until the answer carries it. */
async function reloadMs(dir, url, version) {
  const start = process.hrtime.bigint();
  writeHandler(dir, version);
  for (;;) {
    const body = await (await fetch(url)).json();
    if (body.version === version) {
      return Number(process.hrtime.bigint() - start) / 1e6;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function run(report) {
  if (!fs.existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run \`npx projen compile\` (npm run bench does)`);
  }
  const dir = createProject();
  const sandbox = startSandbox(dir);
  try {
    const url = await sandbox.ready;
    const synths = [];
    const reloads = [];
    for (let i = 1; i <= RUNS; i++) {
      // Interleaved, so that both see the same machine load.
      synths.push(synthMs(dir));
      reloads.push(await reloadMs(dir, url, i));
    }
    const synth = median(synths);
    report({
      name: `sandbox: handler saved -> new answer vs synth alone (median of ${RUNS})`,
      value: median(reloads),
      baseline: synth,
      unit: ' ms',
      target: Number(((synth + BUDGET_MS) / synth).toFixed(3)),
    });
  } finally {
    sandbox.child.kill('SIGTERM');
    await new Promise((resolve) => sandbox.child.once('close', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { run };
