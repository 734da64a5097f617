/**
 * A small server on 127.0.0.1 that speaks DynamoDB's JSON 1.0 protocol (PutItem, GetItem) for the
 * AWS integration tests, and checks every request's SigV4 signature with the AWS SDK's own signer
 * against the one key pair it knows, as the service does.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

export interface FakeDynamoDb {
  readonly url: string;
  /** Every request as received (raw headers, target, body). */
  readonly requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  /** Items by table, keyed by the JSON of their key attributes `{ id: ... }`. */
  readonly tables: Map<string, Map<string, unknown>>;
  close(): Promise<void>;
}

export async function startFakeDynamoDb(credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }): Promise<FakeDynamoDb> {
  const requests: FakeDynamoDb['requests'] = [];
  const tables = new Map<string, Map<string, unknown>>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString() });
      void answer(req, body, credentials, tables).then(({ status, payload }) => {
        res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': 'fake-request-id' });
        res.end(JSON.stringify(payload));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    tables,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function answer(
  req: http.IncomingMessage, body: Buffer, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  tables: Map<string, Map<string, unknown>>,
): Promise<{ status: number; payload: unknown }> {
  const problem = await signatureProblem(req, body, credentials);
  if (problem !== undefined) {
    return { status: 400, payload: { __type: 'com.amazon.coral.service#InvalidSignatureException', message: problem } };
  }
  const target = String(req.headers['x-amz-target'] ?? '');
  if (req.headers['content-type'] !== 'application/x-amz-json-1.0') {
    return { status: 400, payload: { __type: 'com.amazon.coral.service#SerializationException', message: `content type ${req.headers['content-type']}` } };
  }
  let input: any;
  try {
    input = JSON.parse(body.toString());
  } catch {
    return { status: 400, payload: { __type: 'com.amazon.coral.service#SerializationException', message: 'body is not JSON' } };
  }
  const table = tables.get(input.TableName) ?? new Map<string, unknown>();
  tables.set(input.TableName, table);
  switch (target) {
    case 'DynamoDB_20120810.PutItem':
      table.set(JSON.stringify({ id: input.Item?.id }), input.Item);
      return { status: 200, payload: {} };
    case 'DynamoDB_20120810.GetItem': {
      const item = table.get(JSON.stringify({ id: input.Key?.id }));
      return { status: 200, payload: item === undefined ? {} : { Item: item } };
    }
    default:
      return { status: 400, payload: { __type: 'com.amazon.coral.service#UnknownOperationException', message: `unknown target ${target}` } };
  }
}

/** Why the signature does not verify, or undefined when it does. */
export async function signatureProblem(
  req: http.IncomingMessage, body: Buffer, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
): Promise<string | undefined> {
  const authorization = String(req.headers.authorization ?? '');
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  if (parts === null) {
    return `malformed Authorization header: ${authorization}`;
  }
  const [, accessKeyId, , region, service, signedHeaders, signature] = parts;
  if (accessKeyId !== credentials.accessKeyId) {
    return `unknown access key ${accessKeyId}`;
  }
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (date === null) {
    return `bad X-Amz-Date ${amzDate}`;
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) {
    headers[name] = String(req.headers[name] ?? '');
  }
  const url = new URL(req.url!, 'http://placeholder');
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const existing = query[name];
    query[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  // Only the signed headers count: the checksum header is used when the client signed one, never added.
  const signer = new SignatureV4({ service, region, credentials, sha256: Hash.bind(null, 'sha256'), applyChecksum: false });
  const signed = await signer.sign(
    { method: req.method!, protocol: 'http:', hostname: String(req.headers.host), path: url.pathname, query, headers, body: body.length === 0 ? undefined : body },
    {
      signingDate: new Date(Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6])),
      signableHeaders: new Set(signedHeaders.split(';')),
    },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
  return expected === signature ? undefined : 'The request signature we calculated does not match the signature you provided.';
}
