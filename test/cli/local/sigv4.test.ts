import { execFile } from 'child_process';
import { createHash, createHmac, Hash, Hmac } from 'crypto';
import * as http from 'http';
import { AddressInfo } from 'net';
import {
  canonicalQuery,
  canonicalUri,
  parseAuthorization,
  parseCredentials,
  uriEncode,
  verifySigV4,
} from '../../../src/cli/local/sigv4';

const KEY = 'AKIDEXAMPLELOCAL';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const CREDENTIALS = { accessKeyId: KEY, secretAccessKey: SECRET };

/** What the test server saw last, and the clock it verifies against (undefined: the real clock). */
let serverNow: Date | undefined;
let lastRequest: { method: string; path: string; body: string } | undefined;
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      lastRequest = { method: req.method!, path: req.url!, body: body.toString('utf8') };
      const result = verifySigV4({ method: req.method!, path: req.url!, headers: req.headers, body }, CREDENTIALS, serverNow);
      res.writeHead(result.ok ? 200 : 403, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result.ok ? { ok: true } : { message: result.reason }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  serverNow = undefined;
  lastRequest = undefined;
});

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** Runs the real curl (asynchronously: the server lives in this process) and returns status and body. */
function curl(args: string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-w', '\n%{http_code}', ...args], (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`curl failed: ${stderr || error.message}`));
        return;
      }
      const newline = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(newline + 1)), body: stdout.slice(0, newline) });
    });
  });
}

function signedCurl(requestTarget: string, extra: string[] = [], user = `${KEY}:${SECRET}`, service = 'execute-api'): Promise<Answer> {
  return curl(['--aws-sigv4', `aws:amz:us-east-1:${service}`, '--user', user, ...extra, `http://127.0.0.1:${port}${requestTarget}`]);
}

describe('real curl --aws-sigv4', () => {
  test('GET with a query string holding spaces and plus signs is accepted', async () => {
    const answer = await signedCurl('/prod/items?limit=5&q=a%20b%2Bc&tag=x+y&empty=');
    expect(answer).toEqual({ status: 200, body: '{"ok":true}' });
    expect(lastRequest).toMatchObject({ method: 'GET', path: '/prod/items?limit=5&q=a%20b%2Bc&tag=x+y&empty=' });
  });

  test('GET with parameters out of order is accepted', async () => {
    expect((await signedCurl('/prod/items?zeta=1&alpha=2&alpha=1')).status).toBe(200);
  });

  test('curl --url-query encoding a space and a plus is accepted', async () => {
    const answer = await signedCurl('/prod/items', ['--url-query', 'q=a b+c', '--url-query', 'limit=5']);
    expect(answer.status).toBe(200);
    expect(lastRequest!.path).toMatch(/^\/prod\/items\?q=/);
  });

  test('POST with a JSON body is accepted and the body arrives whole', async () => {
    const answer = await signedCurl('/prod/items', ['-X', 'POST', '-H', 'Content-Type: application/json', '--data-raw', '{"name":"a b+c"}']);
    expect(answer).toEqual({ status: 200, body: '{"ok":true}' });
    expect(lastRequest).toEqual({ method: 'POST', path: '/prod/items', body: '{"name":"a b+c"}' });
  });

  test('a path with percent-encoded characters is accepted', async () => {
    const answer = await signedCurl('/prod/items/object/a%20b%2Fc%C3%A9:(1)');
    expect(answer.status).toBe(200);
    expect(lastRequest!.path).toBe('/prod/items/object/a%20b%2Fc%C3%A9:(1)');
  });

  test('DELETE of a proxy path is accepted', async () => {
    expect((await signedCurl('/prod/items/42', ['-X', 'DELETE'])).status).toBe(200);
  });

  test('an X-Amz-Security-Token header may be present', async () => {
    expect((await signedCurl('/prod/items', ['-H', 'X-Amz-Security-Token: FQoGZXIvYXdzEXAMPLE'])).status).toBe(200);
  });

  test('a wrong secret is refused with the reason', async () => {
    const answer = await signedCurl('/prod/items?limit=5', [], `${KEY}:not-the-secret`);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toMatch(/^signature does not match: .*check the secret access key/);
  });

  test('a wrong access key ID is refused with the reason', async () => {
    const answer = await signedCurl('/prod/items', [], `AKIDSOMEONEELSE:${SECRET}`);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toBe(
      "unknown access key ID 'AKIDSOMEONEELSE'; this server accepts only the access key ID it was started with",
    );
  });

  test('a request signed for another service is refused', async () => {
    const answer = await signedCurl('/prod/items', [], `${KEY}:${SECRET}`, 's3');
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toBe("credential scope service is 's3'; a REST API request must be signed for 'execute-api'");
  });

  test('an unsigned request is refused', async () => {
    const answer = await curl([`http://127.0.0.1:${port}/prod/items`]);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toBe('missing Authorization header (the request is not signed)');
  });

  test('a request signed more than 15 minutes from the server clock is refused', async () => {
    serverNow = new Date(Date.now() + 60 * 60 * 1000);
    const answer = await signedCurl('/prod/items');
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toMatch(
      /^signature expired: request time \d{8}T\d{6}Z is more than 15 minutes from the server time \d{8}T\d{6}Z$/,
    );
  });

  test('changing the body after signing is refused', async () => {
    // curl signs the body it sends; a declared payload hash that differs from the body is caught.
    const answer = await signedCurl('/prod/items', [
      '-X', 'POST', '--data-raw', '{"name":"x"}',
      '-H', `X-Amz-Content-Sha256: ${createHash('sha256').update('{"name":"y"}').digest('hex')}`,
    ]);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toBe('X-Amz-Content-Sha256 does not match the SHA-256 of the request body');
  });
});

