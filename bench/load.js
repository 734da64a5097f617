// The load the local API benchmarks apply: autocannon at 50 connections, and a burst of requests
// all sent at once, each on its own connection.
const http = require('http');
const autocannon = require('autocannon');

const CONNECTIONS = 50;

/** autocannon at {@link CONNECTIONS} connections against `url` (`duration` in s, or `amount` requests). */
function load(url, options) {
  return autocannon({ url, connections: CONNECTIONS, ...options });
}

/** Errors, time-outs and non-2xx answers of an autocannon result. */
function failures(result) {
  return result.errors + result.timeouts + result.non2xx;
}

/** `count` GET requests all sent at once, each on its own connection; a client time-out of 10 s. */
async function burst(url, count) {
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

module.exports = { CONNECTIONS, load, failures, burst };
