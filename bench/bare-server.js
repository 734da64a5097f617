// The baseline of the local API's throughput and CPU figures: a bare Node.js `http` server that
// answers every request with the same body and headers, either inside the benchmark's own process
// (where the load generator runs, so it shares a core with it as the local API's processes do) or
// in a process of its own (which gets a core to itself on a 2-core machine); and the same server in
// its own process handing each request to a child process (the cost of the process boundary alone).
const http = require('http');
const path = require('path');
const { start, stop } = require('./cli-process');

/** Headers that Node.js's http server writes itself (or that differ per connection). */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The headers of a fetch `Response` that a bare server should send too. */
function replayedHeaders(response) {
  return Object.fromEntries([...response.headers].filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())));
}

/** A bare server in this process; `close()` ends it. */
function bareInProcess(body, headers) {
  const server = http.createServer((request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}/prod/items`,
      close: () => new Promise((closed) => { server.closeAllConnections(); server.close(() => closed()); }),
    }));
  });
}

/** A bare server in a Node.js process of its own (`pid` for its CPU time); `close()` ends it. */
async function bareInOwnProcess(body, headers) {
  const source = `const http = require('http'); const body = ${JSON.stringify(body)}; const headers = ${JSON.stringify(headers)};
    const s = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    s.listen(0, '127.0.0.1', () => console.log('listening ' + s.address().port));`;
  const server = start(['-e', source], /listening (\d+)/);
  const port = (await server.ready)[1];
  return { url: `http://127.0.0.1:${port}/prod/items`, pid: server.child.pid, close: () => stop(server.child) };
}

/**
 * A bare server in a process of its own that forwards each request to a child process and answers
 * with what the child sends back (forwarding-server.js): the floor of a process boundary.
 */
async function forwardingToChild(body, headers) {
  const server = start([path.join(__dirname, 'forwarding-server.js'), body, JSON.stringify(headers)], /listening (\d+)/);
  const port = (await server.ready)[1];
  return { url: `http://127.0.0.1:${port}/prod/items`, pid: server.child.pid, close: () => stop(server.child) };
}

module.exports = { replayedHeaders, bareInProcess, bareInOwnProcess, forwardingToChild };
