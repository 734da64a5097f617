// Response streaming through the local API (`vendor-outputs serve`, compiled lib/): a streaming
// handler (awslambda.streamifyResponse: a prelude, then CHUNKS chunks CHUNK_GAP_MS apart) behind a
// function URL with InvokeMode RESPONSE_STREAM, and a handler doing the same work that returns its
// body at the end behind one with BUFFERED, measured in the same run: the streamed response's time
// to first byte against the buffered response's full time (the streamed one must not wait for the handler: ratio
// well under 1), and the streamed response's full time against the buffered one (the stream's cost).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { CLI, start, stop } = require('./cli-process');
const { median } = require('./stats');

const CHUNKS = 10;
const CHUNK_GAP_MS = 30;
const REQUESTS = 20;

function synthesize() {
  const cdk = require('aws-cdk-lib');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-streaming-'));
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'BenchStreaming');
  const streamedSource = `exports.handler = awslambda.streamifyResponse(async (event, responseStream) => {
    const stream = awslambda.HttpResponseStream.from(responseStream, { statusCode: 200, headers: { 'content-type': 'text/plain' } });
    for (let i = 0; i < ${CHUNKS}; i++) {
      stream.write('chunk ' + i + '\\n');
      await new Promise((r) => setTimeout(r, ${CHUNK_GAP_MS}));
    }
    stream.end();
  });`;
  // The same work answered at once at the end: a BUFFERED URL reads the result as JSON, so a
  // streaming handler's gathered bytes (prelude, NULs, body) are not an answer it can give (502).
  const bufferedSource = `exports.handler = async () => {
    let body = '';
    for (let i = 0; i < ${CHUNKS}; i++) {
      body += 'chunk ' + i + '\\n';
      await new Promise((r) => setTimeout(r, ${CHUNK_GAP_MS}));
    }
    return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body };
  };`;
  for (const [id, invokeMode, source] of [['Streamed', lambda.InvokeMode.RESPONSE_STREAM, streamedSource], ['Buffered', lambda.InvokeMode.BUFFERED, bufferedSource]]) {
    const fn = new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromInline(source) });
    fn.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE, invokeMode });
  }
  app.synth();
  return outdir;
}

/** One GET that must answer 200 with the handler's chunks: ms to the first body byte and to the end. */
function timedGet(url) {
  const http = require('http');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let first;
    http.get(url, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url} answered ${res.statusCode}, not 200`));
        return;
      }
      res.on('data', () => { first ??= performance.now() - started; });
      res.on('end', () => resolve({ firstMs: first, fullMs: performance.now() - started }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function measure(url) {
  await timedGet(url); // warm: the environment starts on the first request
  const runs = [];
  for (let i = 0; i < REQUESTS; i++) {
    runs.push(await timedGet(url));
  }
  return { firstMs: median(runs.map((r) => r.firstMs)), fullMs: median(runs.map((r) => r.fullMs)) };
}

async function run(report) {
  const assembly = synthesize();
  const pattern = /Streamed\/FunctionUrl \(.*?\) at http:\/\/127\.0\.0\.1:(\d+)\/\n.*Buffered\/FunctionUrl \(.*?\) at http:\/\/127\.0\.0\.1:(\d+)\//;
  const server = start([CLI, 'serve', '--app', assembly, '--port', '0', '--quiet'], pattern);
  try {
    const [, streamedPort, bufferedPort] = await server.ready;
    const streamed = await measure(`http://127.0.0.1:${streamedPort}/`);
    const buffered = await measure(`http://127.0.0.1:${bufferedPort}/`);
    const handlerMs = CHUNKS * CHUNK_GAP_MS;
    report({ name: `function URL RESPONSE_STREAM: time to first byte vs BUFFERED full time (${handlerMs} ms handler)`, value: streamed.firstMs, baseline: buffered.fullMs, unit: ' ms', target: 0.2 });
    report({ name: 'function URL RESPONSE_STREAM: full time vs BUFFERED full time', value: streamed.fullMs, baseline: buffered.fullMs, unit: ' ms', target: 1.1 });
  } finally {
    await stop(server.child);
    fs.rmSync(assembly, { recursive: true, force: true });
  }
}

module.exports = { run };
