/**
 * How an HTTP API reads a function's answer in payload format 2.0 ("Lambda function response for
 * format 2.0"): an object with `statusCode` gives the status, `headers`, `cookies` (each a
 * `Set-Cookie` header), `body` and `isBase64Encoded`; any other valid JSON (a string, an object
 * without `statusCode`) is inferred as a 200 `application/json` answer whose body is the string, or
 * the JSON as returned. What cannot be read is malformed: the gateway answers 500.
 */
import { isPlainObject } from '../../../outputs/cdk-free/json-data';
import { isStrictBase64 } from '../common/base64';

export type V2Result =
  | { readonly ok: true; readonly statusCode: number; readonly headers: Array<[string, string]>; readonly body: string | Buffer }
  | { readonly ok: false; readonly reason: string };

/** @param payload the JSON text the function returned (undefined when it returned nothing) */
export function readV2Result(payload: string | undefined): V2Result {
  const text = payload ?? 'null';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the response is not JSON' };
  }
  if (!isPlainObject(value) || value.statusCode === undefined) {
    return { ok: true, statusCode: 200, headers: [['Content-Type', 'application/json']], body: typeof value === 'string' ? value : text };
  }
  return readStructured(value);
}

function readStructured(response: Record<string, unknown>): V2Result {
  const status = typeof response.statusCode === 'string' && /^\d+$/.test(response.statusCode) ? Number(response.statusCode) : response.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    return { ok: false, reason: `statusCode must be an integer HTTP status (got ${JSON.stringify(response.statusCode)})` };
  }
  const headers: Array<[string, string]> = [];
  if (response.headers !== undefined && response.headers !== null) {
    if (!isPlainObject(response.headers)) {
      return { ok: false, reason: 'headers must be an object' };
    }
    for (const [name, value] of Object.entries(response.headers)) {
      headers.push([name, String(value)]);
    }
  }
  if (response.cookies !== undefined && response.cookies !== null) {
    if (!Array.isArray(response.cookies) || response.cookies.some((c) => typeof c !== 'string')) {
      return { ok: false, reason: 'cookies must be an array of strings' };
    }
    for (const cookie of response.cookies as string[]) {
      headers.push(['Set-Cookie', cookie]);
    }
  }
  const body = response.body ?? '';
  if (typeof body !== 'string') {
    return { ok: false, reason: `body must be a string (got ${Array.isArray(body) ? 'an array' : typeof body})` };
  }
  if (response.isBase64Encoded === true) {
    return isStrictBase64(body)
      ? { ok: true, statusCode: status, headers, body: Buffer.from(body, 'base64') }
      : { ok: false, reason: 'isBase64Encoded is true but the body is not base64' };
  }
  return { ok: true, statusCode: status, headers, body };
}
