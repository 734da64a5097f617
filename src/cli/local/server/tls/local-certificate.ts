/**
 * The certificate the local API answers TLS with: a new P-256 key and a self-signed leaf made when
 * the CLI first needs them, held in memory only. Leaf, not authority (`CA:FALSE`, server
 * authentication only), for 127.0.0.1, ::1 and localhost: a function that trusts it can be told
 * nothing about any other name, and no key of it outlives the process or ships in the package.
 */
import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'crypto';
import { bitString, booleanTrue, explicit, implicit, integer, octetString, oid, sequence, set, utcTime, utf8String } from './der';

export interface LocalCertificate {
  /** PKCS#8, PEM. */
  readonly key: string;
  /** X.509, PEM. */
  readonly cert: string;
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';
const SUBJECT_ALT_NAME = '2.5.29.17';
const KEY_USAGE = '2.5.29.15';
const BASIC_CONSTRAINTS = '2.5.29.19';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const SUBJECT_KEY_IDENTIFIER = '2.5.29.14';
const AUTHORITY_KEY_IDENTIFIER = '2.5.29.35';
const DAY_MS = 86_400_000;

/** A key and a certificate valid from yesterday (clock skew) for a year. */
export function createLocalCertificate(now = new Date()): LocalCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signatureAlgorithm = sequence(oid(ECDSA_WITH_SHA256));
  const name = sequence(set(sequence(oid(COMMON_NAME), utf8String('vendor-outputs local API'))));
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    // A random positive serial of at most 20 bytes, as RFC 5280 allows.
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    signatureAlgorithm,
    name,
    sequence(utcTime(new Date(now.getTime() - DAY_MS)), utcTime(new Date(now.getTime() + 365 * DAY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions(keyIdentifier(publicKey)))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, signatureAlgorithm, bitString(signature));
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    cert: `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`,
  };
}

/** The SHA-1 of the public key's point (RFC 5280's method 1): TLS stacks that check strictly want it. */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const { x, y } = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(x!, 'base64url'), Buffer.from(y!, 'base64url')]);
  return createHash('sha1').update(point).digest();
}

function extensions(keyId: Buffer): Buffer[] {
  const loopback4 = Buffer.from([127, 0, 0, 1]);
  const loopback6 = Buffer.alloc(16);
  loopback6[15] = 1;
  return [
    sequence(oid(SUBJECT_ALT_NAME), octetString(sequence(implicit(7, loopback4), implicit(7, loopback6), implicit(2, Buffer.from('localhost'))))),
    // Not an authority: it cannot sign other certificates.
    sequence(oid(BASIC_CONSTRAINTS), booleanTrue(), octetString(sequence())),
    // digitalSignature (bit 0) only.
    sequence(oid(KEY_USAGE), booleanTrue(), octetString(bitString(Buffer.from([0x80]), 7))),
    sequence(oid(EXTENDED_KEY_USAGE), octetString(sequence(oid(SERVER_AUTH)))),
    sequence(oid(SUBJECT_KEY_IDENTIFIER), octetString(octetString(keyId))),
    sequence(oid(AUTHORITY_KEY_IDENTIFIER), octetString(sequence(implicit(0, keyId)))),
  ];
}
