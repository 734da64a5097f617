/**
 * One REST API's request pipeline, as API Gateway runs it: stage, route, authorization,
 * integration (Lambda proxy or MOCK), response mapping and the gateway's own error responses.
 * The HTTP server and `test-invoke` both drive it; neither knows these rules.
 */
import { buildEvent, EventInput } from './event';
import { apigwId, requestId as newRequestId, traceId as newTraceId } from './ids';
import { InvokeOutcome, Invoker } from './invoker';
import { runMock } from './mock';
import { ApiSpec, FunctionSpec, MethodSpec } from './model';
import { isBinaryType, parseProxyResult } from './proxy-response';
import { pathSegments, route, safeDecode } from './router';
import { SigV4Credentials, verifySigV4 } from './sigv4';

/** API Gateway's payload limit. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The stage name the console's TEST uses. */
export const TEST_INVOKE_STAGE = 'test-invoke-stage';

/** A request as received. */
export interface GatewayRequest {
  readonly method: string;
  /** Path with query string as received (still percent-encoded), e.g. `/prod/items?limit=5`. */
  readonly target: string;
  /** Headers in the order received, names as sent. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  readonly sourceIp: string;
  /** Local port, for `X-Forwarded-Port`. */
  readonly port?: number;
}

/** The answer, plus what the terminal log shows. */
export interface GatewayResponse {
  readonly statusCode: number;
  readonly headers: Array<[string, string]>;
  /** Text (UTF-8) or bytes. */
  readonly body: string | Buffer;
  readonly requestId: string;
  /** Matched resource path, when one matched. */
  readonly resourcePath?: string;
}

export interface GatewayOptions {
  readonly invoker: Invoker;
  readonly functions: ReadonlyMap<string, FunctionSpec>;
  /** Accepted SigV4 key pair for IAM-authorized methods. */
  readonly credentials?: SigV4Credentials;
  /** Let unsigned requests reach IAM-authorized methods as a guest (an unauthenticated identity). */
  readonly allowUnsigned?: boolean;
  /** Gateway notes for the terminal (why a request was refused). */
  readonly note?: (requestId: string, text: string) => void;
  /**
   * The console's TEST: the path has no stage, the stage is `test-invoke-stage`, authorization is
   * not checked (the console call is itself authorized) and no forwarding headers are added.
   */
  readonly testInvoke?: boolean;
}

/** The console's execution log. */
export class ExecutionLog {
  public readonly lines: string[] = [];

  add(text: string): void {
    this.lines.push(`${consoleDate(new Date())} : ${text}`);
  }
}

/** Header names whose values the execution log masks. */
const MASKED = new Set(['authorization', 'x-amz-security-token']);