/** SHA-256 (or HMAC-SHA256 when given a secret) from node:crypto, shaped as the AWS SDK's `Checksum`. */
class NodeSha256 {
  private hash: Hash | Hmac;

  constructor(private readonly secret?: string | Uint8Array) {
    this.hash = this.fresh();
  }

  update(data: string | Uint8Array): void {
    this.hash.update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }

  reset(): void {
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
}

interface SdkRequest {
  method: string;
  protocol: string;
  hostname: string;
  port: number;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: string;
}

interface SdkSigner {
  sign(request: SdkRequest, options?: { signingDate?: Date }): Promise<SdkRequest>;
}

/** The AWS SDK v3 signer, when installed (it comes with @aws-sdk/client-cloudformation). */
function sdkSigner(credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }, service = 'execute-api'): SdkSigner | undefined {
  let module: { SignatureV4: new (init: object) => SdkSigner };
  try {
    // A transitive dependency (of @aws-sdk/client-cloudformation), used only as a reference signer.
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-extraneous-dependencies
    module = require('@smithy/signature-v4');
  } catch {
    return undefined;
  }
  return new module.SignatureV4({ service, region: 'eu-west-3', credentials, sha256: NodeSha256 });
}

const describeWithSdk = sdkSigner(CREDENTIALS) ? describe : describe.skip;

function request(method: string, path: string, query: Record<string, string> = {}, body?: string, headers: Record<string, string> = {}): SdkRequest {
  return {
    method,
    protocol: 'http:',
    hostname: '127.0.0.1',
    port,
    path,
    query,
    headers: { host: `127.0.0.1:${port}`, ...headers },
    ...(body === undefined ? {} : { body }),
  };
}

/** The request target as it goes on the wire (the SDK keeps query values decoded). */
function target(signed: SdkRequest): string {
  const query = Object.entries(signed.query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return query === '' ? signed.path : `${signed.path}?${query}`;
}

/** Sends a signed request with node:http; `path` overrides the wire target (to tamper with it). */
function send(signed: SdkRequest, overrides: { path?: string; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: signed.method, path: overrides.path ?? target(signed), headers: signed.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(overrides.body ?? signed.body);
  });
}

function lowercase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

