/**
 * Who may use the console. Its TEST runs methods without their authorization (as the AWS console's
 * TEST does), so only the page itself may call it: the request must be addressed to this server
 * (an IP address, `localhost` or the `--host` name: a DNS name pointed at 127.0.0.1 by another site is
 * refused) and, for the TEST, come from the console's own origin with a JSON body (a form or a
 * script on another site cannot send that without a CORS preflight, which the console never grants).
 */
import type { IncomingHttpHeaders } from 'http';
import { isIP } from 'net';

/** A refused request: its status and a one-line reason. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** The host name of a Host header (`127.0.0.1:3000` → `127.0.0.1`, `[::1]:3000` → `::1`). */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]*)\]/.exec(host);
  if (bracketed) {
    return bracketed[1];
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** Refuses a request whose Host is not an address or name of this server. */
export function checkHost(headers: IncomingHttpHeaders, boundHost: string): Refusal | undefined {
  const host = headers.host ?? '';
  const name = hostName(host).toLowerCase();
  if (isIP(name) !== 0 || name === 'localhost' || name === boundHost.toLowerCase()) {
    return undefined;
  }
  return { status: 403, message: `the console answers only requests addressed to an IP address, localhost or --host ${boundHost} (got Host: ${host || 'none'})` };
}

/** Refuses a TEST that does not come from the console page: another origin, or a body that is not JSON. */
export function checkTestCaller(headers: IncomingHttpHeaders): Refusal | undefined {
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host ?? ''}`) {
    return { status: 403, message: `the console's TEST accepts requests from its own page only (got Origin: ${origin})` };
  }
  const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    return { status: 415, message: `the console's TEST takes a JSON body (Content-Type: application/json; got ${type === '' ? 'none' : type})` };
  }
  return undefined;
}
