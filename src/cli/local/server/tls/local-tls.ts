/**
 * The TLS identity of the local API (its ports also answer TLS: tls-on-same-port.ts), so that a
 * function building the management endpoint as AWS documents it (`https://${domainName}/${stage}`)
 * reaches the local server unchanged; and the variables that make the functions' runtimes trust
 * it. One certificate per CLI process (local-certificate.ts), made on first use.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createLocalCertificate, LocalCertificate } from './local-certificate';

let identity: LocalCertificate | undefined;
let trustFolder: string | undefined;

/** This process's key and certificate. */
export function localTlsIdentity(): LocalCertificate {
  identity ??= createLocalCertificate();
  return identity;
}

/**
 * The variables that make the functions' runtimes trust the local certificate: the Node.js runtime
 * reads NODE_EXTRA_CA_CERTS at start, boto3 AWS_CA_BUNDLE. A CA file the shell already names is
 * kept: both go into the written file, which lives in a folder of this process's own (mode 0700)
 * removed when it exits.
 */
export function localTlsTrust(shell: NodeJS.ProcessEnv): Record<string, string> {
  const extra = shell.NODE_EXTRA_CA_CERTS === undefined ? '' : readOrEmpty(shell.NODE_EXTRA_CA_CERTS);
  const content = `${extra}${extra.endsWith('\n') || extra === '' ? '' : '\n'}${localTlsIdentity().cert}`;
  const file = path.join(ownFolder(), `ca-${createHash('sha256').update(content).digest('hex').slice(0, 16)}.pem`);
  fs.writeFileSync(file, content, { mode: 0o600 });
  return { NODE_EXTRA_CA_CERTS: file, ...(shell.AWS_CA_BUNDLE === undefined ? { AWS_CA_BUNDLE: file } : {}) };
}

/** A folder only this process writes (mkdtemp makes it 0700), removed when the process exits. */
function ownFolder(): string {
  if (trustFolder === undefined) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-outputs-ca-'));
    process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
    trustFolder = folder;
  }
  return trustFolder;
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
