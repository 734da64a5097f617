// Starting and stopping `vendor-outputs serve` (and other Node.js processes) for the benchmarks.
// BENCH_CLI=path/to/main.js measures another build of the CLI (default lib/cli/main.js).
const { spawn } = require('child_process');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(ROOT, 'lib', 'cli', 'main.js');
const SERVING = /at http:\/\/127\.0\.0\.1:(\d+)\/prod\//;
// An HTTP API's $default stage is served at the root of its port.
const SERVING_ROOT = /at http:\/\/127\.0\.0\.1:(\d+)\//;

/** Starts a Node.js process and resolves `ready` once `pattern` appears in its stdout (with the match). */
function start(args, pattern, env = {}) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Milliseconds since `started` (a `process.hrtime.bigint()`). */
function msSince(started) {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * `vendor-outputs serve` of one stack of `assembly`; resolves once it listens, with the process,
 * the stage's base URL (`stage: '$default'`: the port's root, as an HTTP API serves it) and its start time.
 */
async function serve(assembly, stack, env = {}, { stage = 'prod' } = {}) {
  const server = start([CLI, 'serve', '--app', assembly, '--stack', stack, '--port', '0', '--quiet'], stage === '$default' ? SERVING_ROOT : SERVING, env);
  const port = (await server.ready)[1];
  return { child: server.child, started: server.started, base: stage === '$default' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/${stage}` };
}

/** GETs `url` until it answers 200 (or the deadline passes); resolves with the body. */
async function untilAnswered(url, deadlineMs) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    try {
      const response = await fetch(url);
      const body = await response.text();
      if (response.status === 200) {
        return body;
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

module.exports = { CLI, start, stop, msSince, serve, untilAnswered };
