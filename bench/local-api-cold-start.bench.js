// The cold start of an execution environment per runtime family and Node.js major, through
// `vendor-outputs serve` (compiled lib/) of an app synthesized with aws-cdk-lib: one stack per
// runtime (nodejs20.x, nodejs22.x, nodejs24.x, each on its own Node.js major, and the host's
// python3.x), each a RestApi with GET /fn on an inline function whose init does nothing special
// (it draws an id for its environment); `?ms=N` keeps an invocation busy for N ms and the body
// names the interpreter that ran it and the environment's id.
// Measured per runtime, median of 3 serves after one discarded (that one fetches a Node.js major
// into the CLI's cache on first use, and pages the binaries in):
// - from the `serve` command's start to the first answered request (the server starts, then the
//   first environment);
// - the resident memory of the server and its runtime hosts at that first answer;
// - the latency a new environment adds: a second request sent while the first environment is busy
//   for 300 ms needs an environment of its own, so its latency minus 300 ms (the row says when it
//   ran in the first environment instead, having waited for it);
// - the resident memory (server + runtime hosts) that second environment adds, once both are idle.
// No baseline: the figures stand next to the previous ones in the README. The Python environment
// alone (bootstrap to ready, without the server) is in python-runtime.bench.js.
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { stop, msSince, serve, untilAnswered } = require('./cli-process');
const { median } = require('./stats');
const { treeRss } = require('./process-tree');

const BUSY_MS = 300;
const STARTS = 3;
/** The first serve of a Node.js major may fetch it from the npm registry (the CLI allows 180 s). */
const FIRST_SERVE_DEADLINE_MS = 240_000;
const DEADLINE_MS = 30_000;

const NODE_SOURCE = `const environment = Math.random().toString(36).slice(2);
exports.handler = async (event) => {
  const ms = Number(event.queryStringParameters?.ms ?? 0);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { statusCode: 200, body: JSON.stringify({ ranOn: 'Node.js ' + process.version, environment }) };
};`;
const PYTHON_SOURCE = `import json
import sys
import time
import uuid

ENVIRONMENT = uuid.uuid4().hex


def handler(event, context):
    ms = int((event.get('queryStringParameters') or {}).get('ms', '0'))
    time.sleep(ms / 1000)
    return {'statusCode': 200, 'body': json.dumps({'ranOn': 'Python ' + sys.version.split()[0], 'environment': ENVIRONMENT})}
`;

/** `3.11` of this machine's python3, else undefined. */
function hostPythonVersion() {
  try {
    return execFileSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The runtimes measured: name, stack, source, and the interpreter version the body must name. */
function runtimes() {
  const node = [20, 22, 24].map((major) => ({
    name: `nodejs${major}.x`, stack: `BenchColdNodejs${major}`, source: NODE_SOURCE, expected: `Node.js v${major}.`,
  }));
  const python = hostPythonVersion();
  return python === undefined ? node : [...node, {
    name: `python${python}`, stack: 'BenchColdPython', source: PYTHON_SOURCE, expected: `Python ${python}.`,
  }];
}

/** One stack per runtime, each with GET /prod/fn on its function. */
function synthesizeColdStartApp(measured) {
  const cdk = require('aws-cdk-lib');
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-cold-start-'));
  const app = new cdk.App({ outdir });
  for (const runtime of measured) {
    const stack = new cdk.Stack(app, runtime.stack);
    const family = runtime.name.startsWith('nodejs') ? lambda.RuntimeFamily.NODEJS : lambda.RuntimeFamily.PYTHON;
    const fn = new lambda.Function(stack, 'Fn', {
      // aws-cdk-lib names only some runtimes (no NODEJS_24_X in this version): the name is what counts.
      runtime: new lambda.Runtime(runtime.name, family, { supportsInlineCode: true }),
      handler: 'index.handler',
      code: lambda.Code.fromInline(runtime.source),
    });
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    api.root.addResource('fn').addMethod('GET', new apigw.LambdaIntegration(fn));
  }
  app.synth();
  return outdir;
}

/** A GET that must answer 200; resolves with its latency in ms and the function's answer. */
async function timedGet(url) {
  const started = process.hrtime.bigint();
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200) {
    throw new Error(`${url} answered ${response.status}: ${body}`);
  }
  return { ms: msSince(started), ...JSON.parse(body) };
}

/**
 * The latency a new environment adds: a request sent while the only one is busy for BUSY_MS, its
 * latency minus BUSY_MS; and whether it ran in an environment of its own.
 */
async function secondEnvironment(url) {
  const busy = timedGet(`${url}?ms=${BUSY_MS}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const second = await timedGet(`${url}?ms=${BUSY_MS}`);
  const first = await busy;
  return { addedMs: second.ms - BUSY_MS, isNew: second.environment !== first.environment };
}

/** One `serve` of the runtime's stack, measured from its start; the server is stopped after. */
async function coldStart(assembly, runtime, deadlineMs) {
  const server = await serve(assembly, runtime.stack);
  try {
    const url = `${server.base}/fn`;
    const { ranOn } = JSON.parse(await untilAnswered(url, deadlineMs));
    const firstAnswerMs = msSince(server.started);
    const oneEnvironmentMb = treeRss(server.child.pid);
    const second = await secondEnvironment(url);
    const addedMb = treeRss(server.child.pid) - oneEnvironmentMb;
    return { ranOn, firstAnswerMs, oneEnvironmentMb, ...second, addedMb };
  } finally {
    await stop(server.child);
  }
}

/** Rows of the second request: a new environment's, unless it waited for the first one instead. */
function secondRequestRowNames(name, starts) {
  const queued = starts.filter((s) => !s.isNew).length;
  if (queued === 0) {
    return { latency: `  ${name}: latency a second environment adds`, rss: `  ${name}: RSS a second environment adds` };
  }
  const why = `${queued}/${starts.length} queued: no new environment`;
  return { latency: `  ${name}: second request's latency - ${BUSY_MS} ms (${why})`, rss: `  ${name}: RSS added by the second request (${why})` };
}

async function measureRuntime(report, assembly, runtime) {
  await coldStart(assembly, runtime, FIRST_SERVE_DEADLINE_MS);
  const starts = [];
  for (let i = 0; i < STARTS; i++) {
    starts.push(await coldStart(assembly, runtime, DEADLINE_MS));
  }
  const { ranOn } = starts[0];
  if (!ranOn.startsWith(runtime.expected)) {
    console.log(`     ${runtime.name} ran on ${ranOn}, not its own version (see serve's warning)`);
  }
  const middle = (key) => median(starts.map((s) => s[key]));
  report({ name: `cold start ${runtime.name} (${ranOn}): serve start to first answer`, value: middle('firstAnswerMs'), unit: ' ms' });
  report({ name: `  ${runtime.name}: RSS at the first answer (server + runtime hosts)`, value: middle('oneEnvironmentMb'), unit: ' MB' });
  const names = secondRequestRowNames(runtime.name, starts);
  report({ name: names.latency, value: middle('addedMs'), unit: ' ms' });
  report({ name: names.rss, value: middle('addedMb'), unit: ' MB' });
}

async function run(report) {
  if (process.platform !== 'linux') {
    console.log('skipped: RSS is read from /proc (Linux)');
    return;
  }
  const measured = runtimes();
  const assembly = synthesizeColdStartApp(measured);
  try {
    for (const runtime of measured) {
      await measureRuntime(report, assembly, runtime);
    }
  } finally {
    fs.rmSync(assembly, { recursive: true, force: true });
  }
}

module.exports = { run };
