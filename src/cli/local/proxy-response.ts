/**
 * How API Gateway turns a Lambda proxy (REST, payload 1.0) response into the HTTP response, and
 * when it refuses it as malformed (502).
 */
/** Header names the gateway does not pass through as they are: it answers them as `x-amzn-Remapped-<name>`. */
const REMAPPED = new Set([
  'authorization', 'connection', 'content-md5', 'date', 'expect', 'host', 'max-forwards', 'proxy-authenticate',
  'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'via', 'warn', 'www-authenticate',
]);

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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return malformed(`the response is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object`);
  }
  const response = value as Record<string, unknown>;
  for (const key of Object.keys(response)) {
    if (!ALLOWED_KEYS.has(key)) {
      return malformed(`unexpected key '${key}' (allowed: ${[...ALLOWED_KEYS].join(', ')})`);
    }
  }
  const status = typeof response.statusCode === 'string' && /^\d+$/.test(response.statusCode) ? Number(response.statusCode) : response.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    return malformed(`statusCode must be an integer HTTP status (got ${JSON.stringify(response.statusCode)})`);
  }
  const single = response.headers ?? {};
  if (typeof single !== 'object' || Array.isArray(single)) {
    return malformed('headers must be an object of strings');
  }
  const multi = response.multiValueHeaders ?? {};
  if (typeof multi !== 'object' || Array.isArray(multi)) {
    return malformed('multiValueHeaders must be an object of string arrays');
  }
  const merged = new Map<string, string[]>();
  for (const [name, v] of Object.entries(single as Record<string, unknown>)) {
    if (!isScalar(v)) {
      return malformed(`headers.${name} must be a string`);
    }
    merged.set(name, [String(v)]);
  }
  // A name in both: multiValueHeaders' values win.
  for (const [name, list] of Object.entries(multi as Record<string, unknown>)) {
    if (!Array.isArray(list) || !list.every(isScalar)) {
      return malformed(`multiValueHeaders.${name} must be an array of strings`);
    }
    merged.set(name, list.map(String));
  }
  const body = response.body;
  if (body !== undefined && body !== null && !isScalar(body)) {
    return malformed('body must be a string');
  }
  const base64 = response.isBase64Encoded;
  if (base64 !== undefined && base64 !== null && typeof base64 !== 'boolean') {
    return malformed('isBase64Encoded must be a boolean');
  }
  const headers: Array<[string, string]> = [];
  for (const [name, values] of merged) {
    const lower = name.toLowerCase();
    if (lower === 'content-length') {
      continue;
    }
    const outName = REMAPPED.has(lower) ? `x-amzn-Remapped-${name}` : name;
    for (const v of values) {
      headers.push([outName, v]);
    }
  }
  return { ok: true, statusCode: status, headers, body: body === undefined || body === null ? '' : String(body), isBase64Encoded: base64 === true };
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function malformed(reason: string): ProxyResult {
  return { ok: false, reason };
}

/** Whether a media type matches one of the API's binary media types (`image/png`, `image/*`, `*\/*`; `~1` for `/`). */
export function isBinaryType(mediaType: string | undefined, binaryMediaTypes: readonly string[]): boolean {
  if (mediaType === undefined || binaryMediaTypes.length === 0) {
    return false;
  }
  const types = mediaType.split(',').map((t) => t.split(';')[0].trim().toLowerCase()).filter((t) => t !== '');
  return binaryMediaTypes.some((pattern) => {
    const p = pattern.replace(/~1/g, '/').toLowerCase();
    return types.some((t) => {
      if (p === '*/*' || p === t) {
        return true;
      }
      const [pt, ps] = p.split('/');
      const [tt] = t.split('/');
      return ps === '*' && pt === tt;
    });
  });
}
