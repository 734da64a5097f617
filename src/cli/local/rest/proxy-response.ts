/**
 * How API Gateway turns a Lambda proxy (REST, payload 1.0) response into the HTTP response, and
 * when it refuses it as malformed (502).
 */
import { LAMBDA_RESPONSE_DROPPED, LAMBDA_RESPONSE_REMAPPED } from './header-table';
import { isPlainObject } from '../../../outputs/cdk-free/json-data';

/** Keys a proxy response may have; any other makes it malformed. */
const ALLOWED_KEYS = new Set(['statusCode', 'headers', 'multiValueHeaders', 'body', 'isBase64Encoded']);

export type ProxyResult =
  | {
    readonly ok: true;
    readonly statusCode: number;
    readonly headers: Array<[string, string]>;
    readonly body: string;
    readonly isBase64Encoded: boolean;
  }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks and maps the function's JSON result.
 *
 * @param payload the JSON text the function returned (undefined when it returned nothing)
 */
export function parseProxyResult(payload: string | undefined): ProxyResult {
  if (payload === undefined) {
    return malformed('the function returned no value');
  }
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return malformed('the response is not JSON');
  }
  if (!isPlainObject(value)) {
    return malformed(`the response is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object`);
  }
  const response = value;
  for (const key of Object.keys(response)) {
    if (!ALLOWED_KEYS.has(key)) {
      return malformed(`unexpected key '${key}' (allowed: ${[...ALLOWED_KEYS].join(', ')})`);
    }
  }
  // No statusCode is a 200 (recorded: a function answering `{}` gets 200 with an empty body).
  const status = response.statusCode === undefined ? 200
    : typeof response.statusCode === 'string' && /^\d+$/.test(response.statusCode) ? Number(response.statusCode) : response.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    return malformed(`statusCode must be an integer HTTP status (got ${JSON.stringify(response.statusCode)})`);
  }
  const single = response.headers ?? {};
  if (!isPlainObject(single)) {
    return malformed('headers must be an object of strings');
  }
  const multi = response.multiValueHeaders ?? {};
  if (!isPlainObject(multi)) {
    return malformed('multiValueHeaders must be an object of string arrays');
  }
  const headers: Array<[string, string]> = [];
  const problem = Object.keys(multi).length === 0
    ? addSingleHeaders(headers, single)
    : addMergedHeaders(headers, single, multi);
  if (problem !== undefined) {
    return malformed(problem);
  }
  const body = response.body;
  if (body !== undefined && body !== null && !isScalar(body)) {
    return malformed('body must be a string');
  }
  const base64 = response.isBase64Encoded;
  if (base64 !== undefined && base64 !== null && typeof base64 !== 'boolean') {
    return malformed('isBase64Encoded must be a boolean');
  }
  return { ok: true, statusCode: status, headers, body: body === undefined || body === null ? '' : String(body), isBase64Encoded: base64 === true };
}

/** Only `headers` (the common case): each name once, in order. */
function addSingleHeaders(out: Array<[string, string]>, single: Record<string, unknown>): string | undefined {
  for (const name of Object.keys(single)) {
    const v = single[name];
    if (!isScalar(v)) {
      return `headers.${name} must be a string`;
    }
    addHeader(out, name, String(v));
  }
  return undefined;
}

/**
 * `headers` and `multiValueHeaders` together. "API Gateway merges them into a single list. If the
 * same key-value pair is specified in both, only the values from multiValueHeaders will appear in the
 * merged list" (Output format of a Lambda function for proxy integration): a name in both, in any
 * case, sends its `multiValueHeaders` values first and then the `headers` value unless that value is
 * already one of them (recorded: `value-multi, value-solo`). A merged name keeps its first spelling
 * and position.
 */
function addMergedHeaders(out: Array<[string, string]>, single: Record<string, unknown>, multi: Record<string, unknown>): string | undefined {
  const merged = new Map<string, { name: string; multiValues: string[]; singleValues: string[] }>();
  const entryFor = (name: string) => {
    const key = name.toLowerCase();
    let entry = merged.get(key);
    if (entry === undefined) {
      entry = { name, multiValues: [], singleValues: [] };
      merged.set(key, entry);
    }
    return entry;
  };
  for (const name of Object.keys(single)) {
    const v = single[name];
    if (!isScalar(v)) {
      return `headers.${name} must be a string`;
    }
    entryFor(name).singleValues.push(String(v));
  }
  for (const name of Object.keys(multi)) {
    const list = multi[name];
    if (!Array.isArray(list) || !list.every(isScalar)) {
      return `multiValueHeaders.${name} must be an array of strings`;
    }
    entryFor(name).multiValues.push(...list.map(String));
  }
  for (const { name, multiValues, singleValues } of merged.values()) {
    const extra = singleValues.filter((value) => !multiValues.includes(value));
    for (const value of [...multiValues, ...extra]) {
      addHeader(out, name, value);
    }
  }
  return undefined;
}

/** One response header as the gateway answers it: dropped, remapped or as it is. */
function addHeader(out: Array<[string, string]>, name: string, value: string): void {
  const lower = name.toLowerCase();
  if (LAMBDA_RESPONSE_DROPPED.has(lower)) {
    return;
  }
  out.push([LAMBDA_RESPONSE_REMAPPED.has(lower) ? `x-amzn-Remapped-${name}` : name, value]);
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function malformed(reason: string): ProxyResult {
  return { ok: false, reason };
}
