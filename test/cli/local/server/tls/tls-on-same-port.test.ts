/**
 * A port that also speaks TLS: plain HTTP and HTTPS (with the local certificate, trusted as the
 * functions trust it) reach the same server, bodies intact; the trust variables keep a CA file
 * the shell names and an AWS_CA_BUNDLE it sets.
 */
import { X509Certificate } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { localTlsIdentity, localTlsTrust } from '../../../../../src/cli/local/server/tls/local-tls';
import { acceptTlsOnSamePort } from '../../../../../src/cli/local/server/tls/tls-on-same-port';

const LOCAL_TLS_CERTIFICATE = localTlsIdentity().cert;

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let size = 0;
    req.on('data', (d: Buffer) => { size += d.length; });
    req.on('end', () => res.end(`${req.method} ${req.url} ${size} ${(req.socket as { encrypted?: boolean }).encrypted ? 'tls' : 'plain'}`));
  });
  acceptTlsOnSamePort(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function post(url: string, body: string, options: https.RequestOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https') ? https : http).request(url, { method: 'POST', ...options }, (response) => {
      let text = '';
      response.on('data', (d) => { text += d; });
      response.on('end', () => resolve(text));
    });
    request.on('error', reject);
    request.end(body);
  });
}

test('plain HTTP and HTTPS on one port, a 300 KB body intact each way', async () => {
  const body = 'x'.repeat(300_000);
  expect(await post(`http://127.0.0.1:${port}/a`, body)).toBe('POST /a 300000 plain');
  expect(await post(`https://127.0.0.1:${port}/b`, body, { ca: LOCAL_TLS_CERTIFICATE })).toBe('POST /b 300000 tls');
  expect(await post(`https://localhost:${port}/c`, '', { ca: LOCAL_TLS_CERTIFICATE })).toBe('POST /c 0 tls');
});

test('a client that does not trust the certificate is refused by its own TLS check', async () => {
  await expect(post(`https://127.0.0.1:${port}/d`, '')).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
});

test('the trust variables: the local certificate after a CA file the shell names; AWS_CA_BUNDLE kept when set', () => {
  const own = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-ca-')), 'corp.pem');
  fs.writeFileSync(own, '-----BEGIN CERTIFICATE-----\ncorp\n-----END CERTIFICATE-----');
  const trust = localTlsTrust({ NODE_EXTRA_CA_CERTS: own, AWS_CA_BUNDLE: '/etc/corp.pem' });
  expect(Object.keys(trust)).toEqual(['NODE_EXTRA_CA_CERTS']);
  expect(fs.readFileSync(trust.NODE_EXTRA_CA_CERTS, 'utf8')).toBe(`-----BEGIN CERTIFICATE-----\ncorp\n-----END CERTIFICATE-----\n${LOCAL_TLS_CERTIFICATE}`);
  const plain = localTlsTrust({});
  expect(plain.AWS_CA_BUNDLE).toBe(plain.NODE_EXTRA_CA_CERTS);
  expect(fs.readFileSync(plain.NODE_EXTRA_CA_CERTS, 'utf8')).toBe(LOCAL_TLS_CERTIFICATE);
  expect(localTlsTrust({}).NODE_EXTRA_CA_CERTS).toBe(plain.NODE_EXTRA_CA_CERTS);
  // In a folder of this process's own, readable by its user only.
  expect(fs.statSync(path.dirname(plain.NODE_EXTRA_CA_CERTS)).mode.toString(8).slice(-3)).toBe('700');
});

test('the certificate: made in this process, a self-signed leaf for the loopback names only, valid now', () => {
  const certificate = new X509Certificate(LOCAL_TLS_CERTIFICATE);
  expect(certificate.verify(certificate.publicKey)).toBe(true);
  expect(certificate.ca).toBe(false);
  expect(certificate.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
  expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  expect(certificate.checkHost('example.com')).toBeUndefined();
  expect(new Date(certificate.validFrom).getTime()).toBeLessThan(Date.now());
  expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
  // The same one for every server of the process.
  expect(localTlsIdentity().cert).toBe(LOCAL_TLS_CERTIFICATE);
});
