// Local REST API (`vendor-outputs serve`, compiled lib/) against a bare Node http server returning
// the same body, both measured in this run with autocannon at 50 connections.
//
// Measures: throughput ratio and p50/p99 latency of GET /<stage>/items, peak RSS of the server
// process under load, time from command start to the first answered request, and 10,000 requests
// with 0 errors and no memory growth.
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const BODY = JSON.stringify(JSON.stringify([{ id: '1', name: 'pen' }, { id: '2', name: 'ink' }, { id: '3', name: 'paper' }]));
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S || 5);

/** The benchmark's own app: a RestApi with GET /items on an inline Lambda returning BODY. */
function synthesize() {
  const cdk = require('aws-cdk-lib');
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-local-api-'));
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'BenchLocalApi');
  const fn = new lambda.Function(stack, 'Items', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline(`const body = ${JSON.stringify(BODY)};\nexports.handler = async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body });`),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn));
  app.synth();
  return outdir;
}

/** Starts a process and resolves once `pattern` appears in its stdout (with the match). */
function start(args, pattern) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve(m);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${out}\n${err}`)));
  });
  return { child, started, ready };
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function load(url, options) {
  return autocannon({ url, connections: CONNECTIONS, ...options });
}

async function untilAnswered(url, deadlineMs) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status === 200) {
        await response.text();
        return;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      throw new Error(`${url} not answered within ${deadlineMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function run(report) {
  const assembly = synthesize();

  // Bare Node http server: the baseline.
  const bareSource = `const http = require('http'); const body = ${JSON.stringify(BODY)};
    const s = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(body); });
    s.listen(0, '127.0.0.1', () => console.log('listening ' + s.address().port));`;
  const bare = start(['-e', bareSource], /listening (\d+)/);
  const barePort = (await bare.ready)[1];
  const bareUrl = `http://127.0.0.1:${barePort}/prod/items`;

  // The local API, from command start to the first answered request.
  const local = start([path.join(ROOT, 'lib', 'cli', 'main.js'), 'serve', '--app', assembly, '--port', '0', '--quiet'], /at http:\/\/127\.0\.0\.1:(\d+)\/prod\//);
  const localPort = (await local.ready)[1];
  const localUrl = `http://127.0.0.1:${localPort}/prod/items`;
  await untilAnswered(localUrl, 10_000);
  const startupMs = Number(process.hrtime.bigint() - local.started) / 1e6;

  try {
    const check = await (await fetch(localUrl)).text();
    if (check !== JSON.parse(BODY) && check !== BODY) {
      throw new Error(`local API body differs: ${check}`);
    }

    // Warm both up, then measure (baseline first, then local, then baseline again; the better baseline counts).
    await load(bareUrl, { duration: 1 });
    await load(localUrl, { duration: 1 });
    const base1 = await load(bareUrl, { duration: DURATION_S });
    const localRun = await load(localUrl, { duration: DURATION_S });
    const base2 = await load(bareUrl, { duration: DURATION_S });
    const base = base1.requests.average >= base2.requests.average ? base1 : base2;
    const peak = memory(local.child.pid).peak;

    report({ name: `local API GET /prod/items throughput (${CONNECTIONS} conn)`, value: localRun.requests.average, baseline: base.requests.average, unit: ' req/s', target: 0.5, higherIsBetter: true });
    report({ name: 'local API p50 latency', value: localRun.latency.p50, baseline: base.latency.p50, unit: ' ms' });
    report({ name: 'local API p99 latency (target <= 10 ms)', value: localRun.latency.p99, unit: ' ms', target: 10 });
    report({ name: 'local API errors + non-2xx during the throughput run', value: localRun.errors + localRun.timeouts + localRun.non2xx, unit: '', target: 0 });
    report({ name: 'local API server peak RSS under load', value: peak, unit: ' MB', target: 200 });
    report({ name: 'serve: command start to first answered request', value: startupMs, unit: ' ms', target: 1000 });

    // 10,000 requests, twice: errors must be 0 and the second batch must not grow memory.
    const first = await load(localUrl, { amount: 10_000 });
    const after1 = memory(local.child.pid).rss;
    const second = await load(localUrl, { amount: 10_000 });
    const after2 = memory(local.child.pid).rss;
    const errors = first.errors + first.timeouts + first.non2xx + second.errors + second.timeouts + second.non2xx;
    report({ name: '2 x 10,000 requests: errors + non-2xx', value: errors, unit: '', target: 0 });
    report({ name: 'RSS growth over the second 10,000 requests', value: after2 - after1, unit: ' MB', target: 10 });
  } finally {
    await Promise.all([stop(local.child), stop(bare.child)]);
    fs.rmSync(assembly, { recursive: true, force: true });
  }
}

module.exports = { run };
