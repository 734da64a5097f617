// `vendor-outputs sandbox` (compiled lib/) on a generated `cdk init`-shaped TypeScript app (cdk.json
// `npx tsx bin/app.ts`, a RestApi, three NodejsFunctions importing @aws-sdk/client-cloudformation,
// bundled by the project's esbuild), against a cold synth of the same app in the same run:
// - handler saved -> first answer with the new code (a rebuild, no synth): <= 1 s and <= 0.25x cold;
// - a new route in the stack -> first answer on it (the warm synth): <= 0.5x cold;
// - resident memory of the warm synth process after reloads 1, 10 and 50 (no growth: 50 <= 1.1x 10).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { memory, tree } = require('./process-tree');
const { requireCompiledCli, startSandbox, stopSandbox, synthMs } = require('./sandbox-process');
const { median } = require('./stats');

const ROOT = path.join(__dirname, '..');
const RUNS = Number(process.env.BENCH_SANDBOX_RUNS || 5);
const MEMORY_RELOADS = 50;

function write(dir, file, text) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}

/** The project `cdk init app --language typescript` makes, with the stack below. */
function createProject() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-reload-')));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  write(dir, 'cdk.json', JSON.stringify({ app: 'npx tsx bin/app.ts', watch: { include: ['**'], exclude: ['README.md', 'cdk*.json', '**/*.d.ts', '**/*.js', 'tsconfig.json', 'package*.json', 'node_modules', 'test'] } }, null, 2));
  write(dir, 'package.json', JSON.stringify({ name: 'bench-app', version: '0.1.0', private: true }));
  write(dir, 'package-lock.json', JSON.stringify({ name: 'bench-app', version: '0.1.0', lockfileVersion: 3, requires: true, packages: {} }));
  write(dir, 'tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, esModuleInterop: true, skipLibCheck: true } }));
  write(dir, 'bin/app.ts', "import * as cdk from 'aws-cdk-lib';\nimport { BenchStack } from '../lib/bench-stack';\n\nconst app = new cdk.App();\nnew BenchStack(app, 'BenchStack');\n");
  write(dir, 'lambda/shared/format.ts', 'export const format = (name: string): string => `item:${name}`;\n');
  for (const name of ['orders', 'users']) {
    write(dir, `lambda/${name}.ts`, handlerSource(0, name));
  }
  writeHandler(dir, 0);
  writeStack(dir, 0);
  return dir;
}

function handlerSource(version, name) {
  return [
    "import { CloudFormationClient } from '@aws-sdk/client-cloudformation';",
    "import { format } from './shared/format';",
    '',
    'const client = new CloudFormationClient({});',
    `export const handler = async () => ({ statusCode: 200, body: JSON.stringify({ version: ${version}, name: format('${name}'), sdk: typeof client.send }) });`,
    '',
  ].join('\n');
}

function writeHandler(dir, version) {
  write(dir, 'lambda/items.ts', handlerSource(version, 'items'));
}

/** The stack, with routes /extra1../extraN on the items function. */
function writeStack(dir, extraRoutes, comment = '') {
  write(dir, 'lib/bench-stack.ts', [
    "import * as path from 'path';",
    "import { Stack, StackProps } from 'aws-cdk-lib';",
    "import * as apigw from 'aws-cdk-lib/aws-apigateway';",
    "import * as lambda from 'aws-cdk-lib/aws-lambda';",
    "import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';",
    "import { Construct } from 'constructs';",
    `// ${comment}`,
    'export class BenchStack extends Stack {',
    '  constructor(scope: Construct, id: string, props?: StackProps) {',
    '    super(scope, id, props);',
    "    const api = new apigw.RestApi(this, 'Api', { cloudWatchRole: false, deployOptions: { stageName: 'dev' } });",
    "    const fns = ['items', 'orders', 'users'].map((name) => new NodejsFunction(this, `${name}Function`, {",
    "      entry: path.join(__dirname, '..', 'lambda', `${name}.ts`), runtime: lambda.Runtime.NODEJS_20_X,",
    '    }));',
    "    fns.forEach((fn, i) => api.root.addResource(['items', 'orders', 'users'][i]).addMethod('GET', new apigw.LambdaIntegration(fn)));",
    `    for (let i = 1; i <= ${extraRoutes}; i++) api.root.addResource(\`extra\${i}\`).addMethod('GET', new apigw.LambdaIntegration(fns[0]));`,
    '  }',
    '}',
    '',
  ].join('\n'));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `url` until `accept(status, body)`; the milliseconds since `start`. */
async function firstAnswerMs(start, url, accept) {
  for (;;) {
    const response = await fetch(url);
    const text = await response.text();
    if (accept(response.status, text)) {
      return Number(process.hrtime.bigint() - start) / 1e6;
    }
    if (Number(process.hrtime.bigint() - start) / 1e6 > 60_000) {
      throw new Error(`no accepted answer from ${url} within 60 s (last: ${response.status} ${text})`);
    }
    await sleep(5);
  }
}

/** Resident set size of the sandbox's warm synth process (its child running warm-synth-worker.js), MB. */
function warmRssMb(sandboxPid) {
  const pid = tree(sandboxPid).slice(1).find((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('warm-synth-worker');
    } catch {
      return false; // gone meanwhile
    }
  });
  if (pid === undefined) {
    throw new Error('no warm synth process under the sandbox');
  }
  return memory(pid).rss;
}

