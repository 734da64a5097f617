/**
 * AWS Signature Version 4 verification for IAM-authorized methods of the local REST API.
 *
 * The expected signature is computed by the AWS SDK's own signer (`@smithy/signature-v4`, service
 * `execute-api`), so client and server share one canonicalization: the path URI-encoded once more
 * (services other than S3), the query decoded and strictly re-encoded and sorted (a `+` is a plus,
 * never a space), the signed headers trimmed, the payload hashed. Both placements the service
 * accepts work: the `Authorization` header, and the query string of a presigned URL
 * (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders`,
 * `X-Amz-Signature`).
 *
 * The SDK signs the path after removing `.`, `..` and empty segments; the local router does not
 * remove them. A signed request whose path has such segments is refused, so that a signature can
 * never authorize a resource other than the one it was made for.
 *
 * The region of the credential scope is accepted as signed: the local server serves every region.
 */
import { createHash, timingSafeEqual } from 'crypto';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { usageError } from '../common/local-api-error';
import { parseQuery } from '../common/query-string';

/** A request as the local server received it. */
export interface SignedRequest {
  /** HTTP method, for example `GET`. */
  readonly method: string;
  /** The raw request target as received: path plus optional `?query`, still percent-encoded. */
  readonly path: string;
  /** Headers by lowercase name (repeated headers as arrays). */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The whole request body (empty when none). */
  readonly body: Buffer;
}

/** A request as the server's kinds hold it: headers as received, in order. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path plus optional `?query`, still percent-encoded. */
  readonly target: string;
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** `request` as the verifier reads it: headers by lower-case name, repeats as lists. */
export function signedRequestOf(request: ReceivedRequest): SignedRequest {
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of request.rawHeaders) {
    const lower = name.toLowerCase();
    const before = headers[lower];
    headers[lower] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return { method: request.method, path: request.target, headers, body: request.body };
}

/**
 * Whether a request carries a signature at all: an `Authorization` header, or the query-string
 * parameters of a presigned URL. An unsigned request is the callers' own case (a guest with
 * `--allow-unsigned`, or each kind's refusal), told apart before a verifier is needed.
 */
export function isSigned(request: SignedRequest): boolean {
  const authorization = header(request.headers, 'authorization');
  if (authorization !== undefined && authorization.trim() !== '') {
    return true;
  }
  return /(^|&)X-Amz-(Signature|Algorithm)=/.test(splitTarget(request.path)[1]);
}

/** The one key pair the local server accepts. */
export interface SigV4Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** Why a request was refused; each maps to one of API Gateway's answers. */
export type SigV4Failure =
  /** Neither an Authorization header nor query-string signature parameters. */
  | 'unsigned'
  /** The signature parameters are incomplete or unparseable (IncompleteSignatureException). */
  | 'incomplete'
  /** An access key the server does not know (UnrecognizedClientException). */
  | 'unknown-key'
  /** Too old, too far in the future, or a presigned URL past its expiry (InvalidSignatureException). */
  | 'expired'
  /** Anything else (InvalidSignatureException). */
  | 'invalid';

export type SigV4Result =
  | { readonly ok: true }
  | {
    readonly ok: false;
    readonly failure: SigV4Failure;
    /** What the gateway answers (`{"message": ...}`), in the service's words. */
    readonly message: string;
    /** Why, for the terminal. */
    readonly reason: string;
  };

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 'execute-api';
/** How far the request time may be from the server's clock: API Gateway allows 5 minutes. */
const MAX_SKEW_MS = 5 * 60 * 1000;
/** The longest `X-Amz-Expires` SigV4 allows: one week. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 60 * 60;

const MISMATCH = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
const UNKNOWN_KEY = 'The security token included in the request is invalid.';

/** The signature parameters, from the header or from the query string. */
interface SignatureParameters {
  readonly credential: string;
  readonly signedHeaders: string;
  readonly signature: string;
  readonly amzDate: string;
  /** Presigned URLs only. */
  readonly expiresSeconds?: number;
}

