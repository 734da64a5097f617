/**
 * The local HTTP server: one listener per REST API (each API has its own host in the cloud, so
 * each gets its own port here), reached at `http://HOST:PORT/<stage>/...`. A reload swaps in the
 * APIs and functions of a new synth without dropping a port or a request in flight.
 */
import * as http from 'http';
import { AddressInfo } from 'net';
import type { Duplex } from 'stream';
import { matchApis } from './api-match';
import type { Endpoint } from './endpoint';
import { formatRouteRows } from './route-table';
import type { ApiHandler, ApiKind, ApiRequest, ApiResponse, KindServing, RouteRow } from '../api-kind/api-kind';
import { apiKindOf } from '../api-kinds';
import type { TokenVerifier } from '../auth/cognito/token-verifier';
import { LocalApiError, usageError } from '../common/local-api-error';
import { ConsoleHandler } from './console/console-handler';
import { isConsoleTarget } from './console/console-path';
import { localTlsTrust } from './tls/local-tls';
import { acceptTlsOnSamePort } from './tls/tls-on-same-port';
import { SigV4Credentials, SigV4Verifier } from '../auth/sigv4';
import { requestId as newRequestId } from '../common/ids';
import { EnvVarsFile } from '../lambda/env-vars';
import { Invoker } from '../lambda/invoker';
import { LocalApp } from '../model/local-app';
import { ApiSpec } from '../model/rest-api';
import { isFinalStatus, unsendable } from '../rest/pipeline/sendable';

export interface ServerOptions {
  /** Interface to bind. @default 127.0.0.1 */
  readonly host?: string;
  /** Port of the first API; the next APIs take the following ports. 0 picks free ports. @default 3000 */
  readonly port?: number;
  readonly credentials?: SigV4Credentials;
  readonly allowUnsigned?: boolean;
  /** Where the terminal lines go (routes, function logs, requests). */
  readonly print: (line: string) => void;
  /** No line per request (function output and refusals are still printed). */
  readonly quiet?: boolean;
  readonly maxWorkersPerFunction?: number;
  /** `--env-vars`: variables over the template's. */
  readonly envVars?: EnvVarsFile;
  /** The CDK app's folder, where the functions' runtimes find what Lambda provides (see lambda/function-runtime.ts). */
  readonly appFolder?: string;
  /** Verifies user pool tokens for Cognito-authorized methods (see cognito/app-pools.ts). */
  readonly tokenVerifier?: TokenVerifier;
  /** Function key → a note for its routes in the listing (see lambda/function-runtime.ts). */
  readonly functionNotes?: ReadonlyMap<string, string>;
  /** The vendor_outputs.json this server's caller writes (`--write-outputs`, sandbox): shown by the console page. */
  readonly outputsFile?: string;
}

/** What a reload takes besides the app (absent: the ones given before are kept). */
export interface ReloadOptions {
  /** Function key → a note for its routes in the listing (see lambda/function-runtime.ts). */
  readonly functionNotes?: ReadonlyMap<string, string>;
  readonly tokenVerifier?: TokenVerifier;
}

/** What a reload changed: routes as `GET http://127.0.0.1:3000/dev/items`, functions as the listing names them. */
export interface ReloadSummary {
  readonly routesAdded: string[];
  readonly routesRemoved: string[];
  /** Functions kept whose code or settings changed (their runtime host was replaced). */
  readonly functionsReloaded: string[];
  readonly functionsAdded: string[];
  readonly functionsRemoved: string[];
}

/** One listening port and the API it serves now (a reload swaps the handler; requests keep the one they arrived with). */
interface Listener {
  readonly server: http.Server;
  readonly port: number;
  handler: ApiHandler;
  endpoint: Endpoint;
  /** The API is gone: the port no longer listens; connections end after their request. */
  retired: boolean;
  /** The port takes WebSocket upgrades and TLS (it has served a WebSocket API). */
  upgrades?: boolean;
}

/** How many ports past a busy one a new API may try. */
const PORT_ATTEMPTS = 100;

export class LocalApiServer {
  /** Reads nothing itself: serves the APIs of an app already read from the assembly. */
  static async start(app: LocalApp, options: ServerOptions): Promise<LocalApiServer> {
    const server = new LocalApiServer(app, options);
    try {
      await server.listen();
    } catch (error) {
      await server.close();
      throw error;
    }
    return server;
  }

