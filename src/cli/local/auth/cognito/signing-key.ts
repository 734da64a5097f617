/**
 * The local signing key: an RSA key pair that `serve` trusts and `token` signs with, in place of a
 * user pool's keys (there is no pool offline). It lives in `.vendor-outputs/local-signing-key.json`
 * beside the cloud assembly directory, so every command run on the same app finds the same key;
 * it is created once, readable by the owner only, and never replaced: a second process that races
 * the first one reads the first one's key.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { JWK } from 'jose';
import { jose } from './jose-module';
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { readJsonFile } from '../../../../outputs/cdk-free/json-file';
import { LocalApiError } from '../../common/local-api-error';

export const SIGNING_KEY_DIR = '.vendor-outputs';
export const SIGNING_KEY_FILE = 'local-signing-key.json';

/** Members of an RSA JWK that are private. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

export interface SigningKey {
  readonly file: string;
  /** With `kid`, `alg: RS256`, `use: sig`. */
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

/** The key file of the app whose cloud assembly is `assemblyDir`. */
export function signingKeyFile(assemblyDir: string): string {
  return path.join(path.dirname(path.resolve(assemblyDir)), SIGNING_KEY_DIR, SIGNING_KEY_FILE);
}

/** Reads the key of `file`, creating it first when there is none. */
export async function loadOrCreateSigningKey(file: string): Promise<SigningKey> {
  if (!fs.existsSync(file)) {
    await createKeyFile(file);
  }
  return readKeyFile(file);
}

export function readKeyFile(file: string): SigningKey {
  const unusable = (message: string) => new LocalApiError(`the local signing key ${file} cannot be read (${message}); delete it and a new one is made`);
  const parsed = readJsonFile(file, { unreadable: (_code, message) => unusable(message), invalid: unusable });
  const jwk = isPlainObject(parsed) ? parsed.privateKey : undefined;
  if (!isRsaPrivateKey(jwk)) {
    throw new LocalApiError(`the local signing key ${file} has no RSA private key at /privateKey; delete it and a new one is made`);
  }
  return { file, privateJwk: jwk, publicJwk: publicPart(jwk) };
}

function isRsaPrivateKey(value: unknown): value is JWK {
  return isPlainObject(value) && value.kty === 'RSA' && typeof value.d === 'string' && typeof value.kid === 'string';
}

export function publicPart(jwk: JWK): JWK {
  const copy: JWK = { ...jwk };
  for (const member of PRIVATE_MEMBERS) {
    delete copy[member as keyof JWK];
  }
  return copy;
}

async function createKeyFile(file: string): Promise<void> {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Git users never commit the key: the folder ignores itself.
  const ignore = path.join(dir, '.gitignore');
  if (!fs.existsSync(ignore)) {
    fs.writeFileSync(ignore, '*\n');
  }
  const { privateKey } = await jose().generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = { ...(await jose().exportJWK(privateKey)), kid: `local-${randomUUID()}`, alg: 'RS256', use: 'sig' };
  const content = `${JSON.stringify({ comment: 'Local signing key of vendor-outputs: serve trusts tokens it signs, token signs with it. Not for any deployed system.', privateKey: jwk }, null, 2)}\n`;
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  fs.writeFileSync(temp, content, { mode: 0o600 });
  try {
    // A link fails when the file exists: the key of whoever came first stays.
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new LocalApiError(`cannot write the local signing key ${file}: ${(error as Error).message}`, 'server');
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
