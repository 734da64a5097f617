/**
 * `--jwks FILE`: the public keys of a real user pool (its
 * `https://cognito-idp.<region>.amazonaws.com/<pool id>/.well-known/jwks.json`, saved to a file),
 * so tokens that pool issued verify locally too.
 */
import * as fs from 'fs';
import type { JWK } from 'jose';
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { usageError } from '../../common/local-api-error';

export function readJwksFile(file: string): JWK[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`--jwks ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`--jwks ${file}: not JSON (${(error as Error).message})`);
  }
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