  /** The APIs served now (a reload updates this array in place). */
  public readonly endpoints: Endpoint[] = [];
  public readonly invoker: Invoker;
  private listeners: Listener[] = [];
  /** Listeners of removed APIs, until their last connection ends. */
  private readonly retired = new Set<Listener>();
  private readonly verifier: SigV4Verifier | undefined;
  /** What each API kind keeps while this server runs, across reloads (REST: a plan's quota does not restart because code changed). */
  private readonly servings = new Map<ApiKind, KindServing>();
  private functionNotes: ReadonlyMap<string, string> | undefined;
  private tokenVerifier: TokenVerifier | undefined;
  /** The reload running now: the next waits for it. */
  private reloading: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The console page at `/@console/` of every port (see console/console-handler.ts). */
  private readonly console: ConsoleHandler;

  private constructor(private app: LocalApp, private readonly options: ServerOptions) {
    this.verifier = options.credentials === undefined ? undefined : new SigV4Verifier(options.credentials);
    this.functionNotes = options.functionNotes;
    this.tokenVerifier = options.tokenVerifier;
    this.invoker = new Invoker(app.functions, {
      log: (requestId, level, text) => options.print(`${requestId} ${level} ${text}`),
      maxWorkersPerFunction: options.maxWorkersPerFunction,
      envVars: options.envVars,
      appFolder: options.appFolder,
      // Functions of a WebSocket API reach its management API over https (tls/tls-on-same-port.ts).
      environment: app.apis.some((a) => apiKindOf(a).upgradesAndTls === true) ? localTlsTrust(process.env) : undefined,
    });
    this.console = new ConsoleHandler({
      endpoints: () => this.endpoints,
      functions: () => this.app.functions,
      unserved: () => this.app.unserved,
      invoker: () => this.invoker,
      host: this.host,
      outputsFile: options.outputsFile,
      print: options.print,
    });
  }

  /** Lines listing what is mounted: method, URL, what answers it and what the gateway checks first. */
  routeTable(): string[] {
    const rows: RouteRow[] = [];
    for (const endpoint of this.endpoints) {
      endpoint.api.stages.forEach((stage, i) => {
        rows.push(...apiKindOf(endpoint.api).routeRows(endpoint.api, stage, endpoint.urls[i], (key) => this.functionLabel(key), process.env));
      });
    }
    return formatRouteRows(rows);
  }

  /**
   * Serves the APIs and functions of a new synth of the app (see the README's "Reloading"). Each
   * API found again keeps its port, a new one takes the next free port, a removed one stops
   * listening; requests in flight finish on what they started with. When it fails (no port for a
   * new API), nothing changed: the previous state keeps serving. Reloads run one at a time.
   */
  reload(app: LocalApp, options: ReloadOptions = {}): Promise<ReloadSummary> {
    const run = this.reloading.then(() => this.swap(app, options));
    this.reloading = run.catch(() => undefined);
    return run;
  }

  /**
   * The function code folders in use (see Invoker.codeDirectories): a cloud assembly holding one
   * must not be deleted while the server runs, even after a reload served a newer one.
   */
  codeDirectories(): string[] {
    return this.invoker.codeDirectories();
  }

  async close(): Promise<void> {
    this.closed = true;
    // First: a template still running must not hold the server's process open.
    this.servings.forEach((serving) => serving.close?.());
    await Promise.all([...this.listeners, ...this.retired].map((listener) => new Promise<void>((resolve) => {
      listener.server.close(() => resolve());
      listener.server.closeAllConnections();
    })));
    await this.invoker.close();
  }

  private functionLabel(key: string): string {
    const fn = this.app.functions.get(key);
    if (fn === undefined) {
      return key;
    }
    const name = functionName(this.app, key);
    const note = this.functionNotes?.get(key);
    return fn.code.kind === 'unsupported' ? `${name} (not runnable: ${fn.code.reason})` : note === undefined ? name : `${name} (${note})`;
  }

  private async listen(): Promise<void> {
    const firstPort = this.options.port ?? 3000;
    const apis = servedApis(this.app);
    checkPortRange(firstPort, apis.length);
    this.invoker.warmAll();
    for (let i = 0; i < apis.length; i++) {
      const port = firstPort === 0 ? 0 : firstPort + i;
      const listener = await this.open(apis[i], port).catch((error: NodeJS.ErrnoException) => {
        throw listenError(error, this.host, port);
      });
      this.listeners.push(listener);
      this.endpoints.push(listener.endpoint);
    }
  }

