/**
 * SigV4 verification against requests signed by real clients: the AWS SDK's signer
 * (`@smithy/signature-v4`, header and presigned URL) and real `curl --aws-sigv4`, sent over a real
 * HTTP server on 127.0.0.1.
 */
import { execFile } from 'child_process';
import { createHash } from 'crypto';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { isSigned, parseCredentials, readAuthorizationHeader, SignedRequest, signedRequestOf, SigV4Verifier } from '../../../../src/cli/local/auth/sigv4';

const KEY = 'AKIDEXAMPLELOCAL';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const CREDENTIALS = { accessKeyId: KEY, secretAccessKey: SECRET };
const verifier = new SigV4Verifier(CREDENTIALS);

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
      void verifier.verify({ method: req.method!, path: req.url!, headers: req.headers, body }, serverNow).then((result) => {
        res.writeHead(result.ok ? 200 : 403, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result.ok ? { ok: true } : { message: result.reason, answer: result.message, failure: result.failure }));
      });
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
  // curl before 8 signs the query as it is sent, so these queries are written in canonical form
  // (sorted, strictly encoded), which is what the service checks the signature against.
  test('GET with a canonical query holding an encoded space and plus sign is accepted', async () => {
    const answer = await signedCurl('/prod/items?empty=&limit=5&q=a%20b%2Bc');
    expect(answer).toEqual({ status: 200, body: '{"ok":true}' });
    expect(lastRequest).toMatchObject({ method: 'GET', path: '/prod/items?empty=&limit=5&q=a%20b%2Bc' });
  });

  test('POST with a JSON body is accepted and the body arrives whole', async () => {
    const answer = await signedCurl('/prod/items', ['-X', 'POST', '-H', 'Content-Type: application/json', '--data-raw', '{"name":"a b+c"}']);
    expect(answer).toEqual({ status: 200, body: '{"ok":true}' });
    expect(lastRequest).toEqual({ method: 'POST', path: '/prod/items', body: '{"name":"a b+c"}' });
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
    expect(JSON.parse(answer.body)).toEqual({
      message: expect.stringMatching(/^signature does not match: .*check the secret access key/),
      answer: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      failure: 'invalid',
    });
  });

  test('a wrong access key ID is refused with the reason', async () => {
    const answer = JSON.parse((await signedCurl('/prod/items', [], `AKIDSOMEONEELSE:${SECRET}`)).body);
    expect(answer).toEqual({
      message: "unknown access key ID 'AKIDSOMEONEELSE'; this server accepts only the access key ID it was started with",
      answer: 'The security token included in the request is invalid.',
      failure: 'unknown-key',
    });
  });

  test('a request signed for another service is refused', async () => {
    const answer = JSON.parse((await signedCurl('/prod/items', [], `${KEY}:${SECRET}`, 's3')).body);
    expect(answer).toEqual({
      message: "credential scope service is 's3'; a REST API request must be signed for 'execute-api'",
      answer: "Credential should be scoped to correct service: 'execute-api'. ",
      failure: 'invalid',
    });
  });

  test('an unsigned request is refused', async () => {
    const answer = await curl([`http://127.0.0.1:${port}/prod/items`]);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ answer: 'Missing Authentication Token', failure: 'unsigned' });
  });

  test('a request signed more than 5 minutes before the server clock is refused', async () => {
    serverNow = new Date(Date.now() + 60 * 60 * 1000);
    const answer = JSON.parse((await signedCurl('/prod/items')).body);
    expect(answer.message).toMatch(/^signature expired: request time \d{8}T\d{6}Z is more than 5 minutes before the server time \d{8}T\d{6}Z$/);
    expect(answer.answer).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 5 min\.\)$/);
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

