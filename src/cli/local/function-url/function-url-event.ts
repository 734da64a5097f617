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
import { ownGet } from '../common/own-record';
import { payloadV2Headers, payloadV2Query } from '../http/payload-v2-parts';
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
  // The service's X-Forwarded-For names the client alone (not checked against the service).
  const { headers, cookies } = payloadV2Headers(request, routed.traceId, false);
  const query = payloadV2Query(rawQueryString);
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

