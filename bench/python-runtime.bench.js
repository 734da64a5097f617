// The cold start of one Python execution environment (compiled lib/): from spawning bootstrap.py
// to its "ready" (the handler module imported), and the process's resident memory then; median of
// 7 starts, for a handler importing nothing and one importing boto3 (when this machine's Python has it).
// The environment alone, without the server: the same start through `serve`, next to each Node.js
// major's, is in local-api-cold-start.bench.js.
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const { PythonEnvironment } = require(path.join(ROOT, 'lib', 'cli', 'local', 'lambda', 'python', 'python-environment.js'));
const { hostPython } = require(path.join(ROOT, 'lib', 'cli', 'local', 'lambda', 'python', 'python-interpreter.js'));

function coldStart(python, taskRoot, handler) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    let env;
    const done = (value) => { env?.stop(); resolve(value); };
    const events = {
      ready: () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const status = fs.readFileSync(`/proc/${env.child.pid}/status`, 'utf8');
        done({ ms, mb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024 });
      },
      initError: () => done(undefined),
      log: () => undefined,
      result: () => undefined,
      exited: () => done(undefined),
    };
    env = new PythonEnvironment({
      id: 1, python: python.command, taskRoot, environment: { ...process.env, LAMBDA_TASK_ROOT: taskRoot },
      config: { handler, timeoutMs: 3000, memoryMb: 128, maxResponseBytes: 6291556, context: {} }, events,
    });
  });
}

async function run(report) {
  const python = hostPython();
  if (python === undefined || process.platform !== 'linux') {
    console.log('skipped: no python3 (or not Linux: RSS is read from /proc)');
    return;
  }
  const taskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-python-'));
  fs.writeFileSync(path.join(taskRoot, 'bare.py'), 'def handler(event, context):\n    return 1\n');
  fs.writeFileSync(path.join(taskRoot, 'sdk.py'), 'import boto3\n\ndef handler(event, context):\n    return 1\n');
  for (const [label, handler] of [['a handler importing nothing', 'bare.handler'], ['a handler importing boto3', 'sdk.handler']]) {
    const runs = [];
    for (let i = 0; i < 7; i++) {
      const result = await coldStart(python, taskRoot, handler);
      if (result === undefined) {
        break;
      }
      runs.push(result);
    }
    if (runs.length < 7) {
      console.log(`skipped ${label}: it does not import here`);
      continue;
    }
    runs.sort((a, b) => a.ms - b.ms);
    report({ name: `Python ${python.version} environment cold start, ${label}`, value: runs[3].ms, unit: ' ms' });
    report({ name: `Python ${python.version} environment RSS at ready, ${label}`, value: runs[3].mb, unit: ' MB' });
  }
  fs.rmSync(taskRoot, { recursive: true, force: true });
}

module.exports = { run };