function sdkSigner(credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }, service = 'execute-api'): SignatureV4 {
  return new SignatureV4({ service, region: 'eu-west-3', credentials, sha256: Hash.bind(null, 'sha256') });
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
function target(signed: { path: string; query?: Record<string, unknown> }): string {
  const query = Object.entries(signed.query ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return query === '' ? signed.path : `${signed.path}?${query}`;
}

/** Sends a signed request with node:http; `path` overrides the wire target (to tamper with it). */
type Sendable = { method: string; path: string; query?: Record<string, unknown>; headers: Record<string, string>; body?: unknown };

function send(signed: Sendable, overrides: { path?: string; body?: string } = {}): Promise<Answer> {
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

const reasonOf = (answer: Answer) => JSON.parse(answer.body).message;

describe('AWS SDK v3 SignatureV4 (header)', () => {
  const signer = sdkSigner(CREDENTIALS);

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
    const signed = await signer.sign(request('PUT', '/prod/items/object/a%20b%2Fc%C3%A9', {}, '{}'));
    expect(await send(signed)).toEqual({ status: 200, body: '{"ok":true}' });
  });

  test('query names that are Object.prototype members are ordinary names', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', { constructor: 'a', __proto__: 'b', toString: 'c', hasOwnProperty: 'd' }));
    expect(await send(signed)).toEqual({ status: 200, body: '{"ok":true}' });
  });

  test('temporary credentials: X-Amz-Security-Token is signed and accepted', async () => {
    const withToken = sdkSigner({ ...CREDENTIALS, sessionToken: 'FQoGZXIvYXdzEXAMPLE' });
    const signed = await withToken.sign(request('GET', '/prod/items'));
    expect(lowercase(signed.headers as Record<string, string>)['x-amz-security-token']).toBe('FQoGZXIvYXdzEXAMPLE');
    expect(lowercase(signed.headers as Record<string, string>).authorization).toMatch(/SignedHeaders=[^,]*x-amz-security-token/);
    expect((await send(signed as SdkRequest)).status).toBe(200);
  });

  test.each([
    ['/prod/items', {}, '/prod/items/.'],
    ['/prod/items/abc', {}, '/prod/items/x/../abc'],
    ['/prod/items/abc', {}, '/prod/items//abc'],
    ['/prod/items', { limit: '1 2' }, '/prod/items?limit=1+2'],
    ['/prod/items', { limit: '5' }, '/prod/items?limit=6'],
    ['/prod/items/1', {}, '/prod/items/2'],
  ])('a signature for %s %j is refused on %s', async (signedPath, query, replayed) => {
    const signed = await signer.sign(request('GET', signedPath, query));
    expect((await send(signed)).status).toBe(200);
    const answer = await send(signed, { path: replayed });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).answer).toBe('The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.');
  });

  test('a changed body is refused', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{"name":"a"}'));
    const answer = await send(signed, { body: '{"name":"b"}' });
    expect(answer.status).toBe(403);
    // The SDK also sends X-Amz-Content-Sha256, which no longer matches the body.
    expect(reasonOf(answer)).toBe('X-Amz-Content-Sha256 does not match the SHA-256 of the request body');
  });

  test('a changed body without a declared payload hash is refused', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{"name":"a"}'));
    const headers = lowercase(signed.headers);
    delete headers['x-amz-content-sha256'];
    headers.authorization = headers.authorization.replace(/x-amz-content-sha256;/, '');
    const result = await verifier.verify({ method: 'POST', path: '/prod/items', headers, body: Buffer.from('{"name":"b"}') });
    expect(result).toMatchObject({ ok: false, failure: 'invalid', reason: expect.stringMatching(/^signature does not match/) });
  });

  test('a changed signed header is refused', async () => {
    const signed = await signer.sign(request('POST', '/prod/items', {}, '{}', { 'content-type': 'application/json' }));
    signed.headers['content-type'] = 'text/plain';
    expect((await send(signed)).status).toBe(403);
  });

  test('a signature for another service is refused', async () => {
    const signed = await sdkSigner(CREDENTIALS, 'lambda').sign(request('GET', '/prod/items'));
    expect(reasonOf(await send(signed))).toBe("credential scope service is 'lambda'; a REST API request must be signed for 'execute-api'");
  });

  test('SignedHeaders without host is refused', async () => {
    const signed = await signer.sign(request('GET', '/prod/items'));
    const headers = lowercase(signed.headers);
    headers.authorization = headers.authorization.replace(/SignedHeaders=[^,]*/, 'SignedHeaders=x-amz-date');
    const result = await verifier.verify({ method: 'GET', path: '/prod/items', headers, body: Buffer.alloc(0) });
    expect(result).toEqual({ ok: false, failure: 'invalid', message: "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.", reason: "SignedHeaders must include 'host'; got 'x-amz-date'" });
  });

  test('a signed header missing from the request is refused', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', {}, undefined, { 'x-custom': 'v' }));
    const headers = lowercase(signed.headers);
    delete headers['x-custom'];
    const result = await verifier.verify({ method: 'GET', path: '/prod/items', headers, body: Buffer.alloc(0) });
    expect(result).toMatchObject({ ok: false, failure: 'invalid', reason: "signed header 'x-custom' is missing from the request" });
  });

  test('header values are trimmed and inner whitespace collapsed', async () => {
    const signed = await signer.sign(request('GET', '/prod/items', {}, undefined, { 'x-custom': '  a   b  ' }));
    const headers = { ...lowercase(signed.headers), 'x-custom': 'a b' };
    expect(await verifier.verify({ method: 'GET', path: '/prod/items', headers, body: Buffer.alloc(0) })).toEqual({ ok: true });
  });

  describe('request time against the server clock (5 minutes either way)', () => {
    const signedAt = new Date('2024-02-01T12:00:00Z');
    const minutes = (n: number) => new Date(signedAt.getTime() + n * 60 * 1000);

    async function verifyAt(now: Date) {
      const signed = await signer.sign(request('GET', '/prod/items', { limit: '1' }), { signingDate: signedAt });
      return verifier.verify({ method: 'GET', path: target(signed), headers: lowercase(signed.headers), body: Buffer.alloc(0) }, now);
    }

    test.each([-5, -4, 0, 4, 5])('%i minutes off is accepted', async (offset) => {
      expect(await verifyAt(minutes(offset))).toEqual({ ok: true });
    });

    test.each([6, 60 * 24])('the server %i minutes later: Signature expired', async (offset) => {
      expect(await verifyAt(minutes(offset))).toMatchObject({
        ok: false,
        failure: 'expired',
        message: expect.stringMatching(/^Signature expired: 20240201T120000Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 5 min\.\)$/),
      });
    });

    test('the server 6 minutes earlier: Signature not yet current', async () => {
      expect(await verifyAt(minutes(-6))).toMatchObject({
        ok: false,
        failure: 'expired',
        message: 'Signature not yet current: 20240201T120000Z is still later than 20240201T115900Z (20240201T115400Z + 5 min.)',
      });
    });
  });
});

