/**
 * The `@connections` management API on the WebSocket API's own port, as the SDK's
 * ApiGatewayManagementApiClient calls it (`POST` data to a connection, `GET` its info, `DELETE` to
 * close it; the SDK sends the `@` as `%40`): a SigV4 signature for `execute-api` checked by the
 * verifier of IAM routes (unsigned: only with `--allow-unsigned`); `410 GoneException` for a
 * connection that is not open (never was, closed, or still in its `$connect`); `413
 * PayloadTooLargeException` for data over the message quota.
 */
import type { ConnectionRegistry, WebSocketConnection } from './connection';
import type { ApiRequest, ApiResponse, HandlerContext } from '../api-kind/api-kind';
import { isSigned, signedRequestOf } from '../auth/sigv4';
import { apigwId } from '../common/ids';

const CONNECTIONS_PATH = /^\/([^/]+)\/(?:@|%40)connections\/([^/?]+)\/?$/i;

/** The stage and connection id of a management request; undefined when the path is not `/<stage>/@connections/<id>`. */
export function managementTarget(target: string): { stage: string; connectionId: string } | undefined {
  const path = target.split('?')[0];
  const match = CONNECTIONS_PATH.exec(path);
  return match === null ? undefined : { stage: decodeURIComponent(match[1]), connectionId: decodeURIComponent(match[2]) };
}

export interface ManagementContext {
  /** The API whose port the call came to: only its connections are reached. */
  readonly apiKey: string;
  readonly connections: ConnectionRegistry;
  readonly handler: HandlerContext;
  readonly maxMessageBytes: number;
  /** Sends `data` to the connection (the gateway counts it as activity). */
  readonly send: (connection: WebSocketConnection, data: string) => void;
  /** Closes the connection as the service does on DELETE. */
  readonly close: (connection: WebSocketConnection) => void;
}

export async function answerManagement(
  request: ApiRequest, target: { stage: string; connectionId: string }, context: ManagementContext,
): Promise<ApiResponse> {
  const requestId = apigwId();
  const refused = await checkSignature(request, context.handler, requestId);
  if (refused !== undefined) {
    return refused;
  }
  const connection = context.connections.get(target.connectionId);
  if (connection === undefined || connection.apiKey !== context.apiKey || connection.stage !== target.stage) {
    context.handler.note(requestId, `@connections ${request.method} ${target.connectionId}: no open connection with that id on stage ${target.stage}; answered 410`);
    return error(410, 'GoneException', requestId);
  }
  switch (request.method.toUpperCase()) {
    case 'POST':
      if (request.body.length > context.maxMessageBytes) {
        return error(413, 'PayloadTooLargeException', requestId, `Message payload exceeds the ${context.maxMessageBytes} bytes quota`);
      }
      context.send(connection, request.body.toString('utf8'));
      return { statusCode: 200, headers: [['x-amzn-RequestId', requestId], ['Content-Type', 'application/json']], body: '', requestId };
    case 'GET':
      return {
        statusCode: 200,
        headers: [['x-amzn-RequestId', requestId], ['Content-Type', 'application/json']],
        body: JSON.stringify({
          connectedAt: new Date(connection.connectedAt).toISOString(),
          identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
          lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
        }),
        requestId,
      };
    case 'DELETE':
      context.close(connection);
      return { statusCode: 204, headers: [['x-amzn-RequestId', requestId]], body: '', requestId };
    default:
      return error(403, 'ForbiddenException', requestId, 'Forbidden');
  }
}

async function checkSignature(request: ApiRequest, context: HandlerContext, requestId: string): Promise<ApiResponse | undefined> {
  const signedRequest = signedRequestOf(request);
  if (!isSigned(signedRequest)) {
    if (context.allowUnsigned) {
      return undefined;
    }
    context.note(requestId, '@connections: the request is not signed (start with --allow-unsigned to let unsigned calls in); answered 403');
    return error(403, 'ForbiddenException', requestId, 'Missing Authentication Token');
  }
  if (context.verifier === undefined) {
    context.note(requestId, '@connections: signed request, but the server has no credentials to verify it with (start with --credentials KEY:SECRET); answered 403');
    return error(403, 'UnrecognizedClientException', requestId, 'The security token included in the request is invalid.');
  }
  const result = await context.verifier.verify(signedRequest);
  if (!result.ok) {
    context.note(requestId, `@connections: SigV4 verification failed: ${result.reason}; answered 403`);
    return error(403, result.failure === 'unknown-key' ? 'UnrecognizedClientException' : 'InvalidSignatureException', requestId, result.message);
  }
  return undefined;
}

/** An error as the rest-json protocol reads it: the type in `x-amzn-ErrorType`, a `message` in the body. */
function error(statusCode: number, type: string, requestId: string, message?: string): ApiResponse {
  return {
    statusCode,
    headers: [['x-amzn-RequestId', requestId], ['x-amzn-ErrorType', type], ['Content-Type', 'application/json']],
    body: JSON.stringify(message === undefined ? {} : { message }),
    requestId,
  };
}