  /**
   * A reload: first the ports of new APIs (the only step that can fail; on failure nothing has
   * changed), then, without a pause in between, the functions and every listener's gateway.
   */
  private async swap(app: LocalApp, options: ReloadOptions): Promise<ReloadSummary> {
    if (this.closed) {
      throw new LocalApiError('the local API server is closed; nothing to reload', 'server');
    }
    const routesBefore = this.routeLines();
    const previous = this.app;
    const match = matchApis(this.listeners, servedApis(app), (listener) => listener.endpoint.api);
    const spare = [...match.removed];
    const taken = match.kept.map((k) => k.served.port);
    const placed = new Map<ApiSpec, Listener>();
    try {
      for (const api of match.added) {
        const listener = await this.placeNewApi(api, taken, spare);
        placed.set(api, listener);
        taken.push(listener.port);
      }
    } catch (error) {
      this.discard([...placed.values()].filter((l) => !match.removed.includes(l)));
      throw error;
    }
    if (this.closed) {
      this.discard([...placed.values()].filter((l) => !match.removed.includes(l)));
      throw new LocalApiError('the local API server closed during the reload', 'server');
    }

    this.app = app;
    this.functionNotes = options.functionNotes ?? this.functionNotes;
    this.tokenVerifier = options.tokenVerifier ?? this.tokenVerifier;
    const changes = this.invoker.reload(app.functions);
    const next: Listener[] = [];
    for (const api of servedApis(app)) {
      const listener = match.kept.find((k) => k.next === api)?.served ?? placed.get(api)!;
      listener.handler = this.handlerFor(api);
      listener.endpoint = this.endpointOf(api, listener.port);
      takeUpgrades(listener);
      next.push(listener);
    }
    for (const listener of spare) {
      this.retire(listener);
    }
    this.listeners = next;
    this.endpoints.splice(0, this.endpoints.length, ...next.map((l) => l.endpoint));
    this.invoker.warmAll();

    const routesAfter = this.routeLines();
    return {
      routesAdded: routesAfter.filter((r) => !routesBefore.includes(r)),
      routesRemoved: routesBefore.filter((r) => !routesAfter.includes(r)),
      functionsReloaded: changes.reloaded.map((key) => functionName(app, key)),
      functionsAdded: changes.added.map((key) => functionName(app, key)),
      functionsRemoved: changes.removed.map((key) => functionName(previous, key)),
    };
  }