/** A key pair's verifier: one SDK signer, reused for every request. */
export class SigV4Verifier {
  private readonly signer: SignatureV4;

  constructor(private readonly credentials: SigV4Credentials) {
    this.signer = new SignatureV4({
      service: SERVICE,
      region: 'us-east-1',
      credentials,
      sha256: Hash.bind(null, 'sha256'),
      // The client's X-Amz-Content-Sha256 is used when it signed one; none is added.
      applyChecksum: false,
    });
  }

  /** The access key ID the server accepts. */
  get accessKeyId(): string {
    return this.credentials.accessKeyId;
  }

  /**
   * Verifies the SigV4 signature of `request`.
   *
   * @param now the server's clock (for tests)
   * @param service the service the request must be signed for (`lambda` for a function URL)
   */
  async verify(request: SignedRequest, now: Date = new Date(), service: string = SERVICE): Promise<SigV4Result> {
    const [rawPath, rawQuery] = splitTarget(request.path);
    const query = queryForSigner(rawQuery);
    const authorization = header(request.headers, 'authorization');
    const presigned = own(query, 'X-Amz-Signature') !== undefined || own(query, 'X-Amz-Algorithm') !== undefined;
    if (authorization === undefined || authorization.trim() === '') {
      if (!presigned) {
        return refuse('unsigned', 'Missing Authentication Token', 'the request is not signed (no Authorization header, no X-Amz-Signature parameter)');
      }
      return this.verifyParameters(request, rawPath, query, readQueryParameters(query), now, service);
    }
    return this.verifyParameters(request, rawPath, query, readAuthorizationHeader(authorization, request.headers), now, service);
  }

  private async verifyParameters(
    request: SignedRequest, rawPath: string, query: QueryMap, parsed: SignatureParameters | SigV4Result, now: Date, service: string,
  ): Promise<SigV4Result> {
    if ('ok' in parsed) {
      return parsed;
    }
    const scope = readScope(parsed, this.credentials.accessKeyId, service);
    if ('ok' in scope) {
      return scope;
    }
    const timing = checkTime(parsed, scope.requestTime, now);
    if (timing !== undefined) {
      return timing;
    }
    const signed = signedHeaderValues(request, parsed);
    if ('ok' in signed) {
      return signed;
    }
    const content = checkContent(request, rawPath);
    if (content !== undefined) {
      return content;
    }
    const expected = await this.expectedSignature(request, rawPath, query, signed.headers, parsed, scope.requestTime, scope.region, service);
    if (expected.signedHeaders !== parsed.signedHeaders || !sameHex(expected.signature, parsed.signature)) {
      return refuse('invalid', MISMATCH, 'signature does not match: the signature calculated for this request differs from the one provided; check the secret access key and the signing method');
    }
    return { ok: true };
  }

  /** The SDK signer's signature (and signed-header list) for the request as received. */
  private async expectedSignature(
    request: SignedRequest, rawPath: string, query: QueryMap, headers: Record<string, string>,
    parsed: SignatureParameters, signingDate: Date, region: string, service: string,
  ): Promise<{ signature: string; signedHeaders: string }> {
    const names = new Set(Object.keys(headers));
    const toSign = {
      method: request.method.toUpperCase(),
      protocol: 'http:',
      hostname: 'localhost',
      path: rawPath === '' ? '/' : rawPath,
      query: withoutSignature(query),
      headers,
      body: request.body.length === 0 ? undefined : request.body,
    };
    const options = { signingDate, signingRegion: region, signingService: service, signableHeaders: names };
    if (parsed.expiresSeconds !== undefined) {
      const signed = await this.signer.presign(toSign, { ...options, expiresIn: parsed.expiresSeconds, unhoistableHeaders: names });
      return { signature: String(signed.query?.['X-Amz-Signature']), signedHeaders: String(signed.query?.['X-Amz-SignedHeaders']) };
    }
    const signed = await this.signer.sign(toSign, options);
    const authorization = String(signed.headers.authorization);
    return {
      signature: /Signature=([0-9a-f]+)/.exec(authorization)?.[1] ?? '',
      signedHeaders: /SignedHeaders=([^,]*)/.exec(authorization)?.[1] ?? '',
    };
  }
}

