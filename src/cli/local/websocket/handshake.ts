/**
 * A WebSocket handshake as the gateway reads it: the stage its path names, its headers in order,
 * its query string, and who opens the connection (the source of every event's `identity` and
 * `domainName`); and the HTTP answer that refuses one.
 */
import type * as http from 'http';
import type { Duplex } from 'stream';
import type { Handshake } from './websocket-events';
import { traceId } from '../common/ids';

export interface ReadHandshake extends Handshake {
  /** The request target as sent (`/dev?token=x`). */
  readonly target: string;
  /** The stage the path names (`dev`); undefined when the path is not one segment that decodes. */
  readonly stage?: string;
  readonly sourceIp: string;
  readonly userAgent: string;
  /** The `Host` the client reached (`127.0.0.1:PORT`): `requestContext.domainName`. */
  readonly domainName: string;
}

export function readHandshake(request: http.IncomingMessage): ReadHandshake {
  const target = request.url ?? '/';
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const rawHeaders: Array<[string, string]> = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    rawHeaders.push([request.rawHeaders[i], request.rawHeaders[i + 1]]);
  }
  const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return {
    target,
    stage: stageOf(path),
    rawHeaders: withGatewayHeaders(rawHeaders, sourceIp, request),
    rawQuery: queryAt < 0 ? '' : target.slice(queryAt + 1),
    sourceIp,
    userAgent: String(request.headers['user-agent'] ?? ''),
    domainName: String(request.headers.host ?? ''),
  };
}

/**
 * The headers the gateway adds to the handshake's, as the recorded `$connect` events show them:
 * `X-Amzn-Trace-Id`, `X-Forwarded-For` (the client's value, then the source IP), `X-Forwarded-Port`
 * and `X-Forwarded-Proto` (the local port and scheme; the service's are 443 and https).
 */
function withGatewayHeaders(rawHeaders: Array<[string, string]>, sourceIp: string, request: http.IncomingMessage): Array<[string, string]> {
  const named = (name: string) => rawHeaders.findIndex(([n]) => n.toLowerCase() === name);
  const out = rawHeaders.filter(([name]) => !['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto'].includes(name.toLowerCase()));
  const forwardedFor = named('x-forwarded-for');
  if (named('x-amzn-trace-id') < 0) {
    out.push(['X-Amzn-Trace-Id', traceId()]);
  }
  out.push(
    ['X-Forwarded-For', forwardedFor < 0 ? sourceIp : `${rawHeaders[forwardedFor][1]}, ${sourceIp}`],
    ['X-Forwarded-Port', String(request.socket.localPort ?? '')],
    ['X-Forwarded-Proto', (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'],
  );
  return out;
}

function stageOf(path: string): string | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  try {
    return trimmed.includes('/') ? undefined : decodeURIComponent(trimmed);
  } catch {
    return undefined;
  }
}

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 500: 'Internal Server Error', 502: 'Bad Gateway' };

/** Ends a handshake with an HTTP status instead of the upgrade (a status outside 200-599: 502). */
export function refuseHandshake(socket: Duplex, statusCode: number): void {
  if (!socket.writable) {
    return;
  }
  const status = Number.isInteger(statusCode) && statusCode >= 200 && statusCode <= 599 ? statusCode : 502;
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