/** A header value as the execution log shows a secret: all but its last 4 characters hidden. */
export function mask(value: string): string {
  return value.length <= 8 ? '*'.repeat(value.length) : `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
}

export class LocalGateway {
  constructor(public readonly api: ApiSpec, private readonly options: GatewayOptions) {}

  async handle(request: GatewayRequest, log?: ExecutionLog): Promise<GatewayResponse> {
    const ids = { requestId: newRequestId(), apigwId: apigwId(), traceId: newTraceId() };
    const started = Date.now();
    const question = request.target.indexOf('?');
    const rawPath = question < 0 ? request.target : request.target.slice(0, question);
    const rawQuery = question < 0 ? '' : request.target.slice(question + 1);

    let stage: string;
    let below: string;
    if (this.options.testInvoke) {
      stage = TEST_INVOKE_STAGE;
      below = rawPath === '' ? '/' : rawPath;
    } else {
      const m = /^\/([^/]+)(\/.*)?$/.exec(rawPath);
      if (!m || !this.api.stages.includes(m[1])) {
        return this.error(ids, 'MISSING_AUTHENTICATION_TOKEN', 403, 'Missing Authentication Token', 'MissingAuthenticationTokenException');
      }
      stage = m[1];
      below = m[2] ?? '/';
    }
    if (request.body.length > MAX_BODY_BYTES) {
      return tooLarge(ids.requestId);
    }
    const segments = pathSegments(below);
    const match = route(this.api.root, request.method, segments);
    if (match === undefined) {
      log?.add(`Execution failed: no resource and method match ${request.method} ${below}`);
      return this.error(ids, 'MISSING_AUTHENTICATION_TOKEN', 403, 'Missing Authentication Token', 'MissingAuthenticationTokenException');
    }
    const { resource, method, pathParameters } = match;
    const headers = new Headers(request.rawHeaders);

    log?.add(`Starting execution for request: ${ids.requestId}`);
    log?.add(`HTTP Method: ${request.method.toUpperCase()}, Resource Path: ${resource.path}`);
    log?.add(`Method request path: ${javaMap(pathParameters)}`);
    log?.add(`Method request query string: ${javaMap(parseQuery(rawQuery).single)}`);
    log?.add(`Method request headers: ${javaMap(Object.fromEntries(request.rawHeaders.map(([n, v]) => [n, MASKED.has(n.toLowerCase()) ? mask(v) : v])))}`);
    log?.add(`Method request body before transformations: ${request.body.toString('utf8')}`);

    // Authorization.
    let identity: Record<string, string | null> = {};
    if (!this.options.testInvoke) {
      const refused = this.authorize(request, method, headers, ids);
      if ('statusCode' in refused) {
        return refused;
      }
      identity = refused.identity;
    }
    if (method.apiKeyRequired && !this.options.testInvoke && !headers.get('x-api-key')) {
      return this.error(ids, 'INVALID_API_KEY', 403, 'Forbidden', 'ForbiddenException');
    }

    const integration = method.integration;
    if (integration.type === 'MOCK') {
      const result = runMock(integration.requestTemplates, integration.integrationResponses, {
        header: (name) => headers.get(name),
        query: parseQuery(rawQuery).single,
        pathParameters,
        contentType: headers.get('content-type'),
      });
      if (result === undefined) {
        log?.add('Execution failed due to configuration error: No match for output mapping and no default output mapping was specified for integration response');
        log?.add('Method completed with status: 500');
        return this.error(ids, 'API_CONFIGURATION_ERROR', 500, 'Internal server error', 'InternalServerErrorException');
      }
      const out: Array<[string, string]> = [['Content-Type', 'application/json'], ...result.headers];
      out.push(['x-amzn-RequestId', ids.requestId], ['x-amz-apigw-id', ids.apigwId]);
      log?.add(`Method response body after transformations: ${result.body}`);
      log?.add(`Method response headers: ${javaMap(Object.fromEntries(out))}`);
      log?.add('Successfully completed execution');
      log?.add(`Method completed with status: ${result.statusCode}`);
      return { statusCode: result.statusCode, headers: dedupe(out), body: result.body, requestId: ids.requestId, resourcePath: resource.path };
    }
    if (integration.type === 'UNSUPPORTED') {
      this.options.note?.(ids.requestId, `${method.httpMethod} ${resource.path}: ${integration.description} is not served locally`);
      log?.add(`Execution failed due to configuration error: ${integration.description} is not served locally`);
      log?.add('Method completed with status: 500');
      return this.error(ids, 'API_CONFIGURATION_ERROR', 500, 'Internal server error', 'InternalServerErrorException');
    }

    // Lambda proxy.
    const fn = this.options.functions.get(integration.functionKey)!;
    const binaryRequest = request.body.length > 0 && isBinaryType(headers.get('content-type'), this.api.binaryMediaTypes);
    const flatHeaders: string[] = [];
    for (const [name, value] of request.rawHeaders) {
      flatHeaders.push(name, value);
    }
    const eventInput: EventInput = {
      resource: resource.path,
      path: segments.length === 0 ? '/' : `/${segments.join('/')}`,
      httpMethod: request.method.toUpperCase(),
      headers: flatHeaders,
      query: rawQuery,
      pathParameters: Object.keys(pathParameters).length === 0 ? null : pathParameters,
      stageVariables: nonEmpty(this.api.stageVariables[stage]),
      body: request.body.length === 0 ? null : request.body.toString(binaryRequest ? 'base64' : 'utf8'),
      isBase64Encoded: binaryRequest,
      forward: this.options.testInvoke ? undefined : { traceId: ids.traceId, sourceIp: request.sourceIp, port: request.port ?? 80 },
      context: {
        resourceId: resource.resourceId,
        stage,
        path: this.options.testInvoke ? below : `/${stage}${below}`,
        requestId: ids.requestId,
        extendedRequestId: ids.apigwId,
        requestTimeEpoch: started,
        sourceIp: request.sourceIp,
        domainName: headers.get('host') ?? `127.0.0.1${request.port ? `:${request.port}` : ''}`,
        apiId: this.api.apiId,
        identity: Object.keys(identity).length === 0 ? null : identity,
      },
    };
    if (log) {
      const event = buildEvent(eventInput);
      const functionArn = `arn:aws:lambda:${fn.region}:123456789012:function:${fn.functionName}`;
      log.add(`Endpoint request URI: https://lambda.${fn.region}.amazonaws.com/2015-03-31/functions/${functionArn}/invocations`);
      log.add(`Endpoint request headers: ${javaMap({
        'x-amzn-lambda-integration-tag': ids.requestId,
        'Authorization': mask(`AWS4-HMAC-SHA256 Credential=ASIAXXXXXXXXXXXXXXXX/${yyyymmdd()}/${fn.region}/lambda/aws4_request, SignedHeaders=accept;host;x-amz-date;x-amz-security-token, Signature=${'0'.repeat(60)}${ids.requestId.slice(0, 4)}`),
        'X-Amz-Date': formatAmzDate(),
        'x-amzn-apigateway-api-id': this.api.apiId,
        'Accept': 'application/json',
        'User-Agent': 'AmazonAPIGateway_' + this.api.apiId,
        'X-Amz-Security-Token': mask(`IQoJb3JpZ2luX2VjEXAMPLE${ids.apigwId}`),
        'Content-Type': 'application/json',
      })}`);
      log.add(`Endpoint request body after transformations: ${maskEvent(event)}`);
      log.add(`Sending request to https://lambda.${fn.region}.amazonaws.com/2015-03-31/functions/${functionArn}/invocations`);
    }
    const invokeStarted = Date.now();
    const outcome = await this.invokeWithTimeout(fn, integration.timeoutMs, eventInput, ids.requestId);
    const integrationLatency = Date.now() - invokeStarted;

    if (outcome.kind === 'integration-timeout') {
      log?.add('Execution failed due to a timeout error');
      log?.add('Method completed with status: 504');
      this.options.note?.(ids.requestId, `${fn.functionName} did not answer within the integration timeout (${integration.timeoutMs} ms)`);
      return this.error(ids, 'INTEGRATION_TIMEOUT', 504, 'Endpoint request timed out', undefined);
    }
    if (outcome.kind !== 'ok') {
      const reason = failureReason(outcome);
      this.options.note?.(ids.requestId, `${fn.functionName}: ${reason}`);
      log?.add(`Received response. Status: 200, Integration latency: ${integrationLatency} ms`);
      log?.add(`Endpoint response body before transformations: ${outcome.kind === 'error' ? JSON.stringify({ errorType: outcome.errorType, errorMessage: outcome.errorMessage, trace: outcome.trace }) : ''}`);
      log?.add(`Lambda execution failed with status 200 due to customer function error: ${reason}. Lambda request id: ${ids.requestId}`);
      log?.add('Method completed with status: 502');
      return this.error(ids, 'DEFAULT_5XX', 502, 'Internal server error', 'InternalServerErrorException');
    }
    log?.add(`Received response. Status: 200, Integration latency: ${integrationLatency} ms`);
    log?.add(`Endpoint response body before transformations: ${outcome.payload ?? 'null'}`);
    const parsed = parseProxyResult(outcome.payload);
    if (!parsed.ok) {
      this.options.note?.(ids.requestId, `${fn.functionName}: malformed Lambda proxy response: ${parsed.reason}`);
      log?.add(`Execution failed due to configuration error: Malformed Lambda proxy response (${parsed.reason})`);
      log?.add('Method completed with status: 502');
      return this.error(ids, 'DEFAULT_5XX', 502, 'Internal server error', 'InternalServerErrorException');
    }
    const out = parsed.headers;
    if (!out.some(([n]) => n.toLowerCase() === 'content-type')) {
      out.push(['Content-Type', 'application/json']);
    }
    out.push(['x-amzn-RequestId', ids.requestId], ['x-amz-apigw-id', ids.apigwId], ['X-Amzn-Trace-Id', ids.traceId]);
    const binaryResponse = parsed.isBase64Encoded && isBinaryType(headers.get('accept'), this.api.binaryMediaTypes);
    const body = binaryResponse ? Buffer.from(parsed.body, 'base64') : parsed.body;
    log?.add(`Method response body after transformations: ${binaryResponse ? `[Binary Data] (${body.length} bytes)` : parsed.body}`);
    log?.add(`Method response headers: ${javaMap(Object.fromEntries(out))}`);
    log?.add('Successfully completed execution');
    log?.add(`Method completed with status: ${parsed.statusCode}`);
    return { statusCode: parsed.statusCode, headers: out, body, requestId: ids.requestId, resourcePath: resource.path };
  }

  private authorize(
    request: GatewayRequest, method: MethodSpec, headers: Headers, ids: Ids,
  ): GatewayResponse | { identity: Record<string, string | null> } {
    const authorization = headers.get('authorization');
    switch (method.authorizationType) {
      case 'AWS_IAM': {
        if (authorization === undefined || authorization.trim() === '') {
          if (this.options.allowUnsigned) {
            return { identity: { cognitoAuthenticationType: 'unauthenticated', caller: 'AROALOCALGUEST:CognitoIdentityCredentials', user: 'AROALOCALGUEST:CognitoIdentityCredentials' } };
          }
          this.options.note?.(ids.requestId, `${method.httpMethod} requires IAM authorization and the request is not signed (start with --allow-unsigned to let guests in)`);
          return this.error(ids, 'MISSING_AUTHENTICATION_TOKEN', 403, 'Missing Authentication Token', 'MissingAuthenticationTokenException');
        }
        if (this.options.credentials === undefined) {
          this.options.note?.(ids.requestId, 'signed request, but the server has no credentials to verify it with (start with --credentials KEY:SECRET)');
          return this.error(ids, 'UNAUTHORIZED', 403, 'The security token included in the request is invalid.', 'UnrecognizedClientException');
        }
        const result = verifySigV4({
          method: request.method,
          path: request.target,
          headers: nodeHeaders(request.rawHeaders),
          body: request.body,
        }, this.options.credentials);
        if (!result.ok) {
          this.options.note?.(ids.requestId, `SigV4 verification failed: ${result.reason}`);
          const [type, message, errorType] = signatureError(result.reason, headers.get('x-amz-date'));
          return this.error(ids, type, 403, message, errorType);
        }
        const key = this.options.credentials.accessKeyId;
        return { identity: { accountId: '123456789012', accessKey: key, caller: key, user: key, userArn: 'arn:aws:iam::123456789012:user/local' } };
      }
      case 'COGNITO_USER_POOLS':
      case 'CUSTOM':
        if (authorization === undefined || authorization.trim() === '') {
          return this.error(ids, 'UNAUTHORIZED', 401, 'Unauthorized', 'UnauthorizedException');
        }
        return { identity: {} };
      default:
        return { identity: {} };
    }
  }

  private invokeWithTimeout(fn: FunctionSpec, timeoutMs: number, event: EventInput, requestId: string): Promise<InvokeOutcome | { kind: 'integration-timeout' }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ kind: 'integration-timeout' }), timeoutMs);
      void this.options.invoker.invoke(fn.key, event, { awsRequestId: requestId }).then((outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }

  /** A gateway error response, with the API's `AWS::ApiGateway::GatewayResponse` applied. */
  private error(ids: Ids, type: string, status: number, message: string, errorType: string | undefined): GatewayResponse {
    const fallback = status >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX';
    const responses = this.api.gatewayResponses;
    const custom = responses.find((r) => r.responseType === type) ?? responses.find((r) => r.responseType === fallback);
    const headers: Array<[string, string]> = [
      ['Content-Type', 'application/json'],
      ['x-amzn-RequestId', ids.requestId],
    ];
    if (errorType !== undefined) {
      headers.push(['x-amzn-ErrorType', errorType]);
    }
    headers.push(['x-amz-apigw-id', ids.apigwId]);
    for (const [name, value] of Object.entries(custom?.headers ?? {})) {
      headers.push([name, value]);
    }
    return {
      statusCode: custom?.statusCode ?? status,
      headers: dedupe(headers),
      body: JSON.stringify({ message }),
      requestId: ids.requestId,
    };
  }
}

