/**
 * The outbound transport against real servers on 127.0.0.1.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { isOutboundFailure, OutboundResponse, sendOutbound } from '../../../../../src/cli/local/rest/integrations/outbound';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  readonly body: string;
}

const MAX = 10 * 1024 * 1024;

/** Writes `total` bytes in 64 KiB chunks as fast as the reader takes them; stops when the reader leaves. */
function streamBytes(res: http.ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const write = () => {
    while (sent < total && !res.destroyed) {
      const part = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
      sent += part.length;
      if (!res.write(part)) {
        res.once('drain', write);
        return;
      }
    }
    if (sent >= total) {
      res.end();
    }
  };
  res.on('close', () => { sent = total + 1; });
  write();
}

let server: http.Server;
let base: string;
const received: Received[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/switching') {
      res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      res.socket?.end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString() });
      if (req.url === '/hang') {
        return; // never answers
      }
      if (req.url === '/slow-body') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first part');
        return; // the body never ends
      }
      if (req.url === '/reported-too-large') {
        res.writeHead(200, { 'Content-Length': String(MAX + 1) });
        res.write('x'.repeat(1000));
        return; // the rest never comes: the length alone refuses it
      }
      if (req.url === '/exactly-the-quota' || req.url === '/streams-too-much') {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        streamBytes(res, req.url === '/exactly-the-quota' ? MAX : 100 * MAX);
        return;
      }
      if (req.url === '/continue-then-final') {
        res.writeContinue();
        res.writeHead(204);
        res.end();
        return;
      }
      if (req.url === '/cut') {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('short');
        res.socket?.destroy();
        return;
      }
      res.writeHead(201, [['X-One', 'a'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'application/json']]);
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

test('sends method, target, headers (repeated names kept, framing from the body) and body; returns the raw response', async () => {
  const result = await sendOutbound({
    method: 'PUT',
    url: `${base}/items/a%20b?x=1&x=2`,
    headers: [['X-Multi', 'one'], ['x-multi', 'two'], ['Content-Length', '999'], ['Content-Type', 'text/plain']],
    body: Buffer.from('hello'),
  }, 2000);
  expect(isOutboundFailure(result)).toBe(false);
  const response = result as OutboundResponse;
  expect(response.statusCode).toBe(201);
  expect(response.headers.filter(([n]) => n === 'Set-Cookie')).toEqual([['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]);
  expect(response.headers).toContainEqual(['X-One', 'a']);
  expect(JSON.parse(response.body.toString())).toEqual({ ok: true });

  expect(received).toHaveLength(1);
  const got = received[0];
  expect(got.method).toBe('PUT');
  expect(got.url).toBe('/items/a%20b?x=1&x=2');
  expect(got.body).toBe('hello');
  const values = (name: string) => got.rawHeaders.flatMap((h, i) => (i % 2 === 0 && h.toLowerCase() === name ? [got.rawHeaders[i + 1]] : []));
  expect(values('x-multi')).toEqual(['one', 'two']);
  const lengthIndex = got.rawHeaders.findIndex((h) => h.toLowerCase() === 'content-length');
  expect(got.rawHeaders[lengthIndex + 1]).toBe('5');
});

test('a GET without a body sends no Content-Length; a POST without a body sends Content-Length: 0', async () => {
  await sendOutbound({ method: 'GET', url: `${base}/`, headers: [], body: Buffer.alloc(0) }, 2000);
  await sendOutbound({ method: 'POST', url: `${base}/`, headers: [], body: Buffer.alloc(0) }, 2000);
  const length = (r: Received) => {
    const i = r.rawHeaders.findIndex((h) => h.toLowerCase() === 'content-length');
    return i < 0 ? undefined : r.rawHeaders[i + 1];
  };
  expect(length(received[0])).toBeUndefined();
  expect(length(received[1])).toBe('0');
});

test.each([
  ['no response at all', '/hang'],
  ['a body that never ends', '/slow-body'],
])('the deadline covers the whole exchange: %s is a timeout', async (_what, target) => {
  const started = Date.now();
  const result = await sendOutbound({ method: 'GET', url: `${base}${target}`, headers: [], body: Buffer.alloc(0) }, 300);
  expect(result).toEqual({ failure: 'timeout', message: `No complete response from ${base} within 300 ms` });
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(Date.now() - started).toBeLessThan(2000);
});

test('a refused connection is a connection failure naming the code and the origin', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const result = await sendOutbound({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: [], body: Buffer.alloc(0) }, 2000);
  expect(result).toMatchObject({ failure: 'connection', message: expect.stringContaining(`ECONNREFUSED connecting to http://127.0.0.1:${port}`) });
});

test('a response cut short is a connection failure, not a truncated response', async () => {
  const result = await sendOutbound({ method: 'GET', url: `${base}/cut`, headers: [], body: Buffer.alloc(0) }, 2000);
  expect(result).toMatchObject({ failure: 'connection' });
});

test.each([
  ['not a URL', 'not a url', 'Invalid endpoint address: not a url'],
  ['another scheme', 'ftp://127.0.0.1/x', 'Unsupported endpoint scheme ftp: in ftp://127.0.0.1/x'],
])('%s is a connection failure, never a throw', async (_what, url, message) => {
  await expect(sendOutbound({ method: 'GET', url, headers: [], body: Buffer.alloc(0) }, 1000)).resolves.toEqual({ failure: 'connection', message });
});

test('a header value Node refuses is a connection failure, never a throw', async () => {
  const result = await sendOutbound({ method: 'GET', url: `${base}/`, headers: [['X-Bad', 'a\nb']], body: Buffer.alloc(0) }, 1000);
  expect(result).toMatchObject({ failure: 'connection' });
  expect(received).toHaveLength(0);
});

describe('the 10 MB payload quota on what the endpoint answers', () => {
  const get = (path: string) => sendOutbound({ method: 'GET', url: `${base}${path}`, headers: [], body: Buffer.alloc(0) }, 20_000);

  test('a Content-Length over 10,485,760 bytes is refused before the body is read', async () => {
    expect(await get('/reported-too-large')).toEqual({
      failure: 'too-large',
      message: `Integration response of reported length ${MAX + 1} is larger than allowed maximum of 10485760 bytes`,
    });
  });

  test('a body of exactly 10,485,760 bytes passes', async () => {
    const result = await get('/exactly-the-quota');
    expect(isOutboundFailure(result) ? result : result.body.length).toBe(MAX);
  });

  test('a streamed body is cut off just past the quota, with memory bounded', async () => {
    const rssBefore = process.memoryUsage().rss;
    const result = await get('/streams-too-much');
    expect(isOutboundFailure(result) && result.failure).toBe('too-large');
    expect(isOutboundFailure(result) && result.message).toMatch(/^Integration response is larger than allowed maximum of 10485760 bytes \(read stopped after \d+ bytes\)$/);
    const stoppedAt = Number(/after (\d+) bytes/.exec(isOutboundFailure(result) ? result.message : '')![1]);
    expect(stoppedAt).toBeGreaterThan(MAX);
    expect(stoppedAt).toBeLessThan(MAX + 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(60 * 1024 * 1024);
  });

  test('an interim 100 Continue is skipped: the final answer is returned', async () => {
    const result = await get('/continue-then-final');
    expect(isOutboundFailure(result) ? result : result.statusCode).toBe(204);
  });

  test('101 Switching Protocols comes back as the status (the gateway then refuses it), the socket closed', async () => {
    const result = await get('/switching');
    expect(isOutboundFailure(result) ? result : [result.statusCode, result.body.length]).toEqual([101, 0]);
  });
});