describeWithSdk('AWS SDK v3 SignatureV4', () => {
  const signer = sdkSigner(CREDENTIALS)!;

  test('GET with query values holding spaces, plus signs and reserved characters is accepted', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', { limit: '5', q: 'a b+c', path: '/x?y=z&w' }));
    expect(await send(signed)).toEqual({ status: 200, body: '{"ok":true}' });
    expect(lastRequest!.path).toBe('/prod/items?limit=5&q=a%20b%2Bc&path=%2Fx%3Fy%3Dz%26w');
  });

  test('POST with a JSON body is accepted', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{"name":"sdk"}', { 'content-type': 'application/json' }));
    expect(await send(signed)).toEqual({ status: 200, body: '{"ok":true}' });
    expect(lastRequest!.body).toBe('{"name":"sdk"}');
  });

  test('a path with percent-encoded characters is accepted (the SDK encodes it once more)', async () => {
    const signed = await signer.sign(request('PUT', '/prod/items/object/a%20b%2Fc', {}, '{}'));
    expect(await send(signed)).toEqual({ status: 200, body: '{"ok":true}' });
  });

  test('temporary credentials: X-Amz-Security-Token is signed and accepted', async () => {
    const withToken = sdkSigner({ ...CREDENTIALS, sessionToken: 'FQoGZXIvYXdzEXAMPLE' })!;
    const signed = await withToken.sign(request('GET', '/prod/items'));
    expect(lowercase(signed.headers)['x-amz-security-token']).toBe('FQoGZXIvYXdzEXAMPLE');
    expect(lowercase(signed.headers).authorization).toMatch(/SignedHeaders=[^,]*x-amz-security-token/);
    expect((await send(signed)).status).toBe(200);
  });

  test('a changed query is refused', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', { limit: '5' }));
    const answer = await send(signed, { path: '/prod/items?limit=6' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toMatch(/^signature does not match/);
  });

  test('a changed path is refused', async () => {
    const signed = await signer.sign(request('GET', '/prod/items/1'));
    expect((await send(signed, { path: '/prod/items/2' })).status).toBe(403);
  });

  test('a changed body is refused', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{"name":"a"}'));
    const answer = await send(signed, { body: '{"name":"b"}' });
    expect(answer.status).toBe(403);
    // The SDK also sends X-Amz-Content-Sha256, which no longer matches the body.
    expect(JSON.parse(answer.body).message).toBe('X-Amz-Content-Sha256 does not match the SHA-256 of the request body');
  });

  test('a changed body without a declared payload hash is refused', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{"name":"a"}'));
    const headers = lowercase(signed.headers);
    delete headers['x-amz-content-sha256'];
    headers.authorization = headers.authorization.replace(/x-amz-content-sha256;/, '');
    const result = verifySigV4({ method: 'POST', path: '/prod/items', headers, body: Buffer.from('{"name":"b"}') }, CREDENTIALS);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^signature does not match/) });
  });

  test('a changed signed header is refused', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{}', { 'content-type': 'application/json' }));
    signed.headers['content-type'] = 'text/plain';
    expect((await send(signed)).status).toBe(403);
  });

  test('a signature for another service is refused', async () => {
    const signed = await sdkSigner(CREDENTIALS, 'lambda')!.sign(request('GET', '/prod/items'));
    expect(JSON.parse((await send(signed)).body).message).toBe(
      "credential scope service is 'lambda'; a REST API request must be signed for 'execute-api'",
    );
  });

  test('SignedHeaders without host is refused', async () => {
    const signed = await signer.sign(request('GET', '/prod/items'));
    const headers = lowercase(signed.headers);
    headers.authorization = headers.authorization.replace(/SignedHeaders=[^,]*/, 'SignedHeaders=x-amz-date');
    const result = verifySigV4({ method: 'GET', path: '/prod/items', headers, body: Buffer.alloc(0) }, CREDENTIALS);
    expect(result).toEqual({ ok: false, reason: "SignedHeaders must include 'host'; got 'x-amz-date'" });
  });

  test('a signed header missing from the request is refused', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', {}, undefined, { 'x-custom': 'v' }));
    const headers = lowercase(signed.headers);
    delete headers['x-custom'];
    const result = verifySigV4({ method: 'GET', path: '/prod/items', headers, body: Buffer.alloc(0) }, CREDENTIALS);
    expect(result).toEqual({ ok: false, reason: "signed header 'x-custom' is missing from the request" });
  });

  test('header values are trimmed and inner whitespace collapsed', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', {}, undefined, { 'x-custom': '  a   b  ' }));
    const headers = { ...lowercase(signed.headers), 'x-custom': 'a b' };
    expect(verifySigV4({ method: 'GET', path: '/prod/items', headers, body: Buffer.alloc(0) }, CREDENTIALS)).toEqual({ ok: true });
  });

  describe('request time against the server clock', () => {
    const signedAt = new Date('2024-02-01T12:00:00Z');
    const minutes = (n: number) => new Date(signedAt.getTime() + n * 60 * 1000);

    async function verifyAt(now: Date) {
      const signed = await signer.sign(request('GET', '/prod/items', { limit: '1' }), { signingDate: signedAt });
      return verifySigV4({ method: 'GET', path: target(signed), headers: lowercase(signed.headers), body: Buffer.alloc(0) }, CREDENTIALS, now);
    }

    test.each([-15, -14, 0, 14, 15])('%i minutes off is accepted', async (offset) => {
      expect(await verifyAt(minutes(offset))).toEqual({ ok: true });
    });

    test.each([-16, 16, 60 * 24])('%i minutes off is refused', async (offset) => {
      expect(await verifyAt(minutes(offset))).toEqual({
        ok: false,
        reason: expect.stringMatching(/^signature expired: request time 20240201T120000Z is more than 15 minutes from the server time/),
      });
    });
  });
});

