/**
 * The REST API (payload 1.0) Lambda proxy event.
 *
 * The gateway sends the worker a small {@link EventInput} (cheap to pass between threads) and the
 * worker builds the event with {@link buildEvent}, so the main thread never serializes the event.
 * `buildEvent` is self-contained (it uses nothing outside its own body), because the worker gets
 * its source text (`buildEvent.toString()`).
 */

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
  };
}

/** Builds the event a Lambda proxy integration passes to the function. Self-contained: see above. */
export function buildEvent(input: EventInput): Record<string, unknown> {
  const decode = (text: string): string => {
    if (text.indexOf('%') < 0) {
      return text;
    }
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  let headers: Record<string, string> | null = null;
  let multiValueHeaders: Record<string, string[]> | null = null;
  const addHeader = (name: string, value: string): void => {
    if (headers === null || multiValueHeaders === null) {
      headers = {};
      multiValueHeaders = {};
    }
    headers[name] = value;
    const list = multiValueHeaders[name];
    if (list === undefined) {
      multiValueHeaders[name] = [value];
    } else {
      list.push(value);
    }
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
    if (input.forward !== undefined && (lower === 'x-forwarded-for' || lower === 'x-forwarded-port' || lower === 'x-forwarded-proto' || lower === 'x-amzn-trace-id')) {
      if (lower === 'x-forwarded-for') {
        forwardedFor = raw[i + 1];
      }
      continue;
    }
    addHeader(name, raw[i + 1]);
  }
  if (input.forward !== undefined) {
    addHeader('X-Amzn-Trace-Id', input.forward.traceId);
    addHeader('X-Forwarded-For', forwardedFor ? `${forwardedFor}, ${input.forward.sourceIp}` : input.forward.sourceIp);
    addHeader('X-Forwarded-Port', String(input.forward.port));
    addHeader('X-Forwarded-Proto', 'http');
  }

  let query: Record<string, string> | null = null;
  let multiQuery: Record<string, string[]> | null = null;
  if (input.query !== '') {
    for (const part of input.query.split('&')) {
      if (part === '') {
        continue;
      }
      const eq = part.indexOf('=');
      const name = decode(eq < 0 ? part : part.slice(0, eq));
      const value = decode(eq < 0 ? '' : part.slice(eq + 1));
      query ??= {};
      multiQuery ??= {};
      query[name] = value;
      (multiQuery[name] ??= []).push(value);
    }
  }

  const c = input.context;
  const d = new Date(c.requestTimeEpoch);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  const requestTime = `${two(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
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
    queryStringParameters: query,
    multiValueQueryStringParameters: multiQuery,
    pathParameters: input.pathParameters,
    stageVariables: input.stageVariables,
    requestContext: {
      resourceId: c.resourceId,
      resourcePath: input.resource,
      httpMethod: input.httpMethod,
      extendedRequestId: c.extendedRequestId,
      requestTime,
      path: c.path,
      accountId: '123456789012',
      protocol: 'HTTP/1.1',
      stage: c.stage,
      domainPrefix: c.domainName.split('.')[0].split(':')[0],
      requestTimeEpoch: c.requestTimeEpoch,
      requestId: c.requestId,
      identity,
      domainName: c.domainName,
      deploymentId: 'local',
      apiId: c.apiId,
    },
    body: input.body,
    isBase64Encoded: input.isBase64Encoded,
  };
}
