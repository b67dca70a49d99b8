/**
 * A loopback WebSocket proxy that reads frames (the fault proxy pipes bytes and cannot): it drops
 * a seeded share of the account channel's event frames and kills every socket on demand. A stream
 * behind it sees gaps in the account seq (it resyncs over REST), or nothing at all at a drop rate
 * of 1, and abnormal closes: the ground `orders.waitForOutcome` must stand on (bench/chaos/wait.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { seededRandom } from './support.js';

export interface FrameProxyStats {
  connections: number;
  killed: number;
  accountEventsForwarded: number;
  accountEventsDropped: number;
}

export interface FrameProxy {
  /** `ws://127.0.0.1:<port>`: the client's `wsUrl`. */
  readonly wsUrl: string;
  /** Share of account event frames dropped from now on, 0..1. */
  setDropRate(rate: number): void;
  /** Terminates every socket now (both ends); returns how many client sockets. */
  killAll(): number;
  stats(): FrameProxyStats;
  close(): Promise<void>;
}

export async function startFrameProxy(options: {
  /** The simulator's socket base, `ws://127.0.0.1:<port>` (loopback only). */
  upstream: string;
  dropRate: number;
  seed?: number;
}): Promise<FrameProxy> {
  const host = new URL(options.upstream).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost')
    throw new Error(`frame proxy: upstream must be a loopback address, got ${host}`);
  let rate = options.dropRate;
  const random = seededRandom((options.seed ?? 1) ^ 0xf4a3e);
  const stats: FrameProxyStats = {
    connections: 0,
    killed: 0,
    accountEventsForwarded: 0,
    accountEventsDropped: 0,
  };
  const server: Server = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  const wss = new WebSocketServer({ server, handleProtocols: (protocols) => [...protocols][0] ?? false });
  const pairs = new Set<{ client: WebSocket; up: WebSocket }>();
  wss.on('connection', (client, req) => {
    stats.connections++;
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const up = new WebSocket(`${options.upstream}${req.url ?? ''}`, protocols);
    const pair = { client, up };
    pairs.add(pair);
    // The client may speak (subscribe) before the upstream socket is open.
    const early: string[] = [];
    client.on('message', (data) => {
      if (up.readyState === WebSocket.OPEN) up.send(String(data));
      else early.push(String(data));
    });
    up.on('open', () => {
      for (const text of early.splice(0)) up.send(text);
    });
    up.on('message', (data) => {
      const text = String(data);
      const frame = JSON.parse(text) as { type?: string; channel?: string };
      if (frame.type === 'event' && frame.channel === 'account') {
        if (random() < rate) {
          stats.accountEventsDropped++;
          return;
        }
        stats.accountEventsForwarded++;
      }
      if (client.readyState === WebSocket.OPEN) client.send(text);
    });
    const end = () => {
      pairs.delete(pair);
      client.terminate();
      up.terminate();
    };
    up.on('close', end);
    up.on('error', end);
    client.on('close', end);
    client.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    setDropRate(r) {
      rate = r;
    },
    killAll() {
      const n = pairs.size;
      for (const { client, up } of [...pairs]) {
        client.terminate();
        up.terminate();
      }
      pairs.clear();
      stats.killed += n;
      return n;
    },
    stats: () => ({ ...stats }),
    close: async () => {
      for (const socket of wss.clients) socket.terminate();
      for (const { up } of pairs) up.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
