/**
 * The event a function URL sends its function ("Invoking Lambda function URLs", request payload):
 * payload format 2.0 with the fields API Gateway features would fill set to sentinels (`routeKey`
 * and `stage` `$default`, no path parameters or stage variables), `requestContext.domainName`
 * `<url-id>.lambda-url.<region>.on.aws`, `accountId` `anonymous` for `NONE` and the caller's
 * `authorizer.iam` for `AWS_IAM`. Header names lower-cased, repeats joined with commas, `Cookie`
 * headers as `cookies`.
 */
import type { ApiRequest } from '../api-kind/api-kind';
import { requestTime } from '../common/dates';
import { ownGet, ownSet } from '../common/own-record';
import { parseQuery } from '../common/query-string';
import { isTextBody } from '../http/routed-request';
import type { FunctionUrlSpec } from '../model/function-url';

/** The caller of an `AWS_IAM` URL, as `requestContext.authorizer.iam` shows it. */
export interface UrlIamCaller {
  readonly accessKey: string;
  readonly accountId: string;
  readonly callerId: string;
  readonly cognitoIdentity: null;
  readonly principalOrgId: null;
  readonly userArn: string;
  readonly userId: string;
}

export interface UrlRequest {
  readonly url: FunctionUrlSpec;
  readonly request: ApiRequest;
  readonly requestId: string;
  readonly receivedAt: number;
  readonly traceId: string;
  readonly iam?: UrlIamCaller;
}

export function functionUrlEvent(routed: UrlRequest): Record<string, unknown> {
  const { url, request } = routed;
  const [rawPath, rawQueryString = ''] = splitTarget(request.target);
  const { headers, cookies } = eventHeaders(routed);
  const query = queryParameters(rawQueryString);
  const domainName = `${url.urlId}.lambda-url.${url.region}.on.aws`;
  const text = isTextBody(ownGet(headers, 'content-type'));
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(query !== undefined ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: routed.iam?.accountId ?? 'anonymous',
      apiId: url.urlId,
      ...(routed.iam !== undefined ? { authorizer: { iam: routed.iam } } : {}),
      domainName,
      domainPrefix: url.urlId,
      http: {
        method: request.method.toUpperCase(),
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: ownGet(headers, 'user-agent') ?? '',
      },
      requestId: routed.requestId,
      routeKey: '$default',
      stage: '$default',
      time: requestTime(routed.receivedAt),
      timeEpoch: routed.receivedAt,
    },
    ...(request.body.length > 0 ? { body: request.body.toString(text ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: request.body.length > 0 && !text,
  };
}

function splitTarget(target: string): [string, string?] {
  const q = target.indexOf('?');
  return q < 0 ? [target] : [target.slice(0, q), target.slice(q + 1)];
}

function eventHeaders(routed: UrlRequest): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const add = (name: string, value: string) => {
    const before = ownGet(headers, name);
    ownSet(headers, name, before === undefined ? value : `${before},${value}`);
  };
  for (const [name, value] of routed.request.rawHeaders) {
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      cookies.push(...value.split(';').map((c) => c.trim()).filter((c) => c !== ''));
    } else if (!FRONT_DOOR.has(lower)) {
      add(lower, value);
    }
  }
  add('x-amzn-trace-id', routed.traceId);
  add('x-forwarded-for', routed.request.sourceIp);
  add('x-forwarded-port', String(routed.request.port ?? 80));
  add('x-forwarded-proto', 'http');
  return { headers, cookies };
}

/** Headers the service sets itself on the way in. */
const FRONT_DOOR = new Set(['x-amzn-trace-id', 'x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto']);

function queryParameters(raw: string): Record<string, string> | undefined {
  const parsed = parseQuery(raw);
  if (parsed.count === 0) {
    return undefined;
  }
  const joined: Record<string, string> = {};
  for (const [name, values] of Object.entries(parsed.multi)) {
    ownSet(joined, name, values.join(','));
  }
  return joined;
}
