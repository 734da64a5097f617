/**
 * The local HTTP server: one listener per REST API (each API has its own host in the cloud, so
 * each gets its own port here), reached at `http://HOST:PORT/<stage>/...`.
 */
import * as http from 'http';
import { AddressInfo } from 'net';
import { CliError } from '../command';
import type { TokenVerifier } from './cognito/token-verifier';
import { EnvVarsFile } from './env-vars';
import { GatewayRequest, GatewayResponse, LocalGateway, MAX_BODY_BYTES, tooLarge } from './gateway';
import { requestId as newRequestId } from './ids';
import { Invoker } from './invoker';
import { ApiSpec, LocalApp } from './model';
import { KeyCounters } from './pipeline/key-counters';
import { unsendable } from './pipeline/sendable';
import { formatRouteRows, routeRows, RouteRow } from './route-listing';
import { SigV4Credentials, SigV4Verifier } from './sigv4';

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
  /** The app's `node_modules` (for the AWS SDK the Lambda Node.js runtime provides). */
  readonly nodeModules?: string;
  /** Verifies user pool tokens for Cognito-authorized methods (see cognito/app-pools.ts). */
  readonly tokenVerifier?: TokenVerifier;
  /** Function key → a note for its routes in the listing (see lambda/startup-notices.ts). */
  readonly functionNotes?: ReadonlyMap<string, string>;
}

/** One served API. */
export interface Endpoint {
  readonly api: ApiSpec;
  readonly host: string;
  readonly port: number;
  /** `http://HOST:PORT/<stage>/` of each stage. */
  readonly urls: readonly string[];
}

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

  public readonly endpoints: Endpoint[] = [];
  public readonly invoker: Invoker;
  private readonly servers: http.Server[] = [];

  private constructor(private readonly app: LocalApp, private readonly options: ServerOptions) {
    this.invoker = new Invoker(app.functions, {
      log: (requestId, level, text) => options.print(`${requestId} ${level} ${text}`),
      maxWorkersPerFunction: options.maxWorkersPerFunction,
      envVars: options.envVars,
      nodeModules: options.nodeModules,
    });
  }

  /** Lines listing what is mounted: method, URL, what answers it and what the gateway checks first. */
  routeTable(): string[] {
    const rows: RouteRow[] = [];
    for (const endpoint of this.endpoints) {
      endpoint.api.stages.forEach((stage, i) => {
        rows.push(...routeRows(endpoint.api, stage, endpoint.urls[i], (key) => this.functionLabel(key), process.env));
      });
    }
    return formatRouteRows(rows);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })));
    await this.invoker.close();
  }

  private functionLabel(key: string): string {
    const fn = this.app.functions.get(key);
    if (fn === undefined) {
      return key;
    }
    const name = fn.constructPath ?? `${fn.stackName}/${fn.logicalId}`;
    const note = this.options.functionNotes?.get(key);
    return fn.code.kind === 'unsupported' ? `${name} (not runnable: ${fn.code.reason})` : note === undefined ? name : `${name} (${note})`;
  }

  private async listen(): Promise<void> {
    const host = this.options.host ?? '127.0.0.1';
    const firstPort = this.options.port ?? 3000;
    const apis = this.app.apis.filter((a) => a.stages.length > 0);
    if (firstPort !== 0 && firstPort + apis.length - 1 > 65535) {
      throw new CliError(`--port ${firstPort} leaves no room for ${apis.length} APIs (they take consecutive ports, up to ${firstPort + apis.length - 1}); pass --port ${65536 - apis.length} or lower, or 0 for free ports`, 2);
    }
    const verifier = this.options.credentials === undefined ? undefined : new SigV4Verifier(this.options.credentials);
    this.invoker.warmAll();
    const keyCounters = new KeyCounters();
    for (let i = 0; i < apis.length; i++) {
      const api = apis[i];
      const gateway = new LocalGateway({
        api,
        invoker: this.invoker,
        functions: this.app.functions,
        verifier,
        allowUnsigned: this.options.allowUnsigned,
        tokenVerifier: this.options.tokenVerifier,
        note: (id, text) => this.note(id, text),
        keyCounters,
      });
      const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => this.onRequest(gateway, req, res));
      this.servers.push(server);
      const port = firstPort === 0 ? 0 : firstPort + i;
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
        server.listen(port, host, () => resolve());
      });
      const actual = (server.address() as AddressInfo).port;
      this.endpoints.push({ api, host, port: actual, urls: api.stages.map((s) => `http://${urlHost(host)}:${actual}/${s}/`) });
    }
  }

  private note(requestId: string, text: string): void {
    this.options.print(`${requestId} GATEWAY ${text}`);
  }

  private onRequest(gateway: LocalGateway, req: http.IncomingMessage, res: http.ServerResponse): void {
    const started = this.options.quiet ? 0n : process.hrtime.bigint();
    const length = req.headers['content-length'];
    if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
      // No body: answer without waiting for the stream's end.
      this.answer(gateway, req, res, EMPTY, false, started);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = Number(length ?? 0) > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      if (tooBig) {
        return;
      }
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooBig = true;
        chunks.length = 0;
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => this.answer(gateway, req, res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), tooBig, started));
    req.on('error', () => res.destroy());
  }

  private answer(gateway: LocalGateway, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tooBig: boolean, started: bigint): void {
    const raw = req.rawHeaders;
    const rawHeaders: Array<[string, string]> = [];
    for (let i = 0; i < raw.length; i += 2) {
      rawHeaders.push([raw[i], raw[i + 1]]);
    }
    const request: GatewayRequest = {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      rawHeaders,
      body,
      sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
      port: req.socket.localPort,
    };
    const answer = tooBig ? Promise.resolve(tooLarge(newRequestId())) : gateway.handle(request);
    answer.then((response) => {
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

/** Writes a response; false (nothing written) when Node refuses its status or headers. */
function send(res: http.ServerResponse, response: GatewayResponse): boolean {
  const flat: string[] = [];
  for (const [name, value] of response.headers) {
    flat.push(name, value);
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

function describeUnsendable(response: GatewayResponse): string {
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

/** A listen failure as one line that says what to do. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new CliError(`port ${port} on ${host} is in use; pass --port with a free port (or 0 for any)`);
    case 'EACCES':
      return new CliError(`port ${port} on ${host} needs privileges this process does not have; pass --port 1024 or above (or 0 for any)`);
    case 'EADDRNOTAVAIL':
      return new CliError(`--host ${host}: no network interface of this machine has that address; pass an address of this machine, e.g. 127.0.0.1`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new CliError(`--host ${host}: not an IP address and not a name this machine resolves; pass an address of this machine, e.g. 127.0.0.1`);
    default:
      return new CliError(`cannot listen on ${host} port ${port}: ${error.message}`);
  }
}
