/**
 * `--jwks FILE`: the public keys of a real user pool (its
 * `https://cognito-idp.<region>.amazonaws.com/<pool id>/.well-known/jwks.json`, saved to a file),
 * so tokens that pool issued verify locally too.
 */
import type { JWK } from 'jose';
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../../../outputs/cdk-free/json-file';
import { usageError } from '../../common/local-api-error';

export function readJwksFile(file: string): JWK[] {
  const parsed = readJsonFile(file, {
    unreadable: (reason) => usageError(`--jwks ${file}: cannot read the file (${reason})`),
    invalid: (reason) => usageError(`--jwks ${file}: not JSON (${reason})`),
  });
  const keys = isPlainObject(parsed) ? parsed.keys : undefined;
  if (!Array.isArray(keys)) {
    throw usageError(`--jwks ${file}: must be a JWK set, {"keys": [...]}, as a pool's .well-known/jwks.json is`);
  }
  keys.forEach((k: unknown, i) => {
    if (!isPlainObject(k) || k.kty !== 'RSA' || typeof k.n !== 'string' || typeof k.e !== 'string' || typeof k.kid !== 'string') {
      throw usageError(`--jwks ${file}: /keys/${i} is not an RSA public key with kid, n and e (user pools sign with RS256)`);
    }
    if (typeof k.d === 'string') {
      throw usageError(`--jwks ${file}: /keys/${i} holds a private key; give the public keys only`);
    }
  });
  return keys as JWK[];
}
