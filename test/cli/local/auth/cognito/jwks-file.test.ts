/**
 * The --jwks file: a JWK set of RSA public keys, each member checked as the JWK and JWA RFCs
 * define it, every refusal a usage error naming the file and the key's JSON pointer.
 */
import { generateKeyPairSync } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readJwksFile } from '../../../../../src/cli/local/auth/cognito/jwks-file';
import { LocalApiError } from '../../../../../src/cli/local/common/local-api-error';

let dir: string;
let publicKey: Record<string, unknown>;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jwks-file-'));
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicKey = { ...pair.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(keys: unknown[]): string {
  const file = path.join(dir, `jwks-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ keys }));
  return file;
}

test('a pool\'s public RSA keys are read as they are', () => {
  const file = write([publicKey, { ...publicKey, 'kid': 'k2', 'x5t': 'dGh1bWI', 'x5t#S256': 'abc-_Q', 'x5c': ['MIIBIjAN', 'QUJD'] }]);
  expect(readJwksFile(file).map((k) => k.kid)).toEqual(['k1', 'k2']);
});

test.each([
  ['the issue\'s modulus', { n: '!!! not base64 !!!' }, '/keys/1/n is not base64url (got "!!! not base64 !!!")'],
  ['a modulus in standard base64', { n: 'ab+/' }, '/keys/1/n is not base64url (got "ab+/")'],
  ['a padded exponent', { e: 'AQAB=' }, '/keys/1/e is not base64url (got "AQAB=")'],
  ['an empty exponent', { e: '' }, '/keys/1/e is not base64url (got "")'],
  ['a length base64 cannot have', { e: 'AQABA' }, '/keys/1/e is not base64url (got "AQABA")'],
  ['a thumbprint', { x5t: 'a b' }, '/keys/1/x5t is not base64url (got "a b")'],
  ['a SHA-256 thumbprint, its pointer escaped', { 'x5t#S256': 42 }, '/keys/1/x5t#S256 is not base64url (got 42)'],
])('%s: a usage error naming the member\'s pointer', (_what, change, message) => {
  const file = write([publicKey, { ...publicKey, kid: 'k2', ...change }]);
  expect(() => readJwksFile(file)).toThrow(LocalApiError);
  expect(() => readJwksFile(file)).toThrow(`--jwks ${file}: ${message}: JWK members are base64url without padding, letters, digits, - and _ only (RFC 7515 2)`);
  try {
    readJwksFile(file);
  } catch (error) {
    expect((error as LocalApiError).kind).toBe('usage');
  }
});

test('a certificate chain entry that is not base64', () => {
  const file = write([{ ...publicKey, x5c: ['QUJD', 'not base64!'] }]);
  expect(() => readJwksFile(file)).toThrow(`--jwks ${file}: /keys/0/x5c/1 is not base64 (got "not base64!"): each x5c entry is a DER certificate in base64 (RFC 7517 4.7)`);
});

test.each([
  ['a 1024-bit modulus', () => ({ ...generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }), kid: 'small' }), '/keys/0/n is a 1024-bit modulus: RS256 needs 2048 bits or more (a user pool\'s keys have 2048)'],
  ['a modulus of zeros', () => ({ ...publicKey, n: 'AAAA' }), '/keys/0/n is a 0-bit modulus: RS256 needs 2048 bits or more (a user pool\'s keys have 2048)'],
  ['an exponent of zero', () => ({ ...publicKey, e: 'AA' }), '/keys/0/e is zero: the public exponent must be a positive number (usually AQAB, 65537)'],
])('%s is refused', (_what, key, message) => {
  const file = write([key()]);
  expect(() => readJwksFile(file)).toThrow(`--jwks ${file}: ${message}`);
});

test.each(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'])('a key with the private member %s is refused', (member) => {
  const file = write([{ ...publicKey, [member]: 'AQAB' }]);
  expect(() => readJwksFile(file)).toThrow(`--jwks ${file}: /keys/0 holds a private key; give the public keys only`);
});

test('a key of another type is refused as before', () => {
  const file = write([{ kty: 'EC', kid: 'x', crv: 'P-256', x: 'AQAB', y: 'AQAB' }]);
  expect(() => readJwksFile(file)).toThrow(`--jwks ${file}: /keys/0 is not an RSA public key with kid, n and e (user pools sign with RS256)`);
});