/** Waits until stdout has `count` occurrences of `text`. */
async function untilCount(state, text, count) {
  const until = Date.now() + 60_000;
  while (state.out.split(text).length - 1 < count) {
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${count}x ${text}:\n${state.out}\n${state.err}`);
    }
    await sleep(10);
  }
}

async function run(report) {
  requireCompiledCli();
  const dir = createProject();
  const sandbox = startSandbox(dir);
  try {
    const base = await sandbox.ready;
    const colds = [];
    const edits = [];
    const routes = [];
    for (let i = 1; i <= RUNS; i++) {
      // Interleaved, so that all see the same machine load.
      // The cold synth: the app command in a new process, as the CDK CLI (and a sandbox without a warm synth) runs it.
      colds.push(synthMs(dir, 'npx tsx bin/app.ts'));
      await sleep(300);
      let start = process.hrtime.bigint();
      writeHandler(dir, i);
      edits.push(await firstAnswerMs(start, `${base}items`, (status, text) => status === 200 && JSON.parse(text).version === i));
      await sleep(300);
      start = process.hrtime.bigint();
      writeStack(dir, i);
      routes.push(await firstAnswerMs(start, `${base}extra${i}`, (status) => status === 200));
      await sleep(300);
    }
    const cold = median(colds);
    const edit = median(edits);
    report({ name: `sandbox reload: cold synth of the tsx app (median of ${RUNS})`, value: cold, unit: ' ms' });
    report({ name: `sandbox reload: handler saved -> new answer vs cold synth (median of ${RUNS})`, value: edit, baseline: cold, unit: ' ms', target: 0.25 });
    report({ name: 'sandbox reload: handler saved -> new answer, absolute', value: edit, unit: ' ms', target: 1000 });
    report({ name: `sandbox reload: new route -> first answer vs cold synth (median of ${RUNS})`, value: median(routes), baseline: cold, unit: ' ms', target: 0.5 });

    // Memory of the warm synth process over many synths (stack edits, each a warm synth).
    const synthsBefore = sandbox.state.out.split('Reloaded in').length - 1;
    const rss = {};
    for (let i = 1; i <= MEMORY_RELOADS; i++) {
      writeStack(dir, RUNS, `reload ${i}`);
      await untilCount(sandbox.state, 'Reloaded in', synthsBefore + i);
      if (i === 1 || i === 10 || i === MEMORY_RELOADS) {
        await sleep(200); // the worker collects garbage right after each run
        rss[i] = warmRssMb(sandbox.child.pid);
      }
    }
    report({ name: 'sandbox reload: warm synth process RSS after reload 1', value: rss[1], unit: ' MB' });
    report({ name: 'sandbox reload: warm synth process RSS after reload 10', value: rss[10], unit: ' MB' });
    report({ name: `sandbox reload: warm synth RSS after reload ${MEMORY_RELOADS} vs after 10`, value: rss[MEMORY_RELOADS], baseline: rss[10], unit: ' MB', target: 1.1 });
  } finally {
    await stopSandbox(sandbox, dir);
  }
}

module.exports = { run };
