/**
 * `--jwks FILE`: the public keys of a real user pool (its
 * `https://cognito-idp.<region>.amazonaws.com/<pool id>/.well-known/jwks.json`, saved to a file),
 * so tokens that pool issued verify locally too. Only RSA public keys are accepted (user pools sign
 * with RS256), and each is checked here, member by member, so a damaged file is a usage error
 * naming the key's pointer at start rather than tokens refused for no visible reason later.
 */
import type { JWK } from 'jose';
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../../../outputs/cdk-free/json-file';
import { usageError } from '../../common/local-api-error';

/** Members that only a private RSA key has (RFC 7518 6.3.2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

/** Base64url members of an RSA public JWK: the modulus and exponent (RFC 7518 6.3.1), certificate thumbprints (RFC 7517 4.8, 4.9). */
const BASE64URL_MEMBERS = ['n', 'e', 'x5t', 'x5t#S256'];

/** RS256 needs a modulus of 2048 bits or more (RFC 7518 3.3; jose refuses smaller keys when it verifies). */
const MIN_MODULUS_BITS = 2048;

export function readJwksFile(file: string): JWK[] {
  const parsed = readJsonFile(file, {
    unreadable: (reason) => usageError(`--jwks ${file}: cannot read the file (${reason})`),
    invalid: (reason) => usageError(`--jwks ${file}: not JSON (${reason})`),
  });
  const keys = isPlainObject(parsed) ? parsed.keys : undefined;
  if (!Array.isArray(keys)) {
    throw usageError(`--jwks ${file}: must be a JWK set, {"keys": [...]}, as a pool's .well-known/jwks.json is`);
  }
  keys.forEach((key: unknown, i) => checkKey(key, `/keys/${i}`, file));
  return keys as JWK[];
}

/** One key: an RSA public key whose members decode as RFC 7517 and 7518 say they must. */
function checkKey(k: unknown, pointer: string, file: string): void {
  if (!isPlainObject(k) || k.kty !== 'RSA' || typeof k.n !== 'string' || typeof k.e !== 'string' || typeof k.kid !== 'string') {
    throw usageError(`--jwks ${file}: ${pointer} is not an RSA public key with kid, n and e (user pools sign with RS256)`);
  }
  if (PRIVATE_MEMBERS.some((member) => member in k)) {
    throw usageError(`--jwks ${file}: ${pointer} holds a private key; give the public keys only`);
  }
  for (const member of BASE64URL_MEMBERS) {
    if (member in k && !isBase64url(k[member])) {
      throw usageError(`--jwks ${file}: ${pointer}/${member.replace(/~/g, '~0').replace(/\//g, '~1')} is not base64url (got ${shown(k[member])}): `
        + 'JWK members are base64url without padding, letters, digits, - and _ only (RFC 7515 2)');
    }
  }
  if (Array.isArray(k.x5c)) {
    k.x5c.forEach((certificate, j) => {
      if (!isBase64(certificate)) {
        throw usageError(`--jwks ${file}: ${pointer}/x5c/${j} is not base64 (got ${shown(certificate)}): each x5c entry is a DER certificate in base64 (RFC 7517 4.7)`);
      }
    });
  }
  const bits = modulusBits(k.n);
  if (bits < MIN_MODULUS_BITS) {
    throw usageError(`--jwks ${file}: ${pointer}/n is a ${bits}-bit modulus: RS256 needs ${MIN_MODULUS_BITS} bits or more (a user pool's keys have 2048)`);
  }
  if (!/[^A]/.test(k.e)) {
    throw usageError(`--jwks ${file}: ${pointer}/e is zero: the public exponent must be a positive number (usually AQAB, 65537)`);
  }
}

/** Base64url as JWKs use it: non-empty, no padding, no other character, no impossible length. */
function isBase64url(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value) && value.length % 4 !== 1;
}

/** Standard base64, padding allowed. */
function isBase64(value: unknown): boolean {
  return typeof value === 'string' && value.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value);
}

/** The modulus's size in bits (leading zero bytes do not count). */
function modulusBits(n: string): number {
  const bytes = Buffer.from(n, 'base64url');
  let first = 0;
  while (first < bytes.length && bytes[first] === 0) {
    first++;
  }
  return first === bytes.length ? 0 : (bytes.length - first - 1) * 8 + (32 - Math.clz32(bytes[first]));
}

/** A member's value as the message shows it: JSON, shortened. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
