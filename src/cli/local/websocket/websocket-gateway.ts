/**
 * One WebSocket API's connections, as the service handles them. A handshake on
 * `ws://HOST:PORT/<stage>` runs the `$connect` route (its authorizer, then its integration) before
 * the upgrade is accepted: a refusal or a non-2xx answer is the handshake's HTTP status. Each text
 * message takes the route its selection expression picks (route-selection.ts); the function's
 * answer (or a MOCK integration's rendered response, mock-integration.ts) goes back to the client
 * only on two-way routes; a message no route takes, or whose
 * function fails, gets the service's error message. Closing (by the client, by `DELETE
 * @connections`, or by a limit) runs `$disconnect`. Plain HTTP requests reach the `@connections`
 * management API (management-api.ts).
 */
import type * as http from 'http';
import type { Duplex } from 'stream';
import { WebSocket, WebSocketServer } from 'ws';
import { authorizeConnect } from './connect-authorization';
import type { ConnectionRegistry, WebSocketConnection } from './connection';
import { limitFrameSize } from './frame-limit';
import { ReadHandshake, readHandshake, refuseHandshake } from './handshake';
import { answerManagement, managementTarget } from './management-api';
import { MockEvent, runMock } from './mock-integration';
import { invokeRoute, proxyAnswer } from './route-invocation';
import { selectRoute } from './route-selection';
import { connectEvent, disconnectEvent, EventSource, Handshake, messageEvent } from './websocket-events';
import type { WebSocketLimits } from './websocket-limits';
import type { ApiHandler, ApiRequest, ApiResponse, HandlerContext } from '../api-kind/api-kind';
import { apigwId } from '../common/ids';
import type { WebSocketApiSpec, WebSocketMockIntegrationSpec, WebSocketRouteSpec } from '../model/websocket-api';

/** What a gateway shares with the other gateways of the server (kept across reloads). */
export interface WebSocketServing {
  readonly connections: ConnectionRegistry;
  readonly limits: WebSocketLimits;
  /**
   * The latest spec of each API (`<stack>/<logical id>`), set by its newest gateway: a connection
   * opened before a reload takes the routes of the synth served now, as a deployment changes the
   * routes of open connections.
   */
  readonly latest: Map<string, WebSocketApiSpec>;
}

/** What an accepted `$connect` gives the connection: its authorizer's answer and the subprotocol chosen. */
interface Admission {
  readonly authorizer?: Record<string, unknown>;
  readonly iamIdentity?: Record<string, string>;
  readonly protocol?: string;
}

export class WebSocketGateway implements ApiHandler {
  private readonly sockets: WebSocketServer;
  private readonly apiKey: string;
  /** The subprotocol each accepted handshake's `$connect` answered with (its `Sec-WebSocket-Protocol` header). */
  private readonly protocols = new WeakMap<http.IncomingMessage, string>();

  constructor(private readonly served: WebSocketApiSpec, private readonly context: HandlerContext, private readonly serving: WebSocketServing) {
    this.sockets = new WebSocketServer({
      noServer: true,
      maxPayload: serving.limits.maxMessageBytes,
      perMessageDeflate: false,
      // The service picks no subprotocol itself: the one the `$connect` function answers, else none.
      handleProtocols: (_offered, request) => this.protocols.get(request) ?? false,
    });
    this.apiKey = `${served.stackName}/${served.logicalId}`;
    serving.latest.set(this.apiKey, served);
  }

  /** The API as served now (a reload may have changed its routes since this gateway was made). */
  private get api(): WebSocketApiSpec {
    return this.serving.latest.get(this.apiKey) ?? this.served;
  }

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const target = managementTarget(request.target);
    if (target !== undefined) {
      return answerManagement(request, target, {
        apiKey: this.apiKey,
        connections: this.serving.connections,
        handler: this.context,
        maxMessageBytes: this.serving.limits.maxMessageBytes,
        send: (connection, data) => this.send(connection, data),
        close: (connection) => connection.socket.close(1000, ''),
      });
    }
    const requestId = apigwId();
    // Not checked against the service: the answer to a plain HTTP request on a WebSocket API's stage URL.
    return { statusCode: 426, headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', requestId]], body: JSON.stringify({ message: 'Upgrade Required' }), requestId };
  }

  upgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    void this.connect(request, socket, head).catch((error) => {
      this.context.note('-', `WebSocket handshake failed: ${error?.stack ?? error}`);
      refuseHandshake(socket, 500);
    });
  }

  /** The handshake: its stage, then `$connect` (authorizer, integration), then the upgrade. */
  private async connect(request: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const handshake = readHandshake(request);
    const { stage } = handshake;
    const connectionId = apigwId();
    const now = Date.now();
    if (stage === undefined || !this.api.stages.includes(stage)) {
      this.context.note(connectionId, `handshake on ${handshake.target}: no stage of the API is named so (stages: ${this.api.stages.join(', ')}); answered 403`);
      refuseHandshake(socket, 403);
      return;
    }
    const { sourceIp, userAgent, domainName } = handshake;
    const base = { connectionId, apiKey: this.apiKey, stage, connectedAt: now, sourceIp, userAgent, domainName };
    const { protocol, ...admitted } = await this.admit(base, handshake, now);
    if ('refused' in admitted) {
      this.context.requestLine?.(`${connectionId} CONNECT ${handshake.target} ${admitted.refused} ${msSince(now)} ms`);
      refuseHandshake(socket, admitted.refused);
      return;
    }
    if (protocol !== undefined) {
      this.protocols.set(request, protocol);
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => {
      this.context.requestLine?.(`${connectionId} CONNECT ${handshake.target} 101 ${msSince(now)} ms`);
      this.open({ ...base, ...admitted, lastActiveAt: Date.now(), socket: ws });
    });
  }

  /** What `$connect` decides: what its authorizer adds to the connection, or the handshake's refusal status. */
  private async admit(
    base: EventSource['connection'], handshake: ReadHandshake, now: number,
  ): Promise<Admission | { refused: number; protocol?: undefined }> {
    const route = this.route('$connect');
    if (route === undefined) {
      return {};
    }
    const event = connectEvent({ apiId: this.api.apiId, connection: base }, handshake, now);
    const decision = await authorizeConnect(route, { ...handshake, api: this.api, stage: base.stage, event }, this.context);
    if (!decision.allowed) {
      this.context.note(base.connectionId, `$connect refused: ${decision.why}; answered ${decision.statusCode}`);
      return { refused: decision.statusCode };
    }
    const authorized = { authorizer: decision.authorizer, iamIdentity: decision.iamIdentity };
    const verdict = await this.runConnect(route, { apiId: this.api.apiId, connection: { ...base, ...authorized } }, handshake, now);
    return 'refused' in verdict ? verdict : { ...authorized, ...verdict };
  }

  /** The `$connect` integration's verdict: accepted (with the subprotocol it chose), or the handshake's refusal status. */
  private async runConnect(
    route: WebSocketRouteSpec, source: EventSource, handshake: Handshake, now: number,
  ): Promise<{ protocol?: string } | { refused: number }> {
    if (route.integration.type === 'MOCK') {
      return this.runConnectMock(route.integration, source, handshake, now);
    }
    if (route.integration.type !== 'AWS_PROXY') {
      this.context.note(source.connection.connectionId, `$connect: ${route.integration.description} is not served locally; answered 500`);
      return { refused: 500 };
    }
    const answer = await invokeRoute(route.integration, connectEvent(source, handshake, now), this.context);
    if (!answer.ok) {
      this.context.note(source.connection.connectionId, `$connect: ${answer.why}; answered 502`);
      return { refused: 502 };
    }
    const { statusCode, headers } = proxyAnswer(answer.payload);
    if (statusCode < 200 || statusCode > 299) {
      this.context.note(source.connection.connectionId, `$connect answered ${statusCode}: the connection is refused`);
      return { refused: statusCode };
    }
    const protocol = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'sec-websocket-protocol')?.[1];
    return typeof protocol === 'string' ? { protocol } : {};
  }

  /** A `$connect` MOCK: its template's 2xx status accepts the connection, another refuses it with that status. */
  private async runConnectMock(
    integration: WebSocketMockIntegrationSpec, source: EventSource, handshake: Handshake, now: number,
  ): Promise<{ refused: number } | Record<string, never>> {
    const outcome = await runMock(integration, this.mockEvent(source, '$connect', 'CONNECT', '', now, handshake), false);
    if (!outcome.ok) {
      // Not checked against the service: the status of a `$connect` whose template fails.
      this.context.note(source.connection.connectionId, `$connect: ${outcome.why}; answered 500`);
      return { refused: 500 };
    }
    if (outcome.statusCode < 200 || outcome.statusCode > 299) {
      this.context.note(source.connection.connectionId, `$connect MOCK answered ${outcome.statusCode}: the connection is refused`);
      return { refused: outcome.statusCode };
    }
    return {};
  }

  /** What a MOCK integration's templates see of an event. */
  private mockEvent(
    source: EventSource, routeKey: string, eventType: MockEvent['eventType'], body: string, now: number, handshake?: Handshake,
  ): MockEvent {
    return {
      source,
      routeKey,
      eventType,
      body,
      messageId: eventType === 'MESSAGE' ? apigwId() : null,
      requestId: apigwId(),
      requestTimeEpoch: now,
      stageVariables: this.api.stageVariables[source.connection.stage] ?? {},
      ...(handshake === undefined ? {} : { handshake }),
    };
  }

  private open(connection: WebSocketConnection): void {
    const { limits } = this.serving;
    this.serving.connections.add(connection);
    const ws = connection.socket;
    limitFrameSize(ws, limits.maxFrameBytes);
    let idle = setTimeout(() => ws.close(1001, 'Going away'), limits.idleTimeoutMs);
    const lifetime = setTimeout(() => ws.close(1001, 'Going away'), limits.maxDurationMs);
    const touch = () => {
      connection.lastActiveAt = Date.now();
      clearTimeout(idle);
      idle = setTimeout(() => ws.close(1001, 'Going away'), limits.idleTimeoutMs);
    };
    connection.touch = touch;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      touch();
      if (isBinary) {
        // The service takes text frames only: a binary frame closes the connection with 1003.
        ws.close(1003, 'Binary frames are not supported');
        return;
      }
      void this.onMessage(connection, data.toString('utf8'));
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', (code: number, reason: Buffer) => {
      clearTimeout(idle);
      clearTimeout(lifetime);
      this.serving.connections.remove(connection.connectionId);
      void this.onDisconnect(connection, code, reason.toString('utf8'));
    });
  }

  private async onMessage(connection: WebSocketConnection, message: string): Promise<void> {
    const started = Date.now();
    const route = selectRoute(this.api, message);
    const requestId = apigwId();
    const outcome = await this.routeMessage(connection, message, route, requestId);
    this.context.requestLine?.(`${requestId} MESSAGE ${route?.routeKey ?? '(no route)'} ${connection.connectionId} ${outcome} ${msSince(started)} ms`);
  }

  /** Runs the message's route; what came of it, for the terminal line. */
  private async routeMessage(
    connection: WebSocketConnection, message: string, route: WebSocketRouteSpec | undefined, requestId: string,
  ): Promise<string> {
    if (route === undefined) {
      this.context.note(requestId, `${connection.connectionId}: no route for the message and no $default route; told the client Forbidden`);
      this.send(connection, serviceError('Forbidden', connection, requestId));
      return 'Forbidden';
    }
    if (route.integration.type === 'MOCK') {
      return this.routeMock(connection, message, route, route.integration, requestId);
    }
    if (route.integration.type !== 'AWS_PROXY') {
      this.context.note(requestId, `${route.routeKey}: ${route.integration.description} is not served locally`);
      this.send(connection, serviceError('Internal server error', connection, requestId));
      return 'Internal server error';
    }
    const answer = await invokeRoute(route.integration, messageEvent({ apiId: this.api.apiId, connection }, route.routeKey, message), this.context);
    if (!answer.ok) {
      this.context.note(requestId, `${route.routeKey}: ${answer.why}; told the client Internal server error`);
      this.send(connection, serviceError('Internal server error', connection, requestId));
      return 'Internal server error';
    }
    const body = proxyAnswer(answer.payload).body;
    if (route.twoWay && body !== undefined) {
      this.send(connection, body);
      return 'answered';
    }
    return 'ok';
  }

  /** A message's MOCK route: on a two-way route the integration response's rendered template goes to the client. */
  private async routeMock(
    connection: WebSocketConnection, message: string, route: WebSocketRouteSpec, integration: WebSocketMockIntegrationSpec, requestId: string,
  ): Promise<string> {
    const source = { apiId: this.api.apiId, connection };
    const outcome = await runMock(integration, { ...this.mockEvent(source, route.routeKey, 'MESSAGE', message, Date.now()), requestId }, route.twoWay);
    if (!outcome.ok) {
      this.context.note(requestId, `${route.routeKey}: ${outcome.why}; told the client Internal server error`);
      this.send(connection, serviceError('Internal server error', connection, requestId));
      return 'Internal server error';
    }
    if (route.twoWay && outcome.message !== undefined) {
      this.send(connection, outcome.message);
      return `MOCK ${outcome.statusCode} answered`;
    }
    return `MOCK ${outcome.statusCode}`;
  }

  private async onDisconnect(connection: WebSocketConnection, code: number, reason: string): Promise<void> {
    this.context.requestLine?.(`${connection.connectionId} DISCONNECT ${code}${reason === '' ? '' : ` ${reason}`}`);
    const route = this.route('$disconnect');
    if (route?.integration.type === 'MOCK' && !this.serving.connections.closed) {
      // Nothing goes to a closed connection: the template runs for its failures alone.
      const outcome = await runMock(route.integration, this.mockEvent({ apiId: this.api.apiId, connection }, '$disconnect', 'DISCONNECT', '', Date.now()), false);
      if (!outcome.ok) {
        this.context.note(connection.connectionId, `$disconnect: ${outcome.why}`);
      }
      return;
    }
    if (route?.integration.type !== 'AWS_PROXY' || this.serving.connections.closed) {
      return;
    }
    const answer = await invokeRoute(route.integration, disconnectEvent({ apiId: this.api.apiId, connection }, code, reason), this.context);
    if (!answer.ok) {
      this.context.note(connection.connectionId, `$disconnect: ${answer.why}`);
    }
  }

  private send(connection: WebSocketConnection, data: string): void {
    if (connection.socket.readyState !== WebSocket.OPEN) {
      return;
    }
    connection.touch?.();
    connection.socket.send(data);
  }

  private route(routeKey: string): WebSocketRouteSpec | undefined {
    return this.api.routes.find((r) => r.routeKey === routeKey);
  }
}

function msSince(epochMs: number): string {
  return (Date.now() - epochMs).toFixed(1);
}

/** The message the service sends a client when its message cannot be handled. */
function serviceError(message: string, connection: WebSocketConnection, requestId: string): string {
  return JSON.stringify({ message, connectionId: connection.connectionId, requestId });
}
