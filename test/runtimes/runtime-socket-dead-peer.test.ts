// The stream on the runtime's global WebSocket (where ws cannot be loaded), against a peer that
// went silent: the heartbeat gives up on the socket and must get a fresh one. A WHATWG socket's
// close() only starts the closing handshake, whose 'close' a dead peer never lets come, so
// terminate() must not wait for it (ws's terminate() destroys the socket at once).
// undici's WHATWG WebSocket stands in for the global one under Node 20.
import type { AddressInfo } from 'node:net';
import { WebSocket as UndiciWebSocket } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import type { VenueStream } from '../../src/stream/api.js';

const PROTOCOL = 'service-match.v1';

let server: WebSocketServer | undefined;
let stream: VenueStream | undefined;
afterEach(async () => {
  await stream?.close();
  stream = undefined;
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
  vi.doUnmock('ws');
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("the runtime's WebSocket, when the peer goes silent", () => {
  it('a heartbeat timeout replaces the socket without waiting for a close the peer never sends', async () => {
    let connections = 0;
    server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      handleProtocols: (protocols) => (protocols.has(PROTOCOL) ? PROTOCOL : false),
    });
    server.on('connection', (socket, req) => {
      connections += 1;
      socket.send('{"type":"hello"}');
      // Then silence: nothing read (no pong, no answer to the closing handshake), nothing closed.
      setTimeout(() => req.socket.pause(), 5);
    });
    await new Promise((done) => server?.once('listening', done));
    const wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;

    vi.resetModules();
    vi.doMock('ws', () => {
      throw new Error("Cannot find package 'ws'");
    });
    vi.stubGlobal('WebSocket', UndiciWebSocket);
    const { connectStream } = await import('../../src/stream/connection.js');
    stream = connectStream(
      {
        wsUrl,
        ticket: async () => ({ ticket: 'eyJhbGciOiJFUzI1NiJ9.e30.sig' }),
        async *listOrders() {},
      },
      {
        heartbeatIntervalMs: 50,
        heartbeatTimeoutMs: 50,
        helloTimeoutMs: 10,
        reconnect: { initialDelayMs: 10, maxDelayMs: 10 },
      },
    );
    const states: string[] = [];
    stream.on('state', (change) => states.push(change.state));

    const deadline = Date.now() + 3000;
    while (connections < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    expect(connections).toBeGreaterThanOrEqual(2);
    expect(states).toContain('reconnecting');
  });
});