describe('malformed requests', () => {
  const base = {
    method: 'GET',
    path: '/prod/items',
    body: Buffer.alloc(0),
  };
  const auth = (value: string, date = '20240201T120000Z') => ({
    ...base,
    headers: { 'host': 'localhost', 'x-amz-date': date, 'authorization': value },
  });
  const now = new Date('2024-02-01T12:00:00Z');
  const sig = 'a'.repeat(64);
  const good = `Credential=${KEY}/20240201/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=${sig}`;

  test.each([
    ['Basic dXNlcjpwYXNz', "Authorization header uses 'Basic'; only AWS4-HMAC-SHA256 is supported"],
    ['AWS4-HMAC-SHA256 Credential=x', 'malformed Authorization header: it needs Credential=..., SignedHeaders=... and Signature=...'],
    ['AWS4-HMAC-SHA256 nonsense', "malformed Authorization header: 'nonsense' is not NAME=VALUE"],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api, SignedHeaders=host, Signature=${sig}`, /^malformed Credential '.*': expected ACCESS_KEY_ID\/YYYYMMDD\/REGION\/SERVICE\/aws4_request$/],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/2024-02-01/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=${sig}`, "malformed Credential: date '2024-02-01' is not YYYYMMDD"],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=XYZ`, 'malformed Signature: expected 64 lowercase hexadecimal digits'],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api/aws4_request, SignedHeaders=Host, Signature=${sig}`, "malformed SignedHeaders 'Host': expected lowercase header names separated by ';'"],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api/aws4_other, SignedHeaders=host, Signature=${sig}`, "credential scope must end with 'aws4_request', got 'aws4_other'"],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=${sig}`, "SignedHeaders must include 'x-amz-date'; got 'host'"],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240202/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=${sig}`, 'credential scope date 20240202 does not match the X-Amz-Date 20240201T120000Z'],
  ])('%s', (value, reason) => {
    const result = verifySigV4(auth(value), CREDENTIALS, now);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toEqual(typeof reason === 'string' ? reason : expect.stringMatching(reason));
  });

  test('a missing X-Amz-Date is refused', () => {
    const unsigned = { ...base, headers: { host: 'localhost', authorization: `AWS4-HMAC-SHA256 ${good}` } };
    expect(verifySigV4(unsigned, CREDENTIALS, now)).toEqual({ ok: false, reason: 'missing X-Amz-Date header' });
  });

  test('a malformed X-Amz-Date is refused', () => {
    expect(verifySigV4(auth(`AWS4-HMAC-SHA256 ${good}`, '2024-02-01T12:00:00Z'), CREDENTIALS, now)).toEqual({
      ok: false,
      reason: "X-Amz-Date '2024-02-01T12:00:00Z' is not in the form YYYYMMDDTHHMMSSZ",
    });
  });

  test('parseAuthorization reads the parts', () => {
    expect(parseAuthorization(`AWS4-HMAC-SHA256 ${good}`)).toEqual({
      accessKeyId: KEY,
      date: '20240201',
      region: 'us-east-1',
      service: 'execute-api',
      terminator: 'aws4_request',
      signedHeaders: ['host', 'x-amz-date'],
      signature: sig,
    });
  });
});

describe('canonical forms', () => {
  test('uriEncode keeps only unreserved characters, in uppercase hex, UTF-8', () => {
    expect(uriEncode("AZaz09-_.~ +/%:!'()*é")).toBe('AZaz09-_.~%20%2B%2F%25%3A%21%27%28%29%2A%C3%A9');
  });

  test.each([
    ['', '/'],
    ['/', '/'],
    ['/prod/items', '/prod/items'],
    ['/prod/items/', '/prod/items/'],
    ['/prod/items/a%20b', '/prod/items/a%2520b'],
    ['/prod//items/./x/../y', '/prod/items/y'],
    ['/prod/a:b', '/prod/a%3Ab'],
  ])('canonical URI of %j is %j', (raw, expected) => {
    expect(canonicalUri(raw, true)).toBe(expected);
  });

  test.each([
    ['', ''],
    ['b=2&a=1', 'a=1&b=2'],
    ['a=2&a=1&a', 'a=&a=1&a=2'],
    ['q=a%20b%2Bc', 'q=a%20b%2Bc'],
    ['q=a+b', 'q=a%2Bb'],
    ['q=%7e%2a', 'q=~%2A'],
    ['Z=1&a=1', 'Z=1&a=1'],
    ['bad=%zz', 'bad=%25zz'],
  ])('canonical query of %j is %j', (raw, expected) => {
    expect(canonicalQuery(raw, false)).toBe(expected);
  });

  test('curl 8 form treats a plus as a space', () => {
    expect(canonicalQuery('q=a+b%2Bc', true)).toBe('q=a%20b%20c');
  });
});

describe('parseCredentials', () => {
  test('splits KEY:SECRET at the first colon', () => {
    expect(parseCredentials(`${KEY}:${SECRET}`)).toEqual(CREDENTIALS);
  });

  test.each(['', 'KEYONLY', 'KEY:', ':SECRET'])('%j is refused without echoing a secret', (text) => {
    expect(() => parseCredentials(text)).toThrow('credentials must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)');
  });
});
