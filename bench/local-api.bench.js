// Local REST API (`vendor-outputs serve`, compiled lib/) under autocannon at 50 connections, each
// figure against a baseline measured in the same run (issue 27's targets):
// - throughput of GET /prod/items against a bare Node.js `http` server sending the same body and
//   headers, running inside this process (the load generator's), as the local API's processes share
//   the 2 cores with the load generator (target >= 0.8); against a bare server in a process of its
//   own as well, for comparison with earlier figures (no target);
// - CPU time per request of the server and all its descendant processes (the runtime hosts), from
//   /proc/<pid>/stat, against a bare server in its own process under the same load (target <= 2.5);
//   beside it, the same bare server handing each request to a child process and answering with
//   what the child returns (forwarding-server.js): what a process boundary costs before any work;
// - p50 / p99 latency (p99 <= 5 ms), errors + non-2xx (0), peak RSS under load;
// - time from command start to the first answered request; 2 x 10,000 requests with 0 errors and
//   no RSS growth over the second 10,000;
// - a burst of 2,000 concurrent requests to a function that takes 200 ms, from cold: failed (0),
//   wall time (<= 3 s), peak RSS of the server and its runtime hosts (<= 1 GB);
// - the HTTP API route (API Gateway v2, payload 2.0, the same function and body) against the bare
//   server in this process, beside the REST route: ratio (target >= 0.8) and p99 (<= 5 ms);
// - the price of the gateway's checks: GET behind a cached Lambda TOKEN authorizer and behind a
//   required API key, each as a ratio to the plain route of the same server (>= 0.8).
// Each environment's cold start, per runtime, is in local-api-cold-start.bench.js.
const fs = require('fs');
const { replayedHeaders, bareInProcess, bareInOwnProcess, forwardingToChild } = require('./bare-server');
const { stop, msSince, serve, untilAnswered } = require('./cli-process');
const { API_KEY, ITEMS_BODY, SLOW_MS, TOKEN, synthesizeLocalApiApp } = require('./local-api-app');
const { CONNECTIONS, burst, failures, load } = require('./load');
const { cpuMsBetween, cpuSnapshot, memory, sampleTreeRss } = require('./process-tree');

const DURATION_S = Number(process.env.BENCH_DURATION_S || 5);
const BURST = 2000;
// Lambda's default account concurrency (1000) is what `serve` applies, and past it the server
// answers 429; the burst measures environments starting, not throttling, so the quota is raised
// above the burst's 2,000.
const BURST_ENV = { VENDOR_OUTPUTS_MAX_CONCURRENCY: '2500' };

async function run(report) {
  const assembly = synthesizeLocalApiApp();
  try {
    await measureServer(report, assembly);
    await measureHttpApi(report, assembly);
    await measureChecks(report, assembly);
  } finally {
    fs.rmSync(assembly, { recursive: true, force: true });
  }
}

/** Everything measured on stack BenchLocalApi, one server from start to the burst. */
async function measureServer(report, assembly) {
  const local = await serve(assembly, 'BenchLocalApi', BURST_ENV);
  const itemsUrl = `${local.base}/items`;
  const bare = [];
  try {
    await untilAnswered(itemsUrl, 10_000);
    const startupMs = msSince(local.started);
    const { body, headers } = await probe(itemsUrl);
    bare.push(await bareInProcess(body, headers));
    bare.push(await bareInOwnProcess(body, headers));
    bare.push(await forwardingToChild(body, headers));
    await measureThroughput(report, { url: itemsUrl, pid: local.child.pid }, bare[0], bare[1], bare[2]);
    report({ name: 'serve: command start to first answered request', value: startupMs, unit: ' ms', target: 1000 });
    await measureEndurance(report, itemsUrl, local.child.pid);
    await measureBurst(report, `${local.base}/slow`, local.child.pid);
  } finally {
    await Promise.all([stop(local.child), ...bare.map((server) => server.close())]);
  }
}

/** One GET: the body must be the function's, and the headers are what the bare servers send too. */
async function probe(url) {
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200 || body !== ITEMS_BODY) {
    throw new Error(`local API answered ${response.status} with a body that differs: ${body}`);
  }
  return { body, headers: replayedHeaders(response) };
}

/** A run of DURATION_S seconds with the CPU time of the process tree of `pid` per request, in µs. */
async function loadWithCpu(url, pid) {
  const before = cpuSnapshot(pid);
  const result = await load(url, { duration: DURATION_S });
  const cpu = cpuMsBetween(before, cpuSnapshot(pid));
  const perRequestUs = (ms) => (ms * 1000) / result.requests.total;
  return { result, cpuUs: perRequestUs(cpu.total), rootCpuUs: perRequestUs(cpu.root) };
}

/**
 * Throughput, latency and CPU per request: the bare server in this process before and after the
 * local API (the better of the two counts), and the bare server in its own process.
 */
