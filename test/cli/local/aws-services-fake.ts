/**
 * A small server on 127.0.0.1 that speaks the wire protocols of the services HTTP APIs' AWS
 * service integrations call: SQS's query protocol (a form `POST`, answered in its JSON form),
 * the JSON protocols of EventBridge, Kinesis and Step Functions (`X-Amz-Target`), and AppConfig's
 * REST `GET`. It checks each SigV4 signature with the SDK's signer (dynamodb-fake.ts), records
 * every call, and answers each action with the shape the service documents.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { signatureProblem } from './dynamodb-fake';

export interface ServiceCall {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** The signing service named in the credential scope (`sqs`, `states`). */
  readonly service: string;
  /** The action: `Action` of a form, the part after `.` of `X-Amz-Target`, or `GetConfiguration`. */
  readonly action: string;
  /** The form's fields, the JSON body, or the AppConfig path's parts and query. */
  readonly parameters: Record<string, unknown>;
}

export interface FakeAwsServices {
  readonly url: string;
  readonly calls: ServiceCall[];
  close(): Promise<void>;
}

export async function startFakeAwsServices(credentials: { accessKeyId: string; secretAccessKey: string }): Promise<FakeAwsServices> {
  const calls: ServiceCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void signatureProblem(req, body, credentials).then((problem) => {
        if (problem !== undefined) {
          res.writeHead(403, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ __type: 'InvalidSignatureException', message: problem }));
          return;
        }
        const call = readCall(req, body);
        calls.push(call);
        const { status, payload, contentType } = answer(call);
        res.writeHead(status, { 'Content-Type': contentType, 'x-amzn-RequestId': 'fake-request-id' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function readCall(req: http.IncomingMessage, body: Buffer): ServiceCall {
  const service = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization))?.[1] ?? '';
  const base = { method: req.method!, url: req.url!, headers: req.headers, body: body.toString(), service };
  const url = new URL(req.url!, 'http://placeholder');
  const appConfig = /^\/applications\/([^/]+)\/environments\/([^/]+)\/configurations\/([^/]+)$/.exec(url.pathname);
  if (appConfig !== null) {
    const [, application, environment, configuration] = appConfig.map(decodeURIComponent);
    return { ...base, action: 'GetConfiguration', parameters: { application, environment, configuration, ...Object.fromEntries(url.searchParams) } };
  }
  const target = req.headers['x-amz-target'];
  if (typeof target === 'string') {
    return { ...base, action: target.slice(target.indexOf('.') + 1), parameters: JSON.parse(body.toString()) };
  }
  const form = Object.fromEntries(new URLSearchParams(body.toString()));
  return { ...base, action: form.Action ?? '', parameters: form };
}

function answer(call: ServiceCall): { status: number; payload: unknown; contentType: string } {
  const json = (payload: unknown, status = 200) => ({ status, payload, contentType: 'application/x-amz-json-1.1' });
  const p = call.parameters as Record<string, any>;
  switch (call.action) {
    case 'SendMessage':
      if (p.QueueUrl === undefined || p.MessageBody === undefined) {
        return { status: 400, payload: { Error: { Code: 'MissingParameter', Message: 'The request must contain the parameter MessageBody.', Type: 'Sender' } }, contentType: 'application/json' };
      }
      return { status: 200, payload: { SendMessageResponse: { ResponseMetadata: { RequestId: 'fake' }, SendMessageResult: { MessageId: 'm-1', MD5OfMessageBody: 'md5' } } }, contentType: 'application/json' };
    case 'ReceiveMessage':
      return { status: 200, payload: { ReceiveMessageResponse: { ReceiveMessageResult: { messages: [{ Body: 'hello', ReceiptHandle: 'r-1' }] } } }, contentType: 'application/json' };
    case 'DeleteMessage':
      return { status: 200, payload: { DeleteMessageResponse: { ResponseMetadata: { RequestId: 'fake' } } }, contentType: 'application/json' };
    case 'PurgeQueue':
      return { status: 200, payload: { PurgeQueueResponse: { ResponseMetadata: { RequestId: 'fake' } } }, contentType: 'application/json' };
    case 'PutEvents':
      return json({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    case 'PutRecord':
      return json({ ShardId: 'shardId-000000000000', SequenceNumber: '1' });
    case 'StartExecution':
      return { status: 200, payload: { executionArn: `${p.stateMachineArn ?? p.StateMachineArn}:run-1`, startDate: 1 }, contentType: 'application/x-amz-json-1.0' };
    case 'StartSyncExecution':
      return { status: 200, payload: { status: 'SUCCEEDED', output: p.Input ?? p.input }, contentType: 'application/x-amz-json-1.0' };
    case 'StopExecution':
      return { status: 400, payload: { __type: 'ExecutionDoesNotExist', message: `Execution Does Not Exist: '${p.ExecutionArn}'` }, contentType: 'application/x-amz-json-1.0' };
    case 'GetConfiguration':
      return { status: 200, payload: '{"feature":true}', contentType: 'application/json' };
    default:
      return json({ __type: 'UnknownOperationException' }, 400);
  }
}
