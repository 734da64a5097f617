// The least a process boundary between the server and the function costs: a bare Node.js `http`
// server that sends each request (method, URL, headers) to a child process over Node's IPC channel
// and answers with what the child returns, both sides batching what is ready in one turn of their
// event loop, as the local API and its runtime hosts do. Nothing else: no routing, no event, no
// Lambda context. `node forwarding-server.js BODY HEADERS` prints `listening PORT`.
const { fork } = require('child_process');
const http = require('http');

const MAX_BATCH = 32;

/** Sends `send(batch)` once per turn of the event loop, or at MAX_BATCH messages. */
function batcher(send) {
  let outbox = [];
  const flush = () => {
    const batch = outbox;
    outbox = [];
    if (batch.length > 0) {
      send(batch);
    }
  };
  return (message) => {
    if (outbox.length === 0) {
      setImmediate(flush);
    }
    outbox.push(message);
    if (outbox.length >= MAX_BATCH) {
      flush();
    }
  };
}

function server(body, headers) {
  const child = fork(__filename, ['child', body, headers], { serialization: 'json', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let next = 0;
  const toChild = batcher((batch) => child.send(batch));
  child.on('message', (batch) => {
    for (const [id, answer] of batch) {
      const response = waiting.get(id);
      waiting.delete(id);
      const { statusCode, headers: answered, body: text } = JSON.parse(answer);
      response.writeHead(statusCode, answered);
      response.end(text);
    }
  });
  const s = http.createServer((request, response) => {
    const id = next++;
    waiting.set(id, response);
    toChild([id, { method: request.method, url: request.url, headers: request.headers }]);
  });
  s.listen(0, '127.0.0.1', () => console.log(`listening ${s.address().port}`));
  process.on('SIGTERM', () => {
    child.kill();
    process.exit(0);
  });
}

function childProcess(body, headers) {
  const answer = JSON.stringify({ statusCode: 200, headers: JSON.parse(headers), body });
  const toServer = batcher((batch) => process.send(batch));
  process.on('message', (batch) => {
    for (const [id] of batch) {
      toServer([id, answer]);
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[2] === 'child') {
  childProcess(process.argv[3], process.argv[4]);
} else {
  server(process.argv[2], process.argv[3]);
}