/**
 * Parses `ACCESS_KEY_ID:SECRET_ACCESS_KEY`. The secret is never echoed in the error.
 *
 * @param source what the text came from, for the error (`--credentials`, `VENDOR_OUTPUTS_CREDENTIALS`)
 */
export function parseCredentials(text: string, source = 'credentials'): SigV4Credentials {
  const colon = text.indexOf(':');
  const accessKeyId = colon < 0 ? text : text.slice(0, colon);
  const secretAccessKey = colon < 0 ? '' : text.slice(colon + 1);
  if (accessKeyId.trim() === '' || secretAccessKey === '') {
    throw usageError(`${source} must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)`);
  }
  return { accessKeyId: accessKeyId.trim(), secretAccessKey };
}

/**
 * Reads the Authorization header as the service does: the algorithm, then `NAME=VALUE` pairs
 * separated by commas or spaces, then the request date from `X-Amz-Date`.
 */
export function readAuthorizationHeader(value: string, headers: SignedRequest['headers']): SignatureParameters | SigV4Result {
  const tokens = value.trim().split(/[\s,]+/);
  const algorithm = tokens.shift() ?? '';
  const fields: Record<string, string> = Object.create(null);
  for (const token of tokens) {
    const eq = token.indexOf('=');
    if (eq < 0) {
      return refuse('incomplete', `'${token}' not a valid key=value pair (missing equal-sign) in Authorization header: '${value}'.`, `malformed Authorization header: '${token}' is not NAME=VALUE`);
    }
    fields[token.slice(0, eq)] = token.slice(eq + 1);
  }
  const amzDate = header(headers, 'x-amz-date')?.trim();
  const missing = [
    fields.Credential === undefined ? "Authorization header requires 'Credential' parameter." : undefined,
    fields.Signature === undefined ? "Authorization header requires 'Signature' parameter." : undefined,
    fields.SignedHeaders === undefined ? "Authorization header requires 'SignedHeaders' parameter." : undefined,
    amzDate === undefined ? "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header." : undefined,
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0) {
    return refuse('incomplete', `${missing.join(' ')} Authorization=${value}`, `incomplete Authorization header: ${missing.join(' ')}`);
  }
  if (algorithm !== ALGORITHM) {
    return refuse('incomplete', MISMATCH, `Authorization header uses '${algorithm}'; only ${ALGORITHM} is supported`);
  }
  return { credential: fields.Credential, signedHeaders: fields.SignedHeaders, signature: fields.Signature, amzDate: amzDate! };
}

const QUERY_PARAMETERS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders', 'X-Amz-Expires'];

/** Reads the signature parameters of a presigned URL. */
function readQueryParameters(query: QueryMap): SignatureParameters | SigV4Result {
  const value = (name: string) => {
    const v = own(query, name);
    return Array.isArray(v) ? undefined : v as string | undefined;
  };
  const missing = QUERY_PARAMETERS.filter((name) => value(name) === undefined);
  if (missing.length > 0) {
    return refuse('incomplete', `AWS query-string parameters must include ${QUERY_PARAMETERS.map((n) => `'${n}'`).join(', ')}. Re-examine the query-string parameters.`, `presigned URL without ${missing.join(', ')} (or with one repeated)`);
  }
  if (value('X-Amz-Algorithm') !== ALGORITHM) {
    return refuse('incomplete', MISMATCH, `X-Amz-Algorithm is '${value('X-Amz-Algorithm')}'; only ${ALGORITHM} is supported`);
  }
  const expires = value('X-Amz-Expires')!;
  if (!/^\d{1,7}$/.test(expires) || Number(expires) < 1 || Number(expires) > MAX_EXPIRES_SECONDS) {
    return refuse('incomplete', `X-Amz-Expires must be an integer from 1 to ${MAX_EXPIRES_SECONDS} (one week), got '${expires}'.`, `X-Amz-Expires '${expires}' is out of range`);
  }
  return {
    credential: value('X-Amz-Credential')!,
    signedHeaders: value('X-Amz-SignedHeaders')!,
    signature: value('X-Amz-Signature')!,
    amzDate: value('X-Amz-Date')!,
    expiresSeconds: Number(expires),
  };
}

