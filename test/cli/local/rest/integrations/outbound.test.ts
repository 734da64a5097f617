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

let server: http.Server;
let base: string;
const received: Received[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
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