async function measureThroughput(report, local, bareHere, bareOwn, forwarding) {
  for (const url of [bareHere.url, local.url, bareOwn.url, forwarding.url]) {
    await load(url, { duration: 1 });
  }
  const here1 = await load(bareHere.url, { duration: DURATION_S });
  const rss = sampleTreeRss(local.pid);
  const localRun = await loadWithCpu(local.url, local.pid);
  const peak = Math.max(rss.stop(), memory(local.pid).peak);
  const ownRun = await loadWithCpu(bareOwn.url, bareOwn.pid);
  const forwardingRun = await loadWithCpu(forwarding.url, forwarding.pid);
  const here2 = await load(bareHere.url, { duration: DURATION_S });
  const here = here1.requests.average >= here2.requests.average ? here1 : here2;
  const localResult = localRun.result;

  report({ name: `GET /prod/items req/s (${CONNECTIONS} conn) vs bare server in this process`, value: localResult.requests.average, baseline: here.requests.average, unit: ' req/s', target: 0.8, higherIsBetter: true });
  report({ name: '  the same vs a bare server in its own process (earlier)', value: localResult.requests.average, baseline: ownRun.result.requests.average, unit: ' req/s' });
  report({ name: 'CPU per request: server + runtime hosts vs bare (own process)', value: localRun.cpuUs, baseline: ownRun.cpuUs, unit: ' µs', target: 2.5 });
  report({ name: '  of which in the runtime hosts (the server\'s descendants)', value: localRun.cpuUs - localRun.rootCpuUs, unit: ' µs' });
  report({ name: '  the boundary alone: bare server + child process vs bare', value: forwardingRun.cpuUs, baseline: ownRun.cpuUs, unit: ' µs' });
  report({ name: 'local API p50 latency vs bare server in this process', value: localResult.latency.p50, baseline: here.latency.p50, unit: ' ms' });
  report({ name: 'local API p99 latency', value: localResult.latency.p99, unit: ' ms', target: 5 });
  report({ name: 'local API errors + non-2xx during the throughput run', value: failures(localResult), unit: '', target: 0 });
  report({ name: 'local API peak RSS under load (server + runtime hosts)', value: peak, unit: ' MB', target: 200 });
}

/** 10,000 requests, twice: errors must be 0 and the second batch must not grow the server's memory. */
async function measureEndurance(report, url, pid) {
  const first = await load(url, { amount: 10_000 });
  const after1 = memory(pid).rss;
  const second = await load(url, { amount: 10_000 });
  const after2 = memory(pid).rss;
  report({ name: '2 x 10,000 requests: errors + non-2xx', value: failures(first) + failures(second), unit: '', target: 0 });
  report({ name: 'RSS growth over the second 10,000 requests', value: after2 - after1, unit: ' MB', target: 10 });
}

/** BURST concurrent requests to a function that takes SLOW_MS and has not run yet. */
async function measureBurst(report, url, pid) {
  const rss = sampleTreeRss(pid);
  const outcome = await burst(url, BURST);
  const peak = rss.stop();
  if (outcome.failed > 0) {
    console.log(`     burst outcomes: ${JSON.stringify(outcome.tally)}`);
  }
  report({ name: `${BURST} concurrent requests to a ${SLOW_MS} ms function: failed`, value: outcome.failed, unit: '', target: 0 });
  report({ name: `${BURST} concurrent requests to a ${SLOW_MS} ms function: wall time`, value: outcome.wallMs, unit: ' ms', target: 3000 });
  report({ name: `${BURST} concurrent requests: peak RSS (server + runtime hosts)`, value: peak, unit: ' MB', target: 1024 });
}

/** GET /items of stack BenchHttpApi's HTTP API ($default stage) against the bare server in this process, measured before and after it. */
async function measureHttpApi(report, assembly) {
  const local = await serve(assembly, 'BenchHttpApi', {}, { stage: '$default' });
  const url = `${local.base}/items`;
  let bare;
  try {
    await untilAnswered(url, 10_000);
    const { body, headers } = await probe(url);
    bare = await bareInProcess(body, headers);
    for (const warm of [bare.url, url]) {
      await load(warm, { duration: 1 });
    }
    const bare1 = await load(bare.url, { duration: DURATION_S });
    const httpApi = await load(url, { duration: DURATION_S });
    const bare2 = await load(bare.url, { duration: DURATION_S });
    const here = bare1.requests.average >= bare2.requests.average ? bare1 : bare2;
    report({ name: `HTTP API GET /items (payload 2.0) req/s (${CONNECTIONS} conn) vs bare server in this process`, value: httpApi.requests.average, baseline: here.requests.average, unit: ' req/s', target: 0.8, higherIsBetter: true });
    report({ name: 'HTTP API p99 latency', value: httpApi.latency.p99, unit: ' ms', target: 5 });
    report({ name: 'HTTP API errors + non-2xx during the throughput run', value: failures(httpApi), unit: '', target: 0 });
  } finally {
    await Promise.all([stop(local.child), ...(bare === undefined ? [] : [bare.close()])]);
  }
}

/** The gateway's checks, each as a ratio to the plain route of the same server, measured right before it. */
async function measureChecks(report, assembly) {
  const server = await serve(assembly, 'BenchChecks');
  const { base } = server;
  try {
    await untilAnswered(`${base}/items`, 10_000);
    await load(`${base}/items`, { duration: 1 });
    const routes = [
      { name: 'a cached Lambda authorizer', url: `${base}/authorized`, headers: { Authorization: TOKEN } },
      { name: 'an API key of a usage plan', url: `${base}/keyed`, headers: { 'x-api-key': API_KEY } },
    ];
    for (const route of routes) {
      const check = await fetch(route.url, { headers: route.headers });
      await check.text();
      if (check.status !== 200) {
        throw new Error(`${route.url} answered ${check.status} with its credentials`);
      }
      await load(route.url, { duration: 1, headers: route.headers });
      const plain = await load(`${base}/items`, { duration: DURATION_S });
      const behind = await load(route.url, { duration: DURATION_S, headers: route.headers });
      report({ name: `GET behind ${route.name} (ratio to the plain route)`, value: behind.requests.average, baseline: plain.requests.average, unit: ' req/s', target: 0.8, higherIsBetter: true });
      report({ name: `GET behind ${route.name}: errors + non-2xx`, value: failures(behind), unit: '', target: 0 });
    }
  } finally {
    await stop(server.child);
  }
}

module.exports = { run };
