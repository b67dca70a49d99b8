import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { WebSocketServer } from 'ws';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import type { SimulatorEvent } from '../../src/simulator/index.js';
import type { WsSimulator } from '../../src/simulator/ws/server.js';
import { TicketAuthority } from '../../src/simulator/ws/tickets.js';
import { connectStream, type StreamOptions, type VenueStream } from '../../src/stream/index.js';
import { extraSocketServer } from './socket-server.js';

// Shared by the flow-*.test.ts files: a fake simulator behind a real socket server, and a bare
// scripted server that misbehaves on purpose; whatever a test opens is closed after it.

/** Run after each test, newest first. */
export const cleanups: (() => Promise<void>)[] = [];

/** Runs the cleanups after each test of the calling file. */
export function useCleanups(): void {
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
}

/** The simulator surface the socket layer uses, with events the test emits itself. */
export class FakeSim implements WsSimulator {
  private readonly listeners = new Set<(e: SimulatorEvent) => void>();
  constructor(readonly tickets: TicketAuthority) {}
  onEvent(l: (e: SimulatorEvent) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  emit(e: SimulatorEvent): void {
    for (const l of this.listeners) l(e);
  }
  marketSnapshot(): unknown {
    return { auction: { auctionId: 1, phase: 'open' }, settling: null, lastClear: null };
  }
}

export async function fakeVenue(serverOptions: Parameters<typeof extraSocketServer>[1] = {}) {
  const tickets = await TicketAuthority.create({ now: Date.now });
  const sim = new FakeSim(tickets);
  const frames: { op: string; channel?: string }[] = [];
  const server = await extraSocketServer(sim, { ...serverOptions, onClientFrame: (_e, f) => frames.push(f) });
  cleanups.push(() => server.close());
  const connect = (options: StreamOptions = {}): VenueStream => {
    const stream = connectStream(
      {
        wsUrl: server.wsUrl,
        ticket: () => tickets.issue('entity-a'),
        async *listOrders() {},
      },
      { reconnect: { initialDelayMs: 1, maxDelayMs: 5 }, ...options },
    );
    cleanups.push(() => stream.close());
    return stream;
  };
  return { sim, server, frames, connect };
}

export function burst(sim: FakeSim, n: number, pad = ''): void {
  for (let i = 0; i < n; i++)
    sim.emit({ channel: 'market', event: 'auction.opened', data: { auctionId: i, pad } });
}

/** A bare server speaking just enough of the protocol to misbehave on purpose. */
export async function scriptedServer(
  onFrame: (send: (frame: unknown) => void, frame: Record<string, unknown>) => void,
) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => SUBPROTOCOL });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  let connections = 0;
  wss.on('connection', (ws) => {
    connections += 1;
    ws.on('message', (d) => onFrame((f) => ws.send(JSON.stringify(f)), JSON.parse(d.toString())));
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  );
  const { port } = wss.address() as AddressInfo;
  return { wsUrl: `ws://127.0.0.1:${port}`, connections: () => connections };
}

export function scriptedStream(
  wsUrl: string,
  options: StreamOptions,
  orders: { orderId: string; status: string; updatedAt: string }[] = [],
) {
  let n = 0;
  const tickets: string[] = [];
  const stream = connectStream(
    {
      wsUrl,
      ticket: async () => {
        const ticket = `t${++n}`;
        tickets.push(ticket);
        return { ticket, expiresAt: new Date().toISOString() };
      },
      // Filters as the venue does, so the open-orders read and the resync see the right subsets.
      async *listOrders(query) {
        yield {
          orders: orders.filter(
            (o) =>
              (query.status === undefined || o.status === query.status) &&
              (query.orderId === undefined || o.orderId === query.orderId),
          ),
        };
      },
    },
    { reconnect: { initialDelayMs: 1, maxDelayMs: 5 }, ...options },
  );
  cleanups.push(() => stream.close());
  return { stream, tickets };
}

export const T = '2026-01-01T00:00:00.000Z';
export const ev = (channel: string, seq: number, event: string, data: unknown, ts = T) => ({
  type: 'event',
  channel,
  seq,
  event,
  data,
  ts,
});
