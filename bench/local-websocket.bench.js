// A WebSocket API served by `vendor-outputs serve` (compiled lib/): messages per second through a
// two-way `$default` route whose function echoes the body, against a bare `ws` server echoing in
// this process (where the load generator runs, so it shares the 2 cores as the local API's
// processes do), both under the same load measured in the same run: CONNECTIONS clients, each
// keeping WINDOW messages in flight for DURATION_S seconds.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { WebSocket, WebSocketServer } = require('ws');
const { start, stop } = require('./cli-process');

const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(__dirname, '..', 'lib', 'cli', 'main.js');
const DURATION_S = Number(process.env.BENCH_WS_DURATION_S || 3);
const CONNECTIONS = 10;
const WINDOW = 8;
const MESSAGE = JSON.stringify({ action: 'echo', text: 'hello' });

async function run(report) {
  const assembly = synthesizeWebSocketApp();
  const bare = await bareEchoServer();
  const local = start([CLI, 'serve', '--app', assembly, '--port', '0', '--quiet'], /\$default\s+(ws:\/\/127\.0\.0\.1:\d+\/prod)/);
  try {
    const url = (await local.ready)[1];
    await throughput(url, 0.5); // warm the function's environments
    const served = await throughput(url, DURATION_S);
    const baseline = await throughput(bare.url, DURATION_S);
    report({ name: 'WebSocket API: echo messages/s through $default vs bare ws', value: served, baseline, unit: ' msg/s', higherIsBetter: true });
  } finally {
    await Promise.all([stop(local.child), bare.close()]);
    fs.rmSync(assembly, { recursive: true, force: true });
  }
}

function synthesizeWebSocketApp() {
  const cdk = require('aws-cdk-lib');
  const lambda = require('aws-cdk-lib/aws-lambda');
  const apigwv2 = require('aws-cdk-lib/aws-apigatewayv2');
  const { WebSocketLambdaIntegration } = require('aws-cdk-lib/aws-apigatewayv2-integrations');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-bench-ws-'));
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'BenchWebSocket');
  const echo = new lambda.Function(stack, 'Echo', {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async (event) => ({ statusCode: 200, body: event.body });'),
  });
  const api = new apigwv2.WebSocketApi(stack, 'Api', { defaultRouteOptions: { integration: new WebSocketLambdaIntegration('Echo', echo), returnResponse: true } });
  new apigwv2.WebSocketStage(stack, 'Prod', { webSocketApi: api, stageName: 'prod', autoDeploy: true });
  app.synth();
  return outdir;
}

/** A `ws` server in this process sending every message back. */
function bareEchoServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) => ws.on('message', (data) => ws.send(data.toString())));
  return new Promise((resolve) => server.on('listening', () => resolve({
    url: `ws://127.0.0.1:${server.address().port}/prod`,
    close: () => new Promise((closed) => {
      server.clients.forEach((c) => c.terminate());
      server.close(() => closed());
    }),
  })));
}

/** Echoed messages per second over `seconds`, CONNECTIONS clients each with WINDOW messages in flight. */
async function throughput(url, seconds) {
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(url)));
  let answered = 0;
  let running = true;
  const started = process.hrtime.bigint();
  for (const ws of clients) {
    ws.on('message', () => {
      answered++;
      if (running) {
        ws.send(MESSAGE);
      }
    });
    for (let i = 0; i < WINDOW; i++) {
      ws.send(MESSAGE);
    }
  }
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  clients.forEach((ws) => ws.terminate());
  return answered / elapsedS;
}

function connect(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

module.exports = { run };
