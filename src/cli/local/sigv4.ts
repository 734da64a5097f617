/**
 * AWS Signature Version 4 verification for the local REST API server, so that a method with IAM
 * authorization accepts exactly the requests a real client signs for `execute-api`
 * (`curl --aws-sigv4`, the AWS SDK signer, the client libraries) and refuses the rest.
 *
 * Only header-signed requests (an `Authorization: AWS4-HMAC-SHA256 ...` header) are supported.
 * The region of the credential scope is accepted as signed: the local server serves every region.
 */
import { createHash, createHmac, timingSafeEqual } from 'crypto';
import { UsageError } from '../command';

/** A request as the local server received it. */
export interface SignedRequest {
  /** HTTP method, for example `GET`. */
  readonly method: string;
  /** The raw request target as received: path plus optional `?query`, still percent-encoded. */
  readonly path: string;
  /** Headers as Node's `IncomingMessage.headers` holds them (lowercase names). */
  readonly headers: Record<string, string | string[] | undefined>;
  /** The whole request body (empty when none). */
  readonly body: Buffer;
}

/** The one key pair the local server accepts. */
export interface SigV4Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export type SigV4Result = { ok: true } | { ok: false; reason: string };

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 'execute-api';
/** How far the request time may be from the server's clock, as AWS allows. */
const MAX_SKEW_MS = 15 * 60 * 1000;

/**
 * Verifies the SigV4 signature of `request` against `credentials`.
 *
 * The canonical request is built as AWS documents it for services other than S3 (the received path
 * segments are URI-encoded once more, `.`/`..`/empty segments removed; the query decoded, strictly
 * re-encoded and sorted; the signed headers lowercased with trimmed, collapsed values; the payload
 * hash from `x-amz-content-sha256` when present, else the SHA-256 of the body). Because curl signs
 * differently from version to version (before 8.x it signed the path and query exactly as sent;
 * 8.x decodes `+` in the query as a space), those canonical forms are accepted too: each is still
 * a function of the exact request received, so a signature over any of them binds the method,
 * path, query, signed headers and body.
 *
 * @param now the server's clock (for tests); the request time must be within 15 minutes of it
 */
export function verifySigV4(request: SignedRequest, credentials: SigV4Credentials, now: Date = new Date()): SigV4Result {
  const authorization = header(request.headers, 'authorization');
  if (authorization === undefined) {
    return fail('missing Authorization header (the request is not signed)');
  }
  const parsed = parseAuthorization(authorization);
  if (typeof parsed === 'string') {
    return fail(parsed);
  }
  const { accessKeyId, date, region, service, terminator, signedHeaders, signature } = parsed;

  if (accessKeyId !== credentials.accessKeyId) {
    return fail(`unknown access key ID '${accessKeyId}'; this server accepts only the access key ID it was started with`);
  }
  if (service !== SERVICE) {
    return fail(`credential scope service is '${service}'; a REST API request must be signed for '${SERVICE}'`);
  }
  if (terminator !== 'aws4_request') {
    return fail(`credential scope must end with 'aws4_request', got '${terminator}'`);
  }
  if (!signedHeaders.includes('host')) {
    return fail(`SignedHeaders must include 'host'; got '${signedHeaders.join(';')}'`);
  }

  const amzDate = header(request.headers, 'x-amz-date');
  if (amzDate === undefined) {
    return fail('missing X-Amz-Date header');
  }
  const requestTime = parseAmzDate(amzDate.trim());
  if (requestTime === undefined) {
    return fail(`X-Amz-Date '${amzDate}' is not in the form YYYYMMDDTHHMMSSZ`);
  }
  if (!signedHeaders.includes('x-amz-date')) {
    return fail(`SignedHeaders must include 'x-amz-date'; got '${signedHeaders.join(';')}'`);
  }
  if (amzDate.trim().slice(0, 8) !== date) {
    return fail(`credential scope date ${date} does not match the X-Amz-Date ${amzDate.trim()}`);
  }
  if (Math.abs(now.getTime() - requestTime.getTime()) > MAX_SKEW_MS) {
    return fail(`signature expired: request time ${amzDate.trim()} is more than 15 minutes from the server time ${formatAmzDate(now)}`);
  }

  const canonicalHeaders: string[] = [];
  for (const name of signedHeaders) {
    const value = canonicalHeaderValue(request.headers[name]);
    if (value === undefined) {
      return fail(`signed header '${name}' is missing from the request`);
    }
    canonicalHeaders.push(`${name}:${value}\n`);
  }

  const payloadHash = payloadHashOf(request);
  if (typeof payloadHash !== 'string') {
    return fail(payloadHash.reason);
  }

  const signingKey = deriveSigningKey(credentials.secretAccessKey, date, region, service);
  const scope = `${date}/${region}/${service}/${terminator}`;
  const expected = Buffer.from(signature, 'hex');
  const [rawPath, rawQuery] = splitTarget(request.path);
  for (const uri of unique([canonicalUri(rawPath, true), canonicalUri(rawPath, false), rawPath || '/'])) {
    for (const query of unique([canonicalQuery(rawQuery, false), canonicalQuery(rawQuery, true), rawQuery])) {
      const canonicalRequest = [
        request.method.toUpperCase(),
        uri,
        query,
        canonicalHeaders.join(''),
        signedHeaders.join(';'),
        payloadHash,
      ].join('\n');
      const stringToSign = [ALGORITHM, amzDate.trim(), scope, sha256Hex(canonicalRequest)].join('\n');
      const actual = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest();
      if (timingSafeEqual(actual, expected)) {
        return { ok: true };
      }
    }
  }
  return fail('signature does not match: the signature calculated for this request differs from the one provided; check the secret access key and the signing method');
}

