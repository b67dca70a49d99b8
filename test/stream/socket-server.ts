import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AttachWebSocketOptions,
  attachWebSocket,
  type WebSocketHandle,
} from '../../src/simulator/ws/server.js';

/** A second socket endpoint for the same simulator, with test-chosen options (tiny replay buffer...). */
export async function extraSocketServer(
  sim: Parameters<typeof attachWebSocket>[0],
  options: AttachWebSocketOptions = {},
): Promise<{ wsUrl: string; handle: WebSocketHandle; server: Server; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = attachWebSocket(sim, server, options);
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    handle,
    server,
    close: async () => {
      await handle.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Reads exactly n values (the test timeout bounds the wait). */
export async function take<T>(iter: AsyncIterator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < n) {
    const r = await iter.next();
    if (r.done) throw new Error(`iterator ended after ${out.length} of ${n} values`);
    out.push(r.value);
  }
  return out;
}

/** Polls (by event-loop turns, not by wall clock) until the condition holds. */
export async function until(condition: () => boolean, what: string, turns = 200_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, i < 100 ? 0 : 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}
