// Local REST API (`vendor-outputs serve`, compiled lib/) against a bare Node http server returning
// the same body, both measured in this run with autocannon at 50 connections.
//
// Measures: throughput ratio and p50/p99 latency of GET /<stage>/items, peak RSS of the server
// (its process and the functions' runtime host processes) under load, time from command start to
// the first answered request, 10,000 requests with 0 errors and no memory growth, and a burst of
// 2,000 concurrent requests to a function that takes 200 ms (errors, wall time, peak RSS). Then the
// price of the gateway's checks: GET on the same function behind a Lambda TOKEN authorizer whose
// result is cached, and behind a required API key of a usage plan, each as a ratio to the plain route.
// BENCH_CLI=path/to/main.js measures another build of the CLI (default lib/cli/main.js).
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const BODY = JSON.stringify(JSON.stringify([{ id: '1', name: 'pen' }, { id: '2', name: 'ink' }, { id: '3', name: 'paper' }]));
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S || 5);
const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(ROOT, 'lib', 'cli', 'main.js');
const BURST = 2000;
const SLOW_MS = 200;
const API_KEY = 'bench-api-key-0123456789';
const TOKEN = 'allow-bench';

/**
 * The benchmark's own app: a RestApi with GET /items on an inline Lambda returning BODY and GET
 * /slow; and a second stack for the gateway's checks.
 */
function synthesize() {
  const cdk = require('aws-cdk-lib');
  const apigw = require('aws-cdk-lib/aws-apigateway');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-local-api-'));
  const app = new cdk.App({ outdir });
  const itemsFunction = (scope) => new lambda.Function(scope, 'Items', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline(`const body = ${JSON.stringify(BODY)};\nexports.handler = async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body });`),
  });
  const stack = new cdk.Stack(app, 'BenchLocalApi');
  const fn = itemsFunction(stack);
  const slow = new lambda.Function(stack, 'Slow', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline(`exports.handler = async () => { await new Promise((r) => setTimeout(r, ${SLOW_MS})); return { statusCode: 200, body: 'slow' }; };`),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn));
  api.root.addResource('slow').addMethod('GET', new apigw.LambdaIntegration(slow));

  // A second stack, served on its own so that the measurements above keep their app: the plain
  // route again, and the same function behind a cached TOKEN authorizer and behind an API key.
  const checks = new cdk.Stack(app, 'BenchChecks');
  const checked = itemsFunction(checks);
  const authorizerFn = new lambda.Function(checks, 'Authorizer', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline(`exports.handler = async (event) => ({ principalId: 'bench', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: event.authorizationToken === ${JSON.stringify(TOKEN)} ? 'Allow' : 'Deny', Resource: event.methodArn }] } });`),
  });
  const checksApi = new apigw.RestApi(checks, 'Api', { deployOptions: { stageName: 'prod' } });
  checksApi.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(checked));
  // The default TTL (300 s): after the first request the authorizer's answer comes from the cache.
  const authorizer = new apigw.TokenAuthorizer(checks, 'Cached', { handler: authorizerFn });
  checksApi.root.addResource('authorized').addMethod('GET', new apigw.LambdaIntegration(checked), { authorizer });
  checksApi.root.addResource('keyed').addMethod('GET', new apigw.LambdaIntegration(checked), { apiKeyRequired: true });
  const plan = checksApi.addUsagePlan('Plan', { apiStages: [{ api: checksApi, stage: checksApi.deploymentStage }] });
  plan.addApiKey(checksApi.addApiKey('Key', { apiKeyName: 'bench', value: API_KEY }));
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

/** Process ids of `pid` and its descendants (the runtime host processes). */
function tree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const task of fs.readdirSync(`/proc/${out[i]}/task`)) {
      try {
        out.push(...fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
      } catch {
        // the task ended
      }
    }
  }
  return out;
}

/** Samples the RSS of a process tree every 25 ms; `stop()` returns the highest sum, in MB. */
function sampleTreeRss(pid) {
  let peak = 0;
  const sample = () => {
    let total = 0;
    for (const p of tree(pid)) {
      try {
        total += memory(p).rss;
      } catch {
        // the process ended
      }
    }
    peak = Math.max(peak, total);
  };
  sample();
  const timer = setInterval(sample, 25);
  return { stop: () => { clearInterval(timer); sample(); return peak; } };
}