describe('AWS SDK v3 SignatureV4 (presigned URL)', () => {
  const signer = sdkSigner(CREDENTIALS);

  test('a presigned GET with a query is accepted', async () => {
    const presigned = await signer.presign(request('GET', '/prod/items', { limit: '5', q: 'a b' }), { expiresIn: 300 });
    expect(presigned.query!['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(await send(presigned as SdkRequest)).toEqual({ status: 200, body: '{"ok":true}' });
  });

  test('a presigned URL with a session token is accepted', async () => {
    const presigned = await sdkSigner({ ...CREDENTIALS, sessionToken: 'FQoGZXIvYXdzEXAMPLE' }).presign(request('GET', '/prod/items'));
    expect(presigned.query!['X-Amz-Security-Token']).toBe('FQoGZXIvYXdzEXAMPLE');
    expect((await send(presigned as SdkRequest)).status).toBe(200);
  });

  test('a changed query is refused', async () => {
    const presigned = await signer.presign(request('GET', '/prod/items', { limit: '5' }));
    const tampered = target(presigned).replace('limit=5', 'limit=6');
    expect(JSON.parse((await send(presigned as SdkRequest, { path: tampered })).body).failure).toBe('invalid');
  });

  test('past X-Amz-Expires it is refused: Signature expired', async () => {
    const presigned = await signer.presign(request('GET', '/prod/items'), { expiresIn: 60, signingDate: new Date(Date.now() - 61_000) });
    const answer = JSON.parse((await send(presigned as SdkRequest)).body);
    expect(answer.failure).toBe('expired');
    expect(answer.answer).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 60 sec\.\)$/);
  });

  test('within X-Amz-Expires it is accepted, even after 5 minutes', async () => {
    const presigned = await signer.presign(request('GET', '/prod/items'), { expiresIn: 3600, signingDate: new Date(Date.now() - 30 * 60_000) });
    expect((await send(presigned as SdkRequest)).status).toBe(200);
  });

  test.each(['0', '604801', 'abc'])('X-Amz-Expires=%s is refused', async (expires) => {
    const presigned = await signer.presign(request('GET', '/prod/items'));
    const answer = JSON.parse((await send(presigned as SdkRequest, { path: target(presigned).replace(/X-Amz-Expires=\d+/, `X-Amz-Expires=${expires}`) })).body);
    expect(answer).toMatchObject({ failure: 'incomplete', answer: `X-Amz-Expires must be an integer from 1 to 604800 (one week), got '${expires}'.` });
  });

  test('a presigned URL missing a parameter is refused', async () => {
    const presigned = await signer.presign(request('GET', '/prod/items'));
    const answer = JSON.parse((await send(presigned as SdkRequest, { path: target(presigned).replace(/&?X-Amz-SignedHeaders=[^&]*/, '') })).body);
    expect(answer).toMatchObject({
      failure: 'incomplete',
      answer: "AWS query-string parameters must include 'X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders', 'X-Amz-Expires'. Re-examine the query-string parameters.",
    });
  });
});

