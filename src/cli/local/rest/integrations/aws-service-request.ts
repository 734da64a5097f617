/**
 * The request an `AWS` (service) integration sends, as API Gateway builds it from the integration
 * URI `arn:aws:apigateway:<region>:<service>[.<subdomain>]:action/<Action>[?|&<query>]` or
 * `...:path/<path>[?<query>]` (https://docs.aws.amazon.com/apigateway/latest/api/API_Integration.html, `uri`):
 *
 * - `action/`: `POST`-style action call `<endpoint>/?Action=<Action>&<query>`; for services with
 *   a JSON protocol (DynamoDB, Step Functions, EventBridge, Kinesis, ...) the action is also named
 *   in `X-Amz-Target` and the body gets the protocol's content type unless the mapping set one.
 * - `path/`: `<endpoint>/<path>`, the method being the integration's HTTP method.
 *
 * Locally the endpoint is the one the user names with the SDKs' standard variables,
 * `AWS_ENDPOINT_URL_<SERVICE>` else `AWS_ENDPOINT_URL` (DynamoDB Local, LocalStack): the request
 * never goes to AWS. It is signed with SigV4 by the SDK's signer (`@smithy/signature-v4`) for the
 * service's signing name and the stack's region, with the credentials of the environment
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`); without them, with the
 * placeholder pair `local`/`local`, which local emulators accept as any other key. The
 * integration's `Credentials` role is not assumed.
 */
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { AwsService, awsService, endpointVariable } from './aws-services';
import type { OutboundRequest } from './outbound';

