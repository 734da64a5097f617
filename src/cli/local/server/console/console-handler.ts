/**
 * Answers `/@console...` on every API port: the page's files from memory and its three JSON
 * endpoints. The APIs, functions and invoker are read from the server at each request, so a
 * reload (sandbox) shows at once.
 *
 *   GET  /@console/                the page (console.css, console.js beside it)
 *   GET  /@console/api/apis        the resource tree of every served API
 *   POST /@console/api/test-invoke the TEST of the form (same machinery as `vendor-outputs test-invoke`)
 *   GET  /@console/api/outputs     the vendor_outputs.json the server writes, validated
 *   POST /@console/api/websocket-route  the route a message to a WebSocket API takes
 */
import type * as http from 'http';
import { apiTree, consoleApiId } from './api-tree';
import { ConsoleFile, loadConsoleFiles } from './console-files';
import { CONSOLE_PATH } from './console-path';
import { ConsoleFormError, parseTestForm, runConsoleTest } from './console-test';
import { outputsStatus } from './outputs-status';
import { checkHost, checkTestCaller, Refusal } from './request-guard';
import { routeOfMessage } from './websocket-api-tree';
import type { Invoker } from '../../lambda/invoker';
import type { FunctionSpec } from '../../model/function-spec';
import type { UnservedPart } from '../../model/unserved-part';
import { MAX_BODY_BYTES } from '../../rest/gateway';
import type { Endpoint } from '../endpoint';

/** What the console reads from the server, at each request. */
export interface ConsoleSource {
  readonly endpoints: () => readonly Endpoint[];
  readonly functions: () => ReadonlyMap<string, FunctionSpec>;
  /** What the app has that is not served, with why. */
  readonly unserved: () => readonly UnservedPart[];
  readonly invoker: () => Invoker;
  /** The interface the server listens on (`--host`). */
  readonly host: string;
  /** The vendor_outputs.json the server writes, when it writes one. */
  readonly outputsFile?: string;
  /** Terminal lines (unexpected failures). */
  readonly print: (line: string) => void;
}

/** A TEST body bigger than this is refused: a request body of the gateway's limit, escaped as JSON, fits. */
const MAX_FORM_BYTES = 2 * MAX_BODY_BYTES;

/** The page's headers; its WebSocket panel may connect to the WebSocket APIs of the server's host (any port). */
function pageHeaders(host: string): Record<string, string> {
  const webSockets = `ws://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:*`;
  return {
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ${webSockets}; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

/** The JSON endpoints and the methods each takes. */
const ENDPOINTS: Readonly<Record<string, { readonly methods: readonly string[] } | undefined>> = Object.assign(Object.create(null), {
  '/api/apis': { methods: ['GET'] },
  '/api/outputs': { methods: ['GET'] },
  '/api/test-invoke': { methods: ['POST'] },
  '/api/websocket-route': { methods: ['POST'] },
});

export class ConsoleHandler {
  private readonly files: ReadonlyMap<string, ConsoleFile>;

  constructor(private readonly source: ConsoleSource) {
    this.files = loadConsoleFiles();
  }

  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.route(req, res).catch((error) => {
      this.source.print(`- ERROR console ${req.method} ${req.url}: ${error?.stack ?? error}`);
      sendJson(res, 500, { message: 'the console failed; see the terminal' });
    });
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = checkHost(req.headers, this.source.host);
    if (refused !== undefined) {
      return refuse(res, refused);
    }
    const target = req.url ?? '';
    const question = target.indexOf('?');
    const path = (question < 0 ? target : target.slice(0, question)).slice(CONSOLE_PATH.length);
    const method = req.method ?? 'GET';
    if (path === '') {
      res.writeHead(308, { 'Location': `${CONSOLE_PATH}/`, 'Content-Length': '0' });
      res.end();
      return;
    }
    const file = path.startsWith('/') ? this.files.get(path.slice(1)) : undefined;
    const endpoint = file === undefined ? ENDPOINTS[path] : { methods: ['GET', 'HEAD'] };
    if (endpoint === undefined) {
      return sendJson(res, 404, { message: `nothing at ${CONSOLE_PATH}${path}: the console is at ${CONSOLE_PATH}/` });
    }
    if (!endpoint.methods.includes(method)) {
      return notAllowed(res, method, endpoint.methods);
    }
    if (file !== undefined) {
      return sendFile(res, file, method === 'HEAD', this.source.host);
    }
    switch (path) {
      case '/api/apis':
        return sendJson(res, 200, { apis: apiTree(this.source.endpoints(), this.source.functions()), unserved: this.source.unserved() });
      case '/api/outputs':
        return sendJson(res, 200, outputsStatus(this.source.outputsFile));
      case '/api/websocket-route':
        return this.webSocketRoute(req, res);
      default:
        return this.test(req, res);
    }
  }

  /** `{api, message}` → `{routeKey}` (null: no route takes it). */
  private async webSocketRoute(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = await readBody(req);
    let form: { api?: unknown; message?: unknown } = {};
    try {
      form = JSON.parse(text ?? '');
    } catch {
      // answered below
    }
    const api = this.source.endpoints().find((e) => consoleApiId(e) === form.api)?.api;
    if (api?.kind !== 'WEBSOCKET' || typeof form.message !== 'string') {
      return sendJson(res, 400, { message: 'send {"api": "<stack>/<logical id> of a served WebSocket API", "message": "<text>"}' });
    }
    sendJson(res, 200, { routeKey: routeOfMessage(api, form.message) });
  }

  private async test(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = checkTestCaller(req.headers);
    if (refused !== undefined) {
      return refuse(res, refused);
    }
    const text = await readBody(req);
    if (text === undefined) {
      return sendJson(res, 413, { message: `the TEST form is larger than ${MAX_FORM_BYTES} bytes` });
    }
    try {
      const form = parseTestForm(text);
      const result = await runConsoleTest(form, this.source.endpoints(), this.source.invoker(), this.source.functions());
      sendJson(res, 200, result);
    } catch (error) {
      if (!(error instanceof ConsoleFormError)) {
        throw error;
      }
      sendJson(res, 400, { message: error.message });
    }
  }
}

/** The body as text; undefined when it is larger than the form limit. */
function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      tooBig ||= size > MAX_FORM_BYTES;
      if (!tooBig) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(tooBig ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function notAllowed(res: http.ServerResponse, method: string, allowed: readonly string[]): void {
  const body = JSON.stringify({ message: `${method} is not allowed here; use ${allowed.join(' or ')}` });
  res.writeHead(405, { 'Allow': allowed.join(', '), 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function refuse(res: http.ServerResponse, refusal: Refusal): void {
  sendJson(res, refusal.status, { message: refusal.message });
}

function sendFile(res: http.ServerResponse, file: ConsoleFile, headOnly: boolean, host: string): void {
  res.writeHead(200, { ...pageHeaders(host), 'Content-Type': file.contentType, 'Content-Length': file.body.length });
  res.end(headOnly ? undefined : file.body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
