/**
 * Each port of the local API also speaks TLS: a connection whose first byte is a TLS handshake
 * record (22) is handed to a TLS server with the local certificate (local-tls.ts), and
 * the decrypted stream to the same HTTP server (requests and upgrades alike); any other connection
 * goes to the HTTP server as it is. This is how `https://127.0.0.1:PORT/<stage>/@connections/...`,
 * the management endpoint a function builds from its event, reaches the port of its WebSocket API.
 */
import type * as http from 'http';
import type { Socket } from 'net';
import * as tls from 'tls';
import { localTlsIdentity } from './local-tls';

const TLS_HANDSHAKE = 22;

export function acceptTlsOnSamePort(server: http.Server): void {
  const [httpConnection] = server.listeners('connection') as Array<(socket: Socket) => void>;
  const secure = tls.createServer(localTlsIdentity(), (socket) => {
    httpConnection.call(server, socket as unknown as Socket);
  });
  secure.on('tlsClientError', (_error, socket) => socket.destroy());
  server.removeListener('connection', httpConnection);
  server.on('connection', (socket: Socket) => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        secure.emit('connection', socket);
      } else {
        httpConnection.call(server, socket);
      }
      process.nextTick(() => socket.resume());
    });
  });
}
