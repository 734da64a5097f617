// `vendor-outputs sandbox` (compiled lib/): time from saving a handler change to the first answer
// with the new code, beside the time of the same synth alone (`node app.js` with CDK_OUTDIR, as
// the sandbox runs it), both measured in this run on the same temporary CDK project.
// Target: reload <= synth + 300 ms (debounce, reading the assembly, swapping the function, writing
// the outputs file and the first request all fit in 300 ms).
// BENCH_CLI=path/to/main.js measures another build of the CLI (default lib/cli/main.js).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCompiledCli, startSandbox, stopSandbox, synthMs } = require('./sandbox-process');
const { median } = require('./stats');

const ROOT = path.join(__dirname, '..');
const RUNS = Number(process.env.BENCH_SANDBOX_RUNS || 5);
const BUDGET_MS = 300;

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
  requireCompiledCli();
  const dir = createProject();
  const sandbox = startSandbox(dir);
  try {
    const url = `${await sandbox.ready}items`;
    const synths = [];
    const reloads = [];
    for (let i = 1; i <= RUNS; i++) {
      // Interleaved, so that both see the same machine load.
      // The synth alone, as the sandbox runs it.
      synths.push(synthMs(dir, 'node app.js'));
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
    await stopSandbox(sandbox, dir);
  }
}

module.exports = { run };