export interface AwsServiceRequestInput {
  /** The integration URI, path parameters already filled in; mapped query parameters may follow (`?a=b`). */
  readonly uri: string;
  /** The integration's HTTP method. */
  readonly httpMethod: string;
  /** The mapped request body. */
  readonly body: Buffer;
  /** The mapped request headers. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The stack's region (the signing region). */
  readonly region: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The signed request, or why there is none: `missingEndpoint` names the variable to set (empty
 * when the URI itself is not an AWS service URI, which the integration reader already refuses).
 */
export type AwsServiceRequestResult = OutboundRequest | { readonly missingEndpoint: string; readonly message: string };

/** Credentials used when the environment has none (local emulators accept any key). */
const PLACEHOLDER_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const URI = /^arn:[^:]+:apigateway:([^:]*):([^:]+):(action|path)\/(.*)$/s;

/** Where an AWS integration's requests go locally (for the start-up listing): the variable read, and its value if set. */
export interface AwsServiceEndpoint {
  /** The service part of the URI (`dynamodb`). */
  readonly service: string;
  /** The service's variable (`AWS_ENDPOINT_URL_DYNAMODB`). */
  readonly variable: string;
  /** Its value, else `AWS_ENDPOINT_URL`'s; undefined when neither is set. */
  readonly endpoint?: string;
}

export function awsServiceEndpoint(uri: string, env: NodeJS.ProcessEnv): AwsServiceEndpoint | undefined {
  const parsed = URI.exec(uri);
  if (parsed === null) {
    return undefined;
  }
  const labels = parsed[2].split('.');
  const variable = endpointVariable(awsService(labels[labels.length - 1]).serviceId);
  const endpoint = env[variable] || env.AWS_ENDPOINT_URL || undefined;
  return { service: labels[labels.length - 1], variable, endpoint };
}

export async function awsServiceRequest(input: AwsServiceRequestInput): Promise<AwsServiceRequestResult> {
  const parsed = URI.exec(input.uri);
  if (parsed === null) {
    return { missingEndpoint: '', message: `${input.uri} is not an AWS service integration URI (arn:aws:apigateway:<region>:<service>:action/<Action> or :path/<path>)` };
  }
  const [, , serviceAndSubdomain, form, rest] = parsed;
  // `<subdomain>.<service>`: the service is the last label (`mybucket.s3`).
  const labels = serviceAndSubdomain.split('.');
  const service = awsService(labels[labels.length - 1]);
  const subdomain = labels.slice(0, -1).join('.');
  const variable = endpointVariable(service.serviceId);
  const endpoint = input.env[variable] || input.env.AWS_ENDPOINT_URL;
  if (!endpoint) {
    return {
      missingEndpoint: variable,
      message: `AWS integration to ${labels[labels.length - 1]} has no local endpoint: set ${variable} (or AWS_ENDPOINT_URL) to the address of a local service such as DynamoDB Local or LocalStack`,
    };
  }
  const target = form === 'action' ? actionTarget(rest, service, input.headers) : pathTarget(rest, service, subdomain, input.headers);
  return sign(input, service, endpoint, input.env[variable] ? variable : 'AWS_ENDPOINT_URL', target);
}

interface Target {
  /** Path below the endpoint, encoded, starting with `/`. */
  readonly path: string;
  readonly query: Array<[string, string]>;
  readonly headers: Array<[string, string]>;
}

/** `action/<Action>[?|&<query>]`: the query-protocol call, plus the JSON protocol's target header. */
function actionTarget(rest: string, service: AwsService, headers: ReadonlyArray<readonly [string, string]>): Target {
  const split = rest.search(/[?&]/);
  const action = split < 0 ? rest : rest.slice(0, split);
  const query: Array<[string, string]> = [['Action', action], ...parseQuery(split < 0 ? '' : rest.slice(split + 1))];
  const out: Array<[string, string]> = headers.map(([n, v]) => [n, v]);
  if (service.protocol.kind === 'json') {
    setHeader(out, 'X-Amz-Target', `${service.protocol.targetPrefix}.${action}`);
    if (!out.some(([n]) => n.toLowerCase() === 'content-type')) {
      out.push(['Content-Type', service.protocol.contentType]);
    }
  }
  return { path: '/', query, headers: out };
}

/** `path/<path>[?<query>]`; an S3 bucket subdomain becomes the first path segment (a local endpoint has no bucket hosts). */
function pathTarget(rest: string, service: AwsService, subdomain: string, headers: ReadonlyArray<readonly [string, string]>): Target {
  const question = rest.indexOf('?');
  const path = question < 0 ? rest : rest.slice(0, question);
  const prefix = subdomain !== '' && service.signingName === 's3' ? `/${encodeURIComponent(subdomain)}` : '';
  return { path: `${prefix}/${path.replace(/^\/+/, '')}`, query: parseQuery(question < 0 ? '' : rest.slice(question + 1)), headers: headers.map(([n, v]) => [n, v]) };
}

async function sign(
  input: AwsServiceRequestInput, service: AwsService, endpoint: string, variable: string, target: Target,
): Promise<AwsServiceRequestResult> {
  let base: URL;
  try {
    base = new URL(endpoint);
  } catch {
    return { missingEndpoint: variable, message: `${variable}: ${JSON.stringify(endpoint)} is not a URL (http://host:port)` };
  }
  const path = `${base.pathname.replace(/\/+$/, '')}${target.path}`;
  const headers: Record<string, string> = { host: base.host };
  for (const [name, value] of target.headers) {
    const lower = name.toLowerCase();
    if (lower !== 'host' && lower !== 'content-length') {
      headers[lower] = headers[lower] === undefined ? value : `${headers[lower]},${value}`;
    }
  }
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of target.query) {
    const existing = query[name];
    query[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  const signer = new SignatureV4({
    service: service.signingName,
    region: input.region,
    credentials: credentialsOf(input.env),
    sha256: Hash.bind(null, 'sha256'),
    // S3 signs its path as it is and wants the payload hash in X-Amz-Content-Sha256.
    uriEscapePath: service.signingName !== 's3',
    applyChecksum: service.signingName === 's3',
  });
  const method = input.httpMethod.toUpperCase();
  const signed = await signer.sign({
    method,
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port === '' ? undefined : Number(base.port),
    path,
    query,
    headers,
    body: input.body.length === 0 ? undefined : input.body,
  });
  const search = target.query.map(([n, v]) => `${encodeRfc3986(n)}=${encodeRfc3986(v)}`).join('&');
  return {
    method,
    url: `${base.protocol}//${base.host}${path}${search === '' ? '' : `?${search}`}`,
    headers: Object.entries(signed.headers),
    body: input.body,
  };
}

function credentialsOf(env: NodeJS.ProcessEnv): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } {
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    return { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined };
  }
  return PLACEHOLDER_CREDENTIALS;
}

/** `a=1&b=x%20y` → decoded pairs, in order. */
function parseQuery(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of text.split('&')) {
    if (part === '') {
      continue;
    }
    const eq = part.indexOf('=');
    pairs.push([decode(eq < 0 ? part : part.slice(0, eq)), decode(eq < 0 ? '' : part.slice(eq + 1))]);
  }
  return pairs;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, '%20'));
  } catch {
    return text;
  }
}

/** Percent-encoding as SigV4 canonicalizes it (RFC 3986 unreserved characters kept). */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function setHeader(headers: Array<[string, string]>, name: string, value: string): void {
  const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (i < 0) {
    headers.push([name, value]);
  } else {
    headers[i] = [headers[i][0], value];
  }
}