/**
 * Parses `ACCESS_KEY_ID:SECRET_ACCESS_KEY` (as given to `--credentials`). The secret is never echoed
 * in the error.
 */
export function parseCredentials(text: string): SigV4Credentials {
  const colon = text.indexOf(':');
  const accessKeyId = colon < 0 ? text : text.slice(0, colon);
  const secretAccessKey = colon < 0 ? '' : text.slice(colon + 1);
  if (accessKeyId.trim() === '' || secretAccessKey === '') {
    throw new UsageError('credentials must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)');
  }
  return { accessKeyId: accessKeyId.trim(), secretAccessKey };
}

interface ParsedAuthorization {
  readonly accessKeyId: string;
  readonly date: string;
  readonly region: string;
  readonly service: string;
  readonly terminator: string;
  readonly signedHeaders: string[];
  readonly signature: string;
}

/** Parses the Authorization header; a string is the reason it is malformed. */
export function parseAuthorization(value: string): ParsedAuthorization | string {
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  const algorithm = space < 0 ? trimmed : trimmed.slice(0, space);
  if (algorithm !== ALGORITHM) {
    return `Authorization header uses '${algorithm}'; only ${ALGORITHM} is supported`;
  }
  const fields = new Map<string, string>();
  for (const part of trimmed.slice(space + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      return `malformed Authorization header: '${part.trim()}' is not NAME=VALUE`;
    }
    fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (credential === undefined || signedHeaders === undefined || signature === undefined) {
    return 'malformed Authorization header: it needs Credential=..., SignedHeaders=... and Signature=...';
  }
  const scope = credential.split('/');
  if (scope.length !== 5 || scope.some((s) => s === '')) {
    return `malformed Credential '${credential}': expected ACCESS_KEY_ID/YYYYMMDD/REGION/SERVICE/aws4_request`;
  }
  if (!/^\d{8}$/.test(scope[1])) {
    return `malformed Credential: date '${scope[1]}' is not YYYYMMDD`;
  }
  if (!/^[0-9a-f]{64}$/.test(signature)) {
    return 'malformed Signature: expected 64 lowercase hexadecimal digits';
  }
  const names = signedHeaders.split(';');
  if (names.some((n) => n === '' || n !== n.toLowerCase())) {
    return `malformed SignedHeaders '${signedHeaders}': expected lowercase header names separated by ';'`;
  }
  return {
    accessKeyId: scope[0],
    date: scope[1],
    region: scope[2],
    service: scope[3],
    terminator: scope[4],
    signedHeaders: names,
    signature,
  };
}

/**
 * The canonical URI of a raw (still percent-encoded) path for services other than S3: each segment
 * URI-encoded once more (so `%20` becomes `%2520`, as the AWS SDK signs it), `/` kept. With
 * `normalize`, empty, `.` and `..` segments are resolved first, as the AWS SDK does.
 */
export function canonicalUri(rawPath: string, normalize: boolean): string {
  const path = rawPath === '' ? '/' : rawPath;
  if (!normalize) {
    return path.split('/').map(uriEncode).join('/');
  }
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') {
      continue;
    }
    if (segment === '..') {
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  const trailing = segments.length > 0 && path.endsWith('/') ? '/' : '';
  return `/${segments.map(uriEncode).join('/')}${trailing}`;
}

/**
 * The canonical query string: each name and value decoded and strictly re-encoded, sorted by name
 * then value; `NAME` alone becomes `NAME=`. With `plusAsSpace` a `+` (literal or `%2B`) encodes as
 * `%20`, as curl 8 signs it.
 */
export function canonicalQuery(rawQuery: string, plusAsSpace: boolean): string {
  const pairs: Array<[string, string]> = [];
  for (const part of rawQuery.split('&')) {
    if (part === '') {
      continue;
    }
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    const encode = (s: string) => {
      const decoded = safeDecode(s);
      return uriEncode(plusAsSpace ? decoded.replace(/\+/g, ' ') : decoded);
    };
    pairs.push([encode(name), encode(value)]);
  }
  pairs.sort(([an, av], [bn, bv]) => compare(an, bn) || compare(av, bv));
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

/** URI-encodes every byte except the unreserved characters `A-Z a-z 0-9 - _ . ~`, in uppercase hex. */
export function uriEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The signing key: HMAC chain of date, region, service and `aws4_request` from `AWS4` + secret. */
export function deriveSigningKey(secretAccessKey: string, date: string, region: string, service: string): Buffer {
  const kDate = createHmac('sha256', `AWS4${secretAccessKey}`).update(date, 'utf8').digest();
  const kRegion = createHmac('sha256', kDate).update(region, 'utf8').digest();
  const kService = createHmac('sha256', kRegion).update(service, 'utf8').digest();
  return createHmac('sha256', kService).update('aws4_request', 'utf8').digest();
}

function payloadHashOf(request: SignedRequest): string | { reason: string } {
  const bodyHash = createHash('sha256').update(request.body).digest('hex');
  const declared = header(request.headers, 'x-amz-content-sha256')?.trim();
  if (declared === undefined) {
    return bodyHash;
  }
  if (/^[0-9a-fA-F]{64}$/.test(declared) && declared.toLowerCase() !== bodyHash) {
    return { reason: 'X-Amz-Content-Sha256 does not match the SHA-256 of the request body' };
  }
  // Other values (UNSIGNED-PAYLOAD, STREAMING-...) are signed as given.
  return declared;
}

/** A single header value; repeated headers are joined with commas. */
function header(headers: SignedRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Trimmed value with runs of whitespace collapsed; repeated values joined with commas. */
function canonicalHeaderValue(value: string | string[] | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => v.trim().replace(/\s+/g, ' ')).join(',');
}

function splitTarget(target: string): [string, string] {
  const hash = target.indexOf('#');
  const withoutFragment = hash < 0 ? target : target.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  return question < 0 ? [withoutFragment, ''] : [withoutFragment.slice(0, question), withoutFragment.slice(question + 1)];
}

function parseAmzDate(value: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) {
    return undefined;
  }
  const time = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(time) ? undefined : new Date(time);
}

function formatAmzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function fail(reason: string): SigV4Result {
  return { ok: false, reason };
}
