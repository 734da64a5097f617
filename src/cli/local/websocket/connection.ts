/**
 * One open WebSocket connection as the gateway keeps it: who opened it, when, on which stage, what
 * its `$connect` authorizer said (it reaches every later event), and the client socket.
 */
import type { WebSocket } from 'ws';

export interface WebSocketConnection {
  readonly connectionId: string;
  /** `<stack>/<logical id>` of the API it connected to (a management call on another API's port does not reach it). */
  readonly apiKey: string;
  readonly stage: string;
  /** Epoch ms of the accepted handshake. */
  readonly connectedAt: number;
  /** Epoch ms of the last message in or out. */
  lastActiveAt: number;
  readonly sourceIp: string;
  readonly userAgent: string;
  /** The Host the client reached (`127.0.0.1:PORT`): `requestContext.domainName`. */
  readonly domainName: string;
  /** `requestContext.authorizer` of every event, when `$connect` had an authorizer. */
  readonly authorizer?: Record<string, unknown>;
  /** Identity fields an IAM-authorized `$connect` filled (`accessKey`, `caller`, `user`, `userArn`, `accountId`). */
  readonly iamIdentity?: Record<string, string>;
  readonly socket: WebSocket;
  /** Counts activity (a message in or out): restarts the idle timeout. Set once the connection is open. */
  touch?: () => void;
}

/** The connections of one server, by id, across reloads (a reload does not drop a client). */
export class ConnectionRegistry {
  private readonly connections = new Map<string, WebSocketConnection>();
  private ended = false;

  /** The server closed: no `$disconnect` runs for the connections it ended (the functions are gone). */
  get closed(): boolean {
    return this.ended;
  }

  add(connection: WebSocketConnection): void {
    this.connections.set(connection.connectionId, connection);
  }

  get(connectionId: string): WebSocketConnection | undefined {
    return this.connections.get(connectionId);
  }

  remove(connectionId: string): void {
    this.connections.delete(connectionId);
  }

  /** Every connection ends now (the server closes). */
  terminateAll(): void {
    this.ended = true;
    for (const connection of this.connections.values()) {
      connection.socket.terminate();
    }
    this.connections.clear();
  }
}