  /**
   * A port for an API a reload added: with `--port 0` any free one; else the first free port
   * after the ports of the others (a removed API's listener on that port serves the new API).
   */
  private async placeNewApi(api: ApiSpec, taken: readonly number[], spare: Listener[]): Promise<Listener> {
    const firstPort = this.options.port ?? 3000;
    if (firstPort === 0) {
      return this.open(api, 0);
    }
    const first = Math.max(firstPort - 1, ...taken) + 1;
    const which = `the new API ${api.name} (${api.stackName}/${api.logicalId})`;
    if (first > 65535) {
      throw new LocalApiError(`no port left for ${which}: 65535 is the last port; the previous APIs keep serving (restart with a lower --port, or --port 0 for free ports)`, 'server');
    }
    let port = first;
    for (let attempt = 0; attempt < PORT_ATTEMPTS && port <= 65535; attempt++, port++) {
      const reusable = spare.findIndex((l) => l.port === port);
      if (reusable >= 0) {
        return spare.splice(reusable, 1)[0];
      }
      try {
        return await this.open(api, port);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
          throw listenError(error as NodeJS.ErrnoException, this.host, port);
        }
      }
    }
    throw new LocalApiError(`no free port for ${which}: ports ${first} to ${port - 1} are in use; the previous APIs keep serving (free one of them, or restart with --port 0 for free ports)`, 'server');
  }

  /** Binds a listener for `api` on `port` (0: any free one); rejects with the raw listen error. */
  private async open(api: ApiSpec, port: number): Promise<Listener> {
    const server = http.createServer({ keepAliveTimeout: 5000 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    const actual = (server.address() as AddressInfo).port;
    const listener: Listener = { server, port: actual, handler: this.handlerFor(api), endpoint: this.endpointOf(api, actual), retired: false };
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => this.onRequest(listener, req, res));
    takeUpgrades(listener);
    return listener;
  }

  /** The handler of `api`, from its kind (registered in api-kinds.ts). */
  private handlerFor(api: ApiSpec): ApiHandler {
    const kind = apiKindOf(api);
    let serving = this.servings.get(kind);
    if (serving === undefined) {
      serving = kind.serving();
      this.servings.set(kind, serving);
    }
    return serving.handler(api, {
      invoker: this.invoker,
      functions: this.app.functions,
      verifier: this.verifier,
      allowUnsigned: this.options.allowUnsigned,
      tokenVerifier: this.tokenVerifier,
      note: (id, text) => this.note(id, text),
      requestLine: this.options.quiet ? undefined : this.options.print,
    });
  }

  private endpointOf(api: ApiSpec, port: number): Endpoint {
    // An HTTP API's `$default` stage is served at the root, with no stage segment.
    return { api, host: this.host, port, urls: api.stages.map((s) => `http://${urlHost(this.host)}:${port}/${s === '$default' ? '' : `${s}/`}`) };
  }

  private get host(): string {
    return this.options.host ?? '127.0.0.1';
  }

  /** A removed API's port stops listening; its connections close once their request is answered. */
  private retire(listener: Listener): void {
    listener.retired = true;
    this.retired.add(listener);
    listener.server.close(() => this.retired.delete(listener));
    listener.server.closeIdleConnections();
  }

  /** Listeners a failed reload opened: closed before anything could reach them. */
  private discard(listeners: readonly Listener[]): void {
    for (const listener of listeners) {
      listener.server.close();
      listener.server.closeAllConnections();
    }
  }

  /** `METHOD URL` of every method of every stage served. */
  private routeLines(): string[] {
    const lines: string[] = [];
    for (const { api, urls } of this.endpoints) {
      for (const url of urls) {
        lines.push(...apiKindOf(api).routes(api, url));
      }
    }
    return lines;
  }

  private note(requestId: string, text: string): void {
    this.options.print(`${requestId} GATEWAY ${text}`);
  }

  private onRequest(listener: Listener, req: http.IncomingMessage, res: http.ServerResponse): void {
    // The handler of the moment the request arrived: a reload during it does not change its answer.
    const handler = listener.handler;
    const kind = apiKindOf(listener.endpoint.api);
    if (isConsoleTarget(req.url ?? '')) {
      this.console.handle(req, res);
      return;
    }
    const started = this.options.quiet ? 0n : process.hrtime.bigint();
    const length = req.headers['content-length'];
    if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
      // No body: answer without waiting for the stream's end.
      this.answer(listener, handler, kind, req, res, EMPTY, false, started);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = Number(length ?? 0) > kind.maxBodyBytes;
    req.on('data', (chunk: Buffer) => {
      if (tooBig) {
        return;
      }
      size += chunk.length;
      if (size > kind.maxBodyBytes) {
        tooBig = true;
        chunks.length = 0;
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => this.answer(listener, handler, kind, req, res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), tooBig, started));
    req.on('error', () => res.destroy());
  }

  private answer(
    listener: Listener, handler: ApiHandler, kind: ApiKind,
    req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tooBig: boolean, started: bigint,
  ): void {
    const raw = req.rawHeaders;
    const rawHeaders: Array<[string, string]> = [];
    for (let i = 0; i < raw.length; i += 2) {
      rawHeaders.push([raw[i], raw[i + 1]]);
    }
    const request: ApiRequest = {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      rawHeaders,
      body,
      sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
      port: req.socket.localPort,
    };
    const answer = tooBig ? Promise.resolve(kind.tooLarge(newRequestId())) : handler.handle(request);
    answer.then((response) => {
      if (listener.retired) {
        // A reload removed the API while this request ran: its connection ends with this answer.
        res.shouldKeepAlive = false;
      }
      if (!send(res, response)) {
        // The pipeline checks every header; this is the last guard, so that no response can stop the server.
        this.note(response.requestId, `the response could not be sent as HTTP (${describeUnsendable(response)}); answered 502`);
        send(res, { statusCode: 502, headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', response.requestId]], body: '{"message":"Internal server error"}', requestId: response.requestId });
      }
      if (!this.options.quiet) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.options.print(`${response.requestId} ${request.method} ${request.target} ${response.statusCode} ${ms.toFixed(1)} ms`);
      }
    }, (error) => {
      this.options.print(`- ERROR ${request.method} ${request.target}: ${error?.stack ?? error}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
      }
      res.end(JSON.stringify({ message: 'Internal server error' }));
    });
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * A port of a kind that takes upgrades (WebSocket APIs) takes upgrade requests and TLS
 * (tls/tls-on-same-port.ts), once. Only such a port: without an `upgrade` listener Node answers an
 * upgrade request (curl's h2c) as a plain request.
 */
function takeUpgrades(listener: Listener): void {
  if (listener.upgrades || apiKindOf(listener.endpoint.api).upgradesAndTls !== true) {
    return;
  }
  listener.upgrades = true;
  listener.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => upgrade(listener.handler, req, socket, head));
  acceptTlsOnSamePort(listener.server);
}

/** An upgrade request goes to a kind that takes upgrades (WebSocket APIs); a port a reload gave to another kind closes it. */
function upgrade(handler: ApiHandler, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  if (handler.upgrade === undefined) {
    socket.destroy();
  } else {
    handler.upgrade(req, socket, head);
  }
}

/** The APIs that get a port: those with a stage. */
function servedApis(app: LocalApp): ApiSpec[] {
  return app.apis.filter((a) => a.stages.length > 0);
}

/** How the listing names a function: its construct path, else `<stack>/<logical id>`. */
function functionName(app: LocalApp, key: string): string {
  const fn = app.functions.get(key);
  return fn === undefined ? key : fn.constructPath ?? `${fn.stackName}/${fn.logicalId}`;
}

/** Writes a response; false (nothing written) when its status is not final or Node refuses its headers. */
function send(res: http.ServerResponse, response: ApiResponse): boolean {
  if (!isFinalStatus(response.statusCode)) {
    // Node would send a 1xx (leaving the client waiting) or 600-999 as they are.
    return false;
  }
  const flat: string[] = [];
  for (const [name, value] of response.headers) {
    flat.push(name, value);
  }
  if (response.stream !== undefined) {
    return sendStreamed(res, response, flat);
  }
  // A string body goes out in the same write as the headers; bytes are sent as latin1 text,
  // which keeps every byte as it is.
  const text = typeof response.body === 'string';
  flat.push('Content-Length', String(text ? Buffer.byteLength(response.body as string) : response.body.length));
  try {
    res.writeHead(response.statusCode, flat);
  } catch {
    return false;
  }
  if (text) {
    res.end(response.body as string);
  } else {
    res.end((response.body as Buffer).toString('latin1'), 'latin1');
  }
  return true;
}

/** Writes the head of a streamed response, then its bytes as they come (chunked). */
function sendStreamed(res: http.ServerResponse, response: ApiResponse, flat: string[]): boolean {
  try {
    res.writeHead(response.statusCode, flat);
  } catch {
    return false;
  }
  // The head goes now: the client sees the status before the first chunk.
  res.flushHeaders();
  // Cut: the socket ends after what was written, without the last chunk (the client sees the body cut short).
  response.stream!.pipe({ write: (chunk) => res.write(chunk), end: () => res.end(), abort: () => res.socket?.end() });
  return true;
}

function describeUnsendable(response: ApiResponse): string {
  return unsendable(response) ?? 'refused by Node';
}

/** A host as it appears in a URL: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Whether a bind address is reachable only from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || /^::ffff:127\./i.test(host);
}

/** Refuses a first port that leaves no room for `count` APIs on consecutive ports (0: free ports, always room). */
export function checkPortRange(firstPort: number, count: number): void {
  if (firstPort !== 0 && firstPort + count - 1 > 65535) {
    throw usageError(`--port ${firstPort} leaves no room for ${count} APIs (each takes the next port, up to ${firstPort + count - 1}); pass --port ${65536 - count} or lower, or 0 for free ports`);
  }
}

/** A listen failure as one line that says what to do. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new LocalApiError(`port ${port} on ${host} is in use; pass --port with a free port (or 0 for any)`, 'server');
    case 'EACCES':
      return new LocalApiError(`port ${port} on ${host} needs privileges this process does not have; pass --port 1024 or above (or 0 for any)`, 'server');
    case 'EADDRNOTAVAIL':
      return new LocalApiError(`--host ${host}: no network interface of this machine has that address; pass an address of this machine, e.g. 127.0.0.1`, 'server');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new LocalApiError(`--host ${host}: not an IP address and not a name this machine resolves; pass an address of this machine, e.g. 127.0.0.1`, 'server');
    default:
      return new LocalApiError(`cannot listen on ${host} port ${port}: ${error.message}`, 'server');
  }
}
