/**
 * The REST API (payload 1.0) Lambda proxy event: the integration gathers an {@link EventInput}
 * from the request and builds the finished event with {@link buildEvent}, which the function
 * runtime passes to the handler as it is. Header and query names come from the client: every
 * record keyed by them is written and read as own properties only (see own-record.ts).
 */
import { FORWARDING_HEADERS, LAMBDA_REQUEST_DROPPED } from './header-table';
import { requestTime } from '../common/dates';
import { appendValue } from '../common/own-record';
import { parseQuery } from '../common/query-string';

/** What the event is built from. */
export interface EventInput {
  readonly resource: string;
  /** Path below the stage, decoded. */
  readonly path: string;
  readonly httpMethod: string;
  /** Request headers as received, flat: name, value, name, value... */
  readonly headers: string[];
  /** Raw query string (without `?`). */
  readonly query: string;
  readonly pathParameters: Record<string, string> | null;
  readonly stageVariables: Readonly<Record<string, string>> | null;
  readonly body: string | null;
  readonly isBase64Encoded: boolean;
  /** The method is authorized with `AWS_IAM`: the gateway does not pass `Authorization` on. */
  readonly iamMethod?: boolean;
  /** Headers the front door adds (trace id, forwarded-for/port/proto); undefined for test-invoke. */
  readonly forward?: { readonly traceId: string; readonly sourceIp: string; readonly port: number };
  readonly context: {
    readonly resourceId: string;
    readonly stage: string;
    /** Path with the stage (`/prod/items`), or without for test-invoke. */
    readonly path: string;
    readonly requestId: string;
    readonly extendedRequestId: string;
    readonly requestTimeEpoch: number;
    readonly sourceIp: string;
    readonly domainName: string;
    readonly apiId: string;
    /** Identity fields that differ from an anonymous caller (IAM caller, guest). */
    readonly identity: Readonly<Record<string, string | null>> | null;
    /** `requestContext.authorizer` set by an authorizer (a Lambda authorizer's `principalId` and context, a Cognito authorizer's `claims`). */
    readonly authorizer?: Readonly<Record<string, string | number | boolean | Readonly<Record<string, string>>>>;
  };
}

/** Builds the event a Lambda proxy integration passes to the function. */
export function buildEvent(input: EventInput): Record<string, unknown> {
  const { headers, multiValueHeaders, userAgent } = eventHeaders(input);
  const query = input.query === '' ? undefined : parseQuery(input.query);
  const hasQuery = query !== undefined && query.count > 0;
  const c = input.context;
  const identity: Record<string, string | null> = {
    cognitoIdentityPoolId: null,
    accountId: null,
    cognitoIdentityId: null,
    caller: null,
    sourceIp: c.sourceIp,
    principalOrgId: null,
    accessKey: null,
    cognitoAuthenticationType: null,
    cognitoAuthenticationProvider: null,
    userArn: null,
    userAgent,
    user: null,
  };
  if (c.identity !== null) {
    Object.assign(identity, c.identity);
  }
  return {
    resource: input.resource,
    path: input.path,
    httpMethod: input.httpMethod,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query.single : null,
    multiValueQueryStringParameters: hasQuery ? query.multi : null,
    pathParameters: input.pathParameters,
    stageVariables: input.stageVariables,
    requestContext: {
      resourceId: c.resourceId,
      resourcePath: input.resource,
      httpMethod: input.httpMethod,
      extendedRequestId: c.extendedRequestId,
      requestTime: requestTime(c.requestTimeEpoch),
      path: c.path,
      accountId: '123456789012',
      protocol: 'HTTP/1.1',
      stage: c.stage,
      domainPrefix: c.domainName.split('.')[0].split(':')[0],
      requestTimeEpoch: c.requestTimeEpoch,
      requestId: c.requestId,
      identity,
      ...(c.authorizer !== undefined ? { authorizer: c.authorizer } : {}),
      domainName: c.domainName,
      deploymentId: 'local',
      apiId: c.apiId,
    },
    body: input.body,
    isBase64Encoded: input.isBase64Encoded,
  };
}

/**
 * Names the function receives in the gateway's casing whatever the client sent; every other name
 * arrives as sent (recorded on API Gateway: `authorization` and `user-Agent` arrive as
 * `Authorization` and `User-Agent`, `tEsT-HEADeR` as it is, an HTTP/2 `host` as `Host`).
 */
function canonicalName(lower: string, name: string): string {
  switch (lower) {
    case 'authorization': return 'Authorization';
    case 'host': return 'Host';
    case 'user-agent': return 'User-Agent';
    default: return name;
  }
}

interface EventHeaders {
  readonly headers: Record<string, string> | null;
  readonly multiValueHeaders: Record<string, string[]> | null;
  readonly userAgent: string | null;
}

/** `headers` and `multiValueHeaders` (null when there are none), in the order received. */
function eventHeaders(input: EventInput): EventHeaders {
  const headers: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let any = false;
  const add = (name: string, value: string): void => {
    any = true;
    appendValue(headers, multi, name, value);
  };
  let userAgent: string | null = null;
  let forwardedFor: string | undefined;
  const raw = input.headers;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    const lower = name.toLowerCase();
    if (lower === 'user-agent') {
      userAgent = raw[i + 1];
    }
    if (LAMBDA_REQUEST_DROPPED.has(lower) || (lower === 'authorization' && dropsAuthorization(input, raw[i + 1]))) {
      continue;
    }
    if (input.forward !== undefined && FORWARDING_HEADERS.has(lower)) {
      if (lower === 'x-forwarded-for') {
        forwardedFor = raw[i + 1];
      }
      continue;
    }
    add(canonicalName(lower, name), raw[i + 1]);
  }
  if (input.forward !== undefined) {
    add('X-Amzn-Trace-Id', input.forward.traceId);
    add('X-Forwarded-For', forwardedFor ? `${forwardedFor}, ${input.forward.sourceIp}` : input.forward.sourceIp);
    add('X-Forwarded-Port', String(input.forward.port));
    add('X-Forwarded-Proto', 'http');
  }
  return any ? { headers, multiValueHeaders: multi, userAgent } : { headers: null, multiValueHeaders: null, userAgent };
}

/** `Authorization` is dropped when it carries a SigV4 signature or the method uses AWS_IAM (same notes, footnote of the table). */
function dropsAuthorization(input: EventInput, value: string): boolean {
  return input.iamMethod === true || value.startsWith('AWS4-');
}
