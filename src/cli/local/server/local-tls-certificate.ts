/**
 * The TLS certificate every local API port also answers with (server/tls-on-same-port.ts), so that
 * a function building the management endpoint as AWS documents it (`https://${domainName}/${stage}`)
 * reaches the local server unchanged. A self-signed leaf (CA:FALSE, serverAuth) for 127.0.0.1, ::1 and
 * localhost only: trusted by the functions' runtimes alone (NODE_EXTRA_CA_CERTS, AWS_CA_BUNDLE), it
 * cannot vouch for any other name, and it cannot sign other certificates. Its key is public on
 * purpose: it protects nothing the plain-HTTP port does not already expose on this machine.
 * Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 * -subj '/CN=vendor-outputs local API' -addext subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost
 * -addext basicConstraints=critical,CA:FALSE -addext keyUsage=critical,digitalSignature -addext extendedKeyUsage=serverAuth
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const LOCAL_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgynt4dNnFxESGfHCy
9qpf6/z+y0qjwTnGw0g3HP1zBr6hRANCAATvFmnl43UyQfW3RXgQkEK5hCtiu/d5
b9zQwMcD8FoNnkDk/nVv6ah3iRzaE1JDB/+DHpKzt24/vFzQuYUt0HpO
-----END PRIVATE KEY-----
`;

export const LOCAL_TLS_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIB7zCCAZWgAwIBAgIUQRuSqlShpc/pD3/X7hurj4ndLaMwCgYIKoZIzj0EAwIw
IzEhMB8GA1UEAwwYdmVuZG9yLW91dHB1dHMgbG9jYWwgQVBJMCAXDTI2MTEyNjA0
MDYxN1oYDzIxMjYxMTAyMDQwNjE3WjAjMSEwHwYDVQQDDBh2ZW5kb3Itb3V0cHV0
cyBsb2NhbCBBUEkwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATvFmnl43UyQfW3
RXgQkEK5hCtiu/d5b9zQwMcD8FoNnkDk/nVv6ah3iRzaE1JDB/+DHpKzt24/vFzQ
uYUt0HpOo4GkMIGhMB0GA1UdDgQWBBRdjqFfma2rxS/kgQVQn9wcpX/O5zAfBgNV
HSMEGDAWgBRdjqFfma2rxS/kgQVQn9wcpX/O5zAsBgNVHREEJTAjhwR/AAABhxAA
AAAAAAAAAAAAAAAAAAABgglsb2NhbGhvc3QwDAYDVR0TAQH/BAIwADAOBgNVHQ8B
Af8EBAMCB4AwEwYDVR0lBAwwCgYIKwYBBQUHAwEwCgYIKoZIzj0EAwIDSAAwRQIg
eJLlo6DgsMCVPll9OnkdrTfJFnVIQL7rlud1obyut08CIQDvgZ5AJsKjjBZ7mQ8N
E55PYMW+h+CB5I81GXcdNaDjUA==
-----END CERTIFICATE-----
`;

/**
 * The variables that make the functions' runtimes trust the local certificate: the Node.js runtime
 * reads NODE_EXTRA_CA_CERTS at start, boto3 AWS_CA_BUNDLE. A CA file the shell already names is
 * kept: both go into the written file.
 */
export function localTlsTrust(shell: NodeJS.ProcessEnv): Record<string, string> {
  const extra = shell.NODE_EXTRA_CA_CERTS === undefined ? '' : readOrEmpty(shell.NODE_EXTRA_CA_CERTS);
  const content = `${extra}${extra.endsWith('\n') || extra === '' ? '' : '\n'}${LOCAL_TLS_CERTIFICATE}`;
  // Named by its content: every server with the same trust shares one file, and none is left per run.
  const file = path.join(os.tmpdir(), `vendor-outputs-local-api-ca-${createHash('sha256').update(content).digest('hex').slice(0, 16)}.pem`);
  if (readOrEmpty(file) !== content) {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, content);
    fs.renameSync(temporary, file);
  }
  return { NODE_EXTRA_CA_CERTS: file, ...(shell.AWS_CA_BUNDLE === undefined ? { AWS_CA_BUNDLE: file } : {}) };
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