describe('malformed Authorization headers: refused with the service wording, never a throw', () => {
  const base = { method: 'GET', path: '/prod/items', body: Buffer.alloc(0) };
  const auth = (value: string, date = '20240201T120000Z'): SignedRequest => ({
    ...base,
    headers: { 'host': 'localhost', 'x-amz-date': date, 'authorization': value },
  });
  const now = new Date('2024-02-01T12:00:00Z');
  const sig = 'a'.repeat(64);
  const scope = `${KEY}/20240201/us-east-1/execute-api/aws4_request`;
  const good = `Credential=${scope}, SignedHeaders=host;x-amz-date, Signature=${sig}`;
  const MISMATCH = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

  test.each([
    ['Basic dXNlcjpwYXNz', 'incomplete', "'dXNlcjpwYXNz' not a valid key=value pair (missing equal-sign) in Authorization header: 'Basic dXNlcjpwYXNz'."],
    ['AWS4-HMAC-SHA256 nonsense', 'incomplete', "'nonsense' not a valid key=value pair (missing equal-sign) in Authorization header: 'AWS4-HMAC-SHA256 nonsense'."],
    ['AWS4-HMAC-SHA256 Credential=x', 'incomplete', "Authorization header requires 'Signature' parameter. Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 Credential=x"],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api, SignedHeaders=host, Signature=${sig}`, 'incomplete', `Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '${KEY}/20240201/us-east-1/execute-api'`],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/2024-02-01/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=${sig}`, 'invalid', "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '2024-02-01' != '20240201', from '20240201T120000Z'."],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240201/us-east-1/execute-api/aws4_other, SignedHeaders=host;x-amz-date, Signature=${sig}`, 'invalid', "Credential should be scoped with a valid terminator: 'aws4_request', not 'aws4_other'. "],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host;x-amz-date, Signature=XYZ`, 'invalid', MISMATCH],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=Host;x-amz-date, Signature=${sig}`, 'invalid', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host, Signature=${sig}`, 'invalid', MISMATCH],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=constructor;host;x-amz-date, Signature=${sig}`, 'invalid', MISMATCH],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=__proto__;host;toString;x-amz-date, Signature=${sig}`, 'invalid', MISMATCH],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host;;x-amz-date, Signature=${sig}`, 'invalid', MISMATCH],
    [`AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=;;;, Signature=${sig}`, 'invalid', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."],
    [`AWS4-HMAC-SHA256 Credential=${KEY}/20240202/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=${sig}`, 'invalid', "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20240202' != '20240201', from '20240201T120000Z'."],
    [`HMAC-MD5 ${good}`, 'incomplete', MISMATCH],
  ])('%s', async (value, failure, message) => {
    expect(await verifier.verify(auth(value), now)).toMatchObject({ ok: false, failure, message });
  });

  test('a missing X-Amz-Date is refused', async () => {
    const unsigned = { ...base, headers: { host: 'localhost', authorization: `AWS4-HMAC-SHA256 ${good}` } };
    expect(await verifier.verify(unsigned, now)).toMatchObject({
      ok: false,
      failure: 'incomplete',
      message: `Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-HMAC-SHA256 ${good}`,
    });
  });

  test('a malformed X-Amz-Date is refused', async () => {
    expect(await verifier.verify(auth(`AWS4-HMAC-SHA256 ${good}`, '2024-02-01T12:00:00Z'), now)).toMatchObject({
      ok: false,
      message: "Date must be in ISO-8601 'basic format'. Got '2024-02-01T12:00:00Z'. See http://en.wikipedia.org/wiki/ISO_8601",
      reason: "X-Amz-Date '2024-02-01T12:00:00Z' is not in the form YYYYMMDDTHHMMSSZ",
    });
  });

  test('the Authorization header is read into its parts', () => {
    expect(readAuthorizationHeader(`AWS4-HMAC-SHA256 ${good}`, { 'x-amz-date': '20240201T120000Z' })).toEqual({
      credential: scope,
      signedHeaders: 'host;x-amz-date',
      signature: sig,
      amzDate: '20240201T120000Z',
    });
  });
});

describe('parseCredentials', () => {
  test('splits KEY:SECRET at the first colon', () => {
    expect(parseCredentials(`${KEY}:${SECRET}`)).toEqual(CREDENTIALS);
  });

  test.each(['', 'KEYONLY', 'KEY:', ':SECRET'])('%j is refused, naming the source, without echoing a secret', (text) => {
    expect(() => parseCredentials(text, 'VENDOR_OUTPUTS_CREDENTIALS')).toThrow('VENDOR_OUTPUTS_CREDENTIALS must be ACCESS_KEY_ID:SECRET_ACCESS_KEY (both non-empty, separated by a colon)');
  });
});

describe('signedRequestOf and isSigned (what every kind asks before verifying)', () => {
  const received = (requestTarget: string, rawHeaders: Array<[string, string]>) => signedRequestOf({ method: 'GET', target: requestTarget, rawHeaders, body: Buffer.alloc(0) });

  test('headers by lower-case name, repeats as lists in order', () => {
    const record = received('/dev/items?a=1', [['Host', 'h'], ['X-Many', 'one'], ['x-many', 'two'], ['Authorization', 'AWS4-HMAC-SHA256 x']]);
    expect(record).toEqual({ method: 'GET', path: '/dev/items?a=1', headers: { 'host': 'h', 'x-many': ['one', 'two'], 'authorization': 'AWS4-HMAC-SHA256 x' }, body: Buffer.alloc(0) });
  });

  test('signed: an Authorization header that is not blank, or presigned query parameters', () => {
    expect(isSigned(received('/dev/items', [['Authorization', 'AWS4-HMAC-SHA256 Credential=x']]))).toBe(true);
    expect(isSigned(received('/dev/items?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=x', []))).toBe(true);
    expect(isSigned(received('/dev/items?a=1&X-Amz-Signature=abc', []))).toBe(true);
  });

  test('unsigned: no header, a blank one, or the parameter names only inside a value', () => {
    expect(isSigned(received('/dev/items', []))).toBe(false);
    expect(isSigned(received('/dev/items', [['Authorization', '  ']]))).toBe(false);
    expect(isSigned(received('/dev/items?note=X-Amz-Signature%3D1', []))).toBe(false);
  });
});
