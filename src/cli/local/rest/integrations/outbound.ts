/**
 * The gateway's outbound transport: one HTTP(S) request to an integration endpoint (HTTP,
 * HTTP_PROXY and AWS integrations), with one deadline for the whole exchange (connect, send,
 * response headers and body), as the integration timeout counts it.
 *
 * The response body is held to API Gateway's 10 MB payload quota (10,485,760 bytes): a
 * `Content-Length` over it is refused before any byte is read, and a body that grows past it is
 * cut off there (the connection closed), so memory stays bounded whatever the endpoint sends.
 * API Gateway logs that case as "Execution failed due to configuration error: Integration
 * response of reported length N is larger than allowed maximum of 10485760 bytes" (seen in a
 * user's execution log: https://repost.aws/questions/QUQx1CzpQHRWqZW-bjSUukTw), a configuration
 * error, which it answers 500.
 *
 * It never throws: a failure is a value the integration turns into the gateway's answer.
 */
import * as http from 'http';
import * as https from 'https';
import { MAX_BODY_BYTES } from '../pipeline/render-error';

export interface OutboundRequest {
  readonly method: string;
  /** Absolute `http:` or `https:` URL, already encoded. */
  readonly url: string;
  /** Headers in order; a name may repeat. `Content-Length` is set from the body. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

export interface OutboundResponse {
  readonly statusCode: number;
  /** Headers as received (names in their case, repeated names repeated). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** `too-large`: the response body is over the payload quota (the read was stopped). */
export type OutboundResult = OutboundResponse | { readonly failure: 'timeout' | 'connection' | 'too-large'; readonly message: string };

export function isOutboundFailure(result: OutboundResult): result is Extract<OutboundResult, { failure: string }> {
  return 'failure' in result;
}

/** Framing headers the transport computes itself: a caller's value could disagree with the body. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);

/** Methods that carry no body unless one is given (no `Content-Length: 0` for them). */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

export function sendOutbound(request: OutboundRequest, timeoutMs: number): Promise<OutboundResult> {
  const url = endpointUrl(request);
  if (!(url instanceof URL)) {
    return Promise.resolve(url);
  }
  return new Promise((resolve) => exchange(url, request, timeoutMs, resolve));
}

/** The endpoint's URL, or the connection failure of an address that is none or not http(s). */
function endpointUrl(request: OutboundRequest): URL | { readonly failure: 'connection'; readonly message: string } {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { failure: 'connection', message: `Invalid endpoint address: ${request.url}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { failure: 'connection', message: `Unsupported endpoint scheme ${url.protocol} in ${request.url}` };
  }
  return url;
}

function exchange(url: URL, request: OutboundRequest, timeoutMs: number, resolve: (result: OutboundResult) => void): void {
  let settled = false;
  const settle = (result: OutboundResult) => {
    if (!settled) {
      settled = true;
      clearTimeout(timer);
      resolve(result);
    }
  };
  const transport = url.protocol === 'https:' ? https : http;
  let req: http.ClientRequest;
  try {
    req = transport.request(url, { method: request.method, headers: outgoingHeaders(request) });
  } catch (e) {
    // Node refuses invalid header names or values before any connection is made.
    resolve({ failure: 'connection', message: (e as Error).message });
    return;
  }
  const timer = setTimeout(() => {
    settle({ failure: 'timeout', message: `No complete response from ${url.origin} within ${timeoutMs} ms` });
    req.destroy();
  }, timeoutMs);
  req.on('error', (e: NodeJS.ErrnoException) => settle({ failure: 'connection', message: connectionMessage(url, e) }));
  req.on('response', (res) => readBody(url, res, settle, () => {
    res.destroy();
    req.destroy();
  }));
  // `101 Switching Protocols` ends no HTTP exchange: it is returned as the endpoint's status, which
  // the gateway then refuses as it refuses any 1xx (../pipeline/sendable.ts); the socket is closed.
  req.on('upgrade', (res, socket) => {
    socket.destroy();
    settle({ statusCode: res.statusCode ?? 101, headers: pairs(res.rawHeaders), body: Buffer.alloc(0) });
  });
  req.end(request.body.length > 0 ? request.body : undefined);
}

/** Reads the response body up to the payload quota; past it, `stop` closes the connection. */
function readBody(url: URL, res: http.IncomingMessage, settle: (result: OutboundResult) => void, stop: () => void): void {
  const reported = Number(res.headers['content-length']);
  if (reported > MAX_BODY_BYTES) {
    settle({ failure: 'too-large', message: `Integration response of reported length ${reported} is larger than allowed maximum of ${MAX_BODY_BYTES} bytes` });
    stop();
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  res.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_BODY_BYTES) {
      chunks.length = 0;
      settle({ failure: 'too-large', message: `Integration response is larger than allowed maximum of ${MAX_BODY_BYTES} bytes (read stopped after ${received} bytes)` });
      stop();
      return;
    }
    chunks.push(chunk);
  });
  res.on('error', (e: NodeJS.ErrnoException) => settle({ failure: 'connection', message: connectionMessage(url, e) }));
  res.on('aborted', () => settle({ failure: 'connection', message: `${url.origin} closed the connection before the response was complete` }));
  res.on('end', () => settle({ statusCode: res.statusCode ?? 502, headers: pairs(res.rawHeaders), body: Buffer.concat(chunks) }));
}

/** A response whose body is still coming: read it from `body`; `stop` closes the connection. */
export interface OutboundStream {
  readonly statusCode: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: http.IncomingMessage;
  stop(): void;
}

export type OutboundStreamResult = OutboundStream | { readonly failure: 'timeout' | 'connection'; readonly message: string };

/**
 * Sends a request and resolves once the response's status and headers came, within `timeoutMs`
 * (a streaming integration: the body is not held, so no payload quota applies to it).
 */
export function openOutbound(request: OutboundRequest, timeoutMs: number): Promise<OutboundStreamResult> {
  const url = endpointUrl(request);
  if (!(url instanceof URL)) {
    return Promise.resolve(url);
  }
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = (url.protocol === 'https:' ? https : http).request(url, { method: request.method, headers: outgoingHeaders(request) });
    } catch (e) {
      resolve({ failure: 'connection', message: (e as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      resolve({ failure: 'timeout', message: `No response from ${url.origin} within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ failure: 'connection', message: connectionMessage(url, e) });
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve({ statusCode: res.statusCode ?? 502, headers: pairs(res.rawHeaders), body: res, stop: () => req.destroy() });
    });
    req.end(request.body.length > 0 ? request.body : undefined);
  });
}

/** Headers for Node: repeated names as arrays, framing from the body. */
function outgoingHeaders(request: OutboundRequest): http.OutgoingHttpHeaders {
  // Keyed by the first spelling of each name: Node folds names that differ only in case.
  const headers: Record<string, string | string[]> = {};
  const spelling = new Map<string, string>();
  for (const [name, value] of request.headers) {
    const lower = name.toLowerCase();
    if (FRAMING.has(lower)) {
      continue;
    }
    const key = spelling.get(lower) ?? name;
    spelling.set(lower, key);
    const existing = headers[key];
    headers[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  if (request.body.length > 0 || !BODILESS.has(request.method.toUpperCase())) {
    headers['Content-Length'] = String(request.body.length);
  }
  return headers;
}

function pairs(raw: readonly string[]): Array<[string, string]> {
  const result: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    result.push([raw[i], raw[i + 1]]);
  }
  return result;
}

function connectionMessage(url: URL, e: NodeJS.ErrnoException): string {
  return e.code !== undefined ? `${e.code} connecting to ${url.origin}: ${e.message}` : `Connection to ${url.origin} failed: ${e.message}`;
}
