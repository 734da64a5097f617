/**
 * The Lambda proxy events of WebSocket APIs, in the shape API Gateway sends them (recorded `$connect`
 * event in the README's sources): `$connect` with the handshake's headers and query string,
 * messages with their body, `$disconnect` with the close code and reason. Every event names the
 * connection, the stage, the route and the gateway's ids; `requestContext.authorizer` is what the
 * `$connect` authorizer answered.
 */
import type { WebSocketConnection } from './connection';
import { requestTime } from '../common/dates';
import { apigwId } from '../common/ids';
import { appendValue } from '../common/own-record';

/** What every event's `requestContext` says of the connection and the API. */
export interface EventSource {
  readonly apiId: string;
  readonly connection: Pick<WebSocketConnection, 'connectionId' | 'stage' | 'connectedAt' | 'sourceIp' | 'userAgent' | 'domainName' | 'authorizer' | 'iamIdentity'>;
}

/** The handshake request as `$connect` sees it. */
export interface Handshake {
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>;
  /** The raw query string (without `?`). */
  readonly rawQuery: string;
}

export function connectEvent(source: EventSource, handshake: Handshake, now = Date.now()): Record<string, unknown> {
  const query = queryParameters(handshake.rawQuery);
  const headers = headerValues(handshake.rawHeaders);
  return {
    headers: headers.single,
    multiValueHeaders: headers.multi,
    ...(query.single === undefined ? {} : { queryStringParameters: query.single, multiValueQueryStringParameters: query.multi }),
    requestContext: {
      ...requestContext(source, '$connect', 'CONNECT', now),
      messageId: null,
      disconnectStatusCode: null,
      disconnectReason: null,
      identity: fullIdentity(source),
    },
    isBase64Encoded: false,
  };
}

export function messageEvent(source: EventSource, routeKey: string, body: string, now = Date.now()): Record<string, unknown> {
  return {
    requestContext: {
      ...requestContext(source, routeKey, 'MESSAGE', now),
      messageId: apigwId(),
      identity: { sourceIp: source.connection.sourceIp, userAgent: source.connection.userAgent },
    },
    body,
    isBase64Encoded: false,
  };
}

export function disconnectEvent(source: EventSource, statusCode: number, reason: string, now = Date.now()): Record<string, unknown> {
  const host = source.connection.domainName;
  return {
    headers: { Host: host },
    multiValueHeaders: { Host: [host] },
    requestContext: {
      ...requestContext(source, '$disconnect', 'DISCONNECT', now),
      disconnectStatusCode: statusCode,
      disconnectReason: reason,
      identity: fullIdentity(source),
    },
    isBase64Encoded: false,
  };
}

function requestContext(source: EventSource, routeKey: string, eventType: string, now: number): Record<string, unknown> {
  const { connection } = source;
  const id = apigwId();
  return {
    routeKey,
    eventType,
    extendedRequestId: id,
    requestTime: requestTime(now),
    messageDirection: 'IN',
    stage: connection.stage,
    connectedAt: connection.connectedAt,
    requestTimeEpoch: now,
    ...(connection.authorizer === undefined ? {} : { authorizer: connection.authorizer }),
    requestId: id,
    domainName: connection.domainName,
    connectionId: connection.connectionId,
    apiId: source.apiId,
  };
}

function fullIdentity(source: EventSource): Record<string, unknown> {
  return {
    cognitoIdentityPoolId: null,
    cognitoIdentityId: null,
    principalOrgId: null,
    cognitoAuthenticationType: null,
    userArn: null,
    userAgent: source.connection.userAgent,
    accountId: null,
    caller: null,
    sourceIp: source.connection.sourceIp,
    accessKey: null,
    cognitoAuthenticationProvider: null,
    user: null,
    ...source.connection.iamIdentity,
  };
}

/** Headers by name as sent: `headers` (the last value of a repeated one) and `multiValueHeaders`. */
function headerValues(rawHeaders: ReadonlyArray<readonly [string, string]>): { single: Record<string, string>; multi: Record<string, string[]> } {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of rawHeaders) {
    appendValue(single, multi, name, value);
  }
  return { single, multi };
}

/** `queryStringParameters` (last value) and `multiValueQueryStringParameters`; none when the query is empty. */
export function queryParameters(rawQuery: string): { single?: Record<string, string>; multi?: Record<string, string[]> } {
  if (rawQuery === '') {
    return {};
  }
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    appendValue(single, multi, name, value);
  }
  return { single, multi };
}