interface Ids {
  readonly requestId: string;
  readonly apigwId: string;
  readonly traceId: string;
}

/** The 413 of the front door (not a gateway response; plain text, as the cloud answers it). */
export function tooLarge(requestId: string): GatewayResponse {
  return {
    statusCode: 413,
    headers: [['Content-Type', 'text/plain']],
    body: `HTTP content length exceeded ${MAX_BODY_BYTES} bytes.`,
    requestId,
  };
}

function failureReason(outcome: InvokeOutcome): string {
  switch (outcome.kind) {
    case 'error':
      return `${outcome.errorType}: ${outcome.errorMessage}`;
    case 'crash':
      return `Runtime.ExitError: ${outcome.errorMessage}`;
    case 'timeout':
      return `Task timed out after ${outcome.seconds.toFixed(2)} seconds`;
    case 'unsupported':
      return `cannot run locally: ${outcome.reason}`;
    default:
      return 'unknown failure';
  }
}

/** The gateway's answer to a failed signature check: [gateway response type, message, x-amzn-ErrorType]. */
function signatureError(reason: string, amzDate: string | undefined): [string, string, string] {
  if (reason.startsWith('unknown access key')) {
    return ['UNAUTHORIZED', 'The security token included in the request is invalid.', 'UnrecognizedClientException'];
  }
  if (reason.startsWith('signature expired')) {
    return ['INVALID_SIGNATURE', `Signature expired: ${amzDate?.trim() ?? ''} is now earlier than ${amzDateMinus(5)} (${formatAmzDate()} - 5 min.)`, 'InvalidSignatureException'];
  }
  if (reason.startsWith('malformed') || reason.startsWith('Authorization header uses') || reason.startsWith('missing X-Amz-Date')) {
    return ['MISSING_AUTHENTICATION_TOKEN', 'Authorization header requires \'Credential\' parameter. Authorization header requires \'Signature\' parameter. Authorization header requires \'SignedHeaders\' parameter. Authorization header requires existence of either a \'X-Amz-Date\' or a \'Date\' header.', 'IncompleteSignatureException'];
  }
  return ['INVALID_SIGNATURE', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.', 'InvalidSignatureException'];
}

/** Case-insensitive header lookup over raw headers (the last value of a repeated header). */
class Headers {
  private readonly map = new Map<string, string>();

  constructor(raw: ReadonlyArray<readonly [string, string]>) {
    for (const [name, value] of raw) {
      this.map.set(name.toLowerCase(), value);
    }
  }

  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase());
  }
}