/** The request time against the server clock: 5 minutes either way; a presigned URL until it expires. */
function checkTime(parsed: SignatureParameters, requestTime: Date, now: Date): SigV4Result | undefined {
  const amzDate = parsed.amzDate;
  if (requestTime.getTime() - now.getTime() > MAX_SKEW_MS) {
    return refuse('expired', `Signature not yet current: ${amzDate} is still later than ${formatAmzDate(new Date(now.getTime() + MAX_SKEW_MS))} (${formatAmzDate(now)} + 5 min.)`, `signature not yet current: request time ${amzDate} is more than 5 minutes after the server time ${formatAmzDate(now)}`);
  }
  if (parsed.expiresSeconds !== undefined) {
    if (now.getTime() - requestTime.getTime() > parsed.expiresSeconds * 1000) {
      return refuse('expired', `Signature expired: ${amzDate} is now earlier than ${formatAmzDate(new Date(now.getTime() - parsed.expiresSeconds * 1000))} (${formatAmzDate(now)} - ${parsed.expiresSeconds} sec.)`, `presigned URL expired: signed at ${amzDate} for ${parsed.expiresSeconds} s; server time ${formatAmzDate(now)}`);
    }
    return undefined;
  }
  if (now.getTime() - requestTime.getTime() > MAX_SKEW_MS) {
    return refuse('expired', `Signature expired: ${amzDate} is now earlier than ${formatAmzDate(new Date(now.getTime() - MAX_SKEW_MS))} (${formatAmzDate(now)} - 5 min.)`, `signature expired: request time ${amzDate} is more than 5 minutes before the server time ${formatAmzDate(now)}`);
  }
  return undefined;
}

/** Query parameters decoded (`%XX` only: a `+` stays a plus), by name, without a prototype. */
type QueryMap = Record<string, string | string[]>;

/** The query as the signer takes it: one string per name, or the list of a repeated name. */
function queryForSigner(rawQuery: string): QueryMap {
  const query: QueryMap = Object.create(null);
  const { multi } = parseQuery(rawQuery, false);
  for (const name of Object.keys(multi)) {
    const values = multi[name];
    query[name] = values.length === 1 ? values[0] : values;
  }
  return query;
}

function withoutSignature(query: QueryMap): QueryMap {
  const copy: QueryMap = Object.create(null);
  for (const name of Object.keys(query)) {
    if (name !== 'X-Amz-Signature') {
      copy[name] = query[name];
    }
  }
  return copy;
}

/** Whether a raw path is already what the SDK signs: no `.`, `..` or empty segments. */
function isNormalPath(rawPath: string): boolean {
  if (rawPath === '' || rawPath === '/') {
    return true;
  }
  const segments = rawPath.slice(1).split('/');
  if (segments[segments.length - 1] === '') {
    segments.pop();
  }
  return rawPath.startsWith('/') && segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** An own property only (a client may name anything `constructor` or `__proto__`). */
function own<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/** A single header value; repeated headers are joined with commas. */
function header(headers: SignedRequest['headers'], name: string): string | undefined {
  const value = own(headers, name);
  return Array.isArray(value) ? value.join(',') : value as string | undefined;
}

function sameHex(a: string, b: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(a) || !/^[0-9a-f]{64}$/.test(b)) {
    return false;
  }
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
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
  return Number.isNaN(time) || formatAmzDate(new Date(time)) !== value ? undefined : new Date(time);
}

function formatAmzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * The credential scope (`keyid/date/region/service/aws4_request`) and X-Amz-Date, checked against
 * the server's key and each other: the region and request time, or why the request is refused.
 */
function readScope(
  parsed: SignatureParameters, serverKeyId: string, expectedService: string,
): { readonly region: string; readonly requestTime: Date } | SigV4Result {
  const scope = parsed.credential.split('/');
  if (scope.length !== 5) {
    return refuse('incomplete', `Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '${parsed.credential}'`, `malformed Credential '${parsed.credential}'`);
  }
  const [accessKeyId, date, region, service, terminator] = scope;
  if (accessKeyId !== serverKeyId) {
    return refuse('unknown-key', UNKNOWN_KEY, `unknown access key ID '${accessKeyId}'; this server accepts only the access key ID it was started with`);
  }
  const requestTime = parseAmzDate(parsed.amzDate);
  if (requestTime === undefined) {
    return refuse('incomplete', `Date must be in ISO-8601 'basic format'. Got '${parsed.amzDate}'. See http://en.wikipedia.org/wiki/ISO_8601`, `X-Amz-Date '${parsed.amzDate}' is not in the form YYYYMMDDTHHMMSSZ`);
  }
  if (date !== parsed.amzDate.slice(0, 8)) {
    return refuse('invalid', `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${parsed.amzDate.slice(0, 8)}', from '${parsed.amzDate}'.`, `credential scope date ${date} does not match the X-Amz-Date ${parsed.amzDate}`);
  }
  if (service !== expectedService) {
    return refuse('invalid', `Credential should be scoped to correct service: '${expectedService}'. `, `credential scope service is '${service}'; ${expectedService === SERVICE ? 'a REST API' : 'the'} request must be signed for '${expectedService}'`);
  }
  if (terminator !== 'aws4_request') {
    return refuse('invalid', `Credential should be scoped with a valid terminator: 'aws4_request', not '${terminator}'. `, `credential scope must end with 'aws4_request', got '${terminator}'`);
  }
  return { region, requestTime };
}

/** The values of the SignedHeaders (host and, unless presigned, x-amz-date among them), or why the request is refused. */
function signedHeaderValues(request: SignedRequest, parsed: SignatureParameters): { readonly headers: Record<string, string> } | SigV4Result {
  const names = parsed.signedHeaders.split(';');
  if (!names.includes('host')) {
    return refuse('invalid', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.", `SignedHeaders must include 'host'; got '${parsed.signedHeaders}'`);
  }
  if (parsed.expiresSeconds === undefined && !names.includes('x-amz-date')) {
    return refuse('invalid', MISMATCH, `SignedHeaders must include 'x-amz-date'; got '${parsed.signedHeaders}'`);
  }
  const headers: Record<string, string> = Object.create(null);
  for (const name of names) {
    const value = header(request.headers, name);
    if (value === undefined) {
      return refuse('invalid', MISMATCH, `signed header '${name}' is missing from the request`);
    }
    headers[name] = value;
  }
  return { headers };
}

/** Refuses a body that differs from its declared X-Amz-Content-Sha256, and a path the signature does not cover. */
function checkContent(request: SignedRequest, rawPath: string): SigV4Result | undefined {
  const bodyHash = createHash('sha256').update(request.body).digest('hex');
  const declared = header(request.headers, 'x-amz-content-sha256')?.trim();
  if (declared !== undefined && declared.toLowerCase() !== bodyHash) {
    return refuse('invalid', MISMATCH, 'X-Amz-Content-Sha256 does not match the SHA-256 of the request body');
  }
  if (!isNormalPath(rawPath)) {
    return refuse('invalid', MISMATCH, `the path '${rawPath}' has '.', '..' or empty segments, which the signature does not cover`);
  }
  return undefined;
}

function refuse(failure: SigV4Failure, message: string, reason: string): SigV4Result {
  return { ok: false, failure, message, reason };
}