/** `count` GET requests all sent at once, each on its own connection; a client time-out of 10 s. */
async function burst(url, count) {
  const http = require('http');
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const started = process.hrtime.bigint();
  const one = () => new Promise((resolve) => {
    const request = http.get(url, { agent, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200 ? 'ok' : `status ${response.statusCode}`));
    });
    request.on('timeout', () => request.destroy(new Error('client time-out')));
    request.on('error', (error) => resolve(error.message === 'client time-out' ? 'time-out' : 'error'));
  });
  const results = await Promise.all(Array.from({ length: count }, one));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();
  const tally = {};
  for (const r of results) {
    tally[r] = (tally[r] ?? 0) + 1;
  }
  return { wallMs, tally, failed: count - (tally.ok ?? 0) };
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
  const local = start([CLI, 'serve', '--app', assembly, '--stack', 'BenchLocalApi', '--port', '0', '--quiet'], /at http:\/\/127\.0\.0\.1:(\d+)\/prod\//);
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
    const loadRss = sampleTreeRss(local.child.pid);
    const localRun = await load(localUrl, { duration: DURATION_S });
    const base2 = await load(bareUrl, { duration: DURATION_S });
    const base = base1.requests.average >= base2.requests.average ? base1 : base2;
    const peak = Math.max(loadRss.stop(), memory(local.child.pid).peak);

    report({ name: `local API GET /prod/items throughput (${CONNECTIONS} conn)`, value: localRun.requests.average, baseline: base.requests.average, unit: ' req/s', target: 0.5, higherIsBetter: true });
    report({ name: 'local API p50 latency', value: localRun.latency.p50, baseline: base.latency.p50, unit: ' ms' });
    report({ name: 'local API p99 latency (target <= 10 ms)', value: localRun.latency.p99, unit: ' ms', target: 10 });
    report({ name: 'local API errors + non-2xx during the throughput run', value: localRun.errors + localRun.timeouts + localRun.non2xx, unit: '', target: 0 });
    report({ name: 'local API peak RSS under load (server + runtime hosts)', value: peak, unit: ' MB', target: 200 });
    report({ name: 'serve: command start to first answered request', value: startupMs, unit: ' ms', target: 1000 });

    // 10,000 requests, twice: errors must be 0 and the second batch must not grow memory.
    const first = await load(localUrl, { amount: 10_000 });
    const after1 = memory(local.child.pid).rss;
    const second = await load(localUrl, { amount: 10_000 });
    const after2 = memory(local.child.pid).rss;
    const errors = first.errors + first.timeouts + first.non2xx + second.errors + second.timeouts + second.non2xx;
    report({ name: '2 x 10,000 requests: errors + non-2xx', value: errors, unit: '', target: 0 });
    report({ name: 'RSS growth over the second 10,000 requests', value: after2 - after1, unit: ' MB', target: 10 });

    // A burst: 2,000 concurrent requests to a function that takes 200 ms, from a cold function.
    const slowUrl = localUrl.replace(/\/items$/, '/slow');
    const burstRss = sampleTreeRss(local.child.pid);
    const run = await burst(slowUrl, BURST);
    const burstPeak = burstRss.stop();
    if (run.failed > 0) {
      console.log(`     burst outcomes: ${JSON.stringify(run.tally)}`);
    }
    report({ name: `${BURST} concurrent requests to a ${SLOW_MS} ms function: failed`, value: run.failed, unit: '', target: 0 });
    report({ name: `${BURST} concurrent requests to a ${SLOW_MS} ms function: wall time`, value: run.wallMs, unit: ' ms', target: 3000 });
    report({ name: `${BURST} concurrent requests: peak RSS (server + runtime hosts)`, value: burstPeak, unit: ' MB' });
  } finally {
    await Promise.all([stop(local.child), stop(bare.child)]);
  }
  try {
    await measureChecks(report, assembly);
  } finally {
    fs.rmSync(assembly, { recursive: true, force: true });
  }
}

/** The gateway's checks, each as a ratio to the plain route of the same server, measured right before it. */
async function measureChecks(report, assembly) {
  const server = start([CLI, 'serve', '--app', assembly, '--stack', 'BenchChecks', '--port', '0', '--quiet'], /at http:\/\/127\.0\.0\.1:(\d+)\/prod\//);
  const base = `http://127.0.0.1:${(await server.ready)[1]}/prod`;
  try {
    await untilAnswered(`${base}/items`, 10_000);
    await load(`${base}/items`, { duration: 1 });
    const routes = [
      { name: 'a cached Lambda authorizer', url: `${base}/authorized`, headers: { Authorization: TOKEN } },
      { name: 'an API key of a usage plan', url: `${base}/keyed`, headers: { 'x-api-key': API_KEY } },
    ];
    for (const route of routes) {
      const probe = await fetch(route.url, { headers: route.headers });
      await probe.text();
      if (probe.status !== 200) {
        throw new Error(`${route.url} answered ${probe.status} with its credentials`);
      }
      await load(route.url, { duration: 1, headers: route.headers });
      const plain = await load(`${base}/items`, { duration: DURATION_S });
      const behind = await load(route.url, { duration: DURATION_S, headers: route.headers });
      report({ name: `GET behind ${route.name} (ratio to the plain route)`, value: behind.requests.average, baseline: plain.requests.average, unit: ' req/s', target: 0.8, higherIsBetter: true });
      report({ name: `GET behind ${route.name}: errors + non-2xx`, value: behind.errors + behind.timeouts + behind.non2xx, unit: '', target: 0 });
    }
  } finally {
    await stop(server.child);
  }
}

module.exports = { run };