function nodeHeaders(raw: ReadonlyArray<readonly [string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of raw) {
    const lower = name.toLowerCase();
    const existing = out[lower];
    out[lower] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/** Query parameters, decoded; the single-value map keeps the last value, as API Gateway does. */
export function parseQuery(raw: string): { single: Record<string, string>; multi: Record<string, string[]>; count: number } {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let count = 0;
  for (const part of raw.split('&')) {
    if (part === '') {
      continue;
    }
    const eq = part.indexOf('=');
    const name = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const value = safeDecode(eq < 0 ? '' : part.slice(eq + 1));
    single[name] = value;
    (multi[name] ??= []).push(value);
    count++;
  }
  return { single, multi, count };
}


function nonEmpty(record: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | null {
  return record === undefined || Object.keys(record).length === 0 ? null : record;
}

function dedupe(headers: Array<[string, string]>): Array<[string, string]> {
  const seen = new Map<string, number>();
  const out: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const i = seen.get(name.toLowerCase());
    if (i === undefined) {
      seen.set(name.toLowerCase(), out.length);
      out.push([name, value]);
    } else {
      out[i] = [out[i][0], value];
    }
  }
  return out;
}

/** `{a=1, b=2}`, as the console prints maps. */
function javaMap(record: Record<string, string>): string {
  return `{${Object.entries(record).map(([k, v]) => `${k}=${v}`).join(', ')}}`;
}

function maskEvent(event: Record<string, any>): string {
  const copy = { ...event };
  const maskValue = (k: string, v: any) => (MASKED.has(k.toLowerCase()) ? (Array.isArray(v) ? v.map(mask) : mask(String(v))) : v);
  const maskRecord = (r: Record<string, any> | null) => r && Object.fromEntries(Object.entries(r).map(([k, v]) => [k, maskValue(k, v)]));
  copy.headers = maskRecord(event.headers);
  copy.multiValueHeaders = maskRecord(event.multiValueHeaders);
  return JSON.stringify(copy);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** `Sat Nov 22 03:10:00 UTC 2026`, the console log's timestamp. */
function consoleDate(d: Date): string {
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

function formatAmzDate(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function amzDateMinus(minutes: number): string {
  return formatAmzDate(new Date(Date.now() - minutes * 60_000));
}

function yyyymmdd(): string {
  return formatAmzDate().slice(0, 8);
}
