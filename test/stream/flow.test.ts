import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import type { SimulatorEvent } from '../../src/simulator/index.js';
import type { WsSimulator } from '../../src/simulator/ws/server.js';
import { TicketAuthority } from '../../src/simulator/ws/tickets.js';
import { connectStream, type StreamOptions, type VenueStream } from '../../src/stream/index.js';
import { extraSocketServer, take, until } from './socket-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The simulator surface the socket layer uses, with events the test emits itself. */
class FakeSim implements WsSimulator {
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

async function fakeVenue(serverOptions: Parameters<typeof extraSocketServer>[1] = {}) {
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

function burst(sim: FakeSim, n: number, pad = ''): void {
  for (let i = 0; i < n; i++)
    sim.emit({ channel: 'market', event: 'auction.opened', data: { auctionId: i, pad } });
}

describe('backpressure', () => {
  it("'pause' keeps every event of a burst while the buffer never exceeds its bound", async () => {
    const { sim, connect } = await fakeVenue();
    const stream = connect({ bufferSize: 20 });
    const market = stream.market();
    await take(market, 1);
    // ~1 KiB frames: 3 MiB in all, far more than one socket read.
    burst(sim, 3000, 'x'.repeat(1000));
    let maxSeen = 0;
    let maxBacklog = 0;
    const ids: number[] = [];
    for (let i = 0; i < 3000; i++) {
      maxSeen = Math.max(maxSeen, market.buffered);
      maxBacklog = Math.max(maxBacklog, stream.stats().backlog);
      const [ev] = await take(market, 1);
      ids.push((ev as { data: { auctionId: number } }).data.auctionId);
      // A slow consumer: one event per event-loop turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ids).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(maxSeen).toBeLessThanOrEqual(20);
    // Frames read off the socket but not decoded yet: what one socket read held (64 KiB), not the
    // burst: the rest waited in TCP and on the server.
    expect(maxBacklog).toBeGreaterThan(0);
    expect(maxBacklog).toBeLessThanOrEqual(200);
    expect(market.maxBuffered).toBe(20);
    expect(market.dropped).toBe(0);
  });

  it("'drop-oldest' keeps the newest events up to the bound and counts the dropped ones", async () => {
    const { sim, connect } = await fakeVenue();
    const stream = connect({ bufferSize: 20, overflow: 'drop-oldest' });
    const market = stream.market();
    await take(market, 1);
    burst(sim, 3000);
    await until(() => market.dropped + market.buffered === 3000, 'the burst to arrive');
    expect(market.buffered).toBe(20);
    expect(market.maxBuffered).toBe(20);
    expect(market.dropped).toBe(2980);
    const kept = await take(market, 20);
    expect(kept.map((e) => (e.data as { auctionId: number }).auctionId)).toEqual(
      Array.from({ length: 20 }, (_, i) => 2980 + i),
    );
  });
});

describe('iterators', () => {
  it('leaving a for-await early unsubscribes the channel on the server', async () => {
    const { server, frames, connect } = await fakeVenue();
    const stream = connect();
    for await (const ev of stream.market()) {
      expect(ev.event).toBe('auction.snapshot');
      break;
    }
    await until(() => frames.some((f) => f.op === 'unsubscribe' && f.channel === 'market'), 'unsubscribe');
    expect(server.handle.stats()).toMatchObject({ connections: 1, market: 0 });
  });

  it('passes unknown event kinds through untouched', async () => {
    const { sim, connect } = await fakeVenue();
    const stream = connect();
    const market = stream.market();
    await take(market, 1);
    sim.emit({ channel: 'market', event: 'auction.mystery', data: { x: [1, { y: 'z' }] } });
    const [ev] = await take(market, 1);
    expect(ev).toEqual({
      type: 'event',
      channel: 'market',
      seq: 1,
      event: 'auction.mystery',
      data: { x: [1, { y: 'z' }] },
      ts: expect.any(String),
    });
  });

  it('resubscribes after a kill and delivers what happened meanwhile, once', async () => {
    const { sim, server, connect } = await fakeVenue();
    const stream = connect();
    const market = stream.market();
    await take(market, 1);
    burst(sim, 5);
    await take(market, 5);
    server.handle.killSockets();
    burst(sim, 5);
    const after = await take(market, 6);
    // A fresh snapshot follows the resubscribe; the five events come from the replay buffer, once.
    const events = after.filter((e) => e.event !== 'auction.snapshot');
    expect(events.map((e) => e.seq)).toEqual([6, 7, 8, 9, 10]);
  });
});

describe('a lazily resolved wsUrl', () => {
  it('is resolved before every connect (a failure is retried) and may move between connects', async () => {
    const a = await fakeVenue();
    const b = await extraSocketServer(a.sim);
    cleanups.push(() => b.close());
    const calls: string[] = [];
    const stream = connectStream(
      {
        // First call fails, second gives server A, later ones server B (the address moved).
        wsUrl: async () => {
          calls.push('call');
          if (calls.length === 1) throw new Error('not listening yet');
          return calls.length === 2 ? a.server.wsUrl : `${b.wsUrl}/v1/match/ws`;
        },
        ticket: () => a.sim.tickets.issue('entity-a'),
        async *listOrders() {},
      },
      { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } },
    );
    cleanups.push(() => stream.close());
    const market = stream.market();
    await take(market, 1);
    expect(calls).toHaveLength(2);
    expect(a.server.handle.stats().connections).toBe(1);

    a.server.handle.killSockets();
    await take(market, 1);
    expect(calls).toHaveLength(3);
    expect(b.handle.stats()).toMatchObject({ connections: 1, market: 1 });
    expect(stream.stats().reconnects).toBe(1);
  });
});

describe('kills in the middle of bursts', () => {
  it('50 kills with frames in flight: every account event exactly once, in order, none resynced', async () => {
    const { sim, server, connect } = await fakeVenue();
    const stream = connect({ bufferSize: 16 });
    const account = stream.account();
    const market = stream.market();
    await take(market, 1);
    await market.return?.();
    let n = 0;
    const emit = (k: number) => {
      for (let i = 0; i < k; i++)
        sim.emit({ channel: 'account', entityId: 'entity-a', event: 'balance.updated', data: { n: n++ } });
    };
    const kills = 50;
    const perHalf = 40;
    const total = kills * perHalf * 2;
    let finished = false;
    const consumed = (async () => {
      const got: { seq: number; n: number }[] = [];
      for await (const ev of account) {
        got.push({ seq: ev.seq, n: (ev.data as { n: number }).n });
        // A consumer slower than the socket now and then, so 'pause' engages too.
        if (got.length % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
        if (got.length === total) break;
      }
      finished = true;
      return got;
    })();
    for (let k = 0; k < kills; k++) {
      emit(perHalf);
      // Part of that burst is still in the socket buffers when the server kills it.
      await new Promise((resolve) => setImmediate(resolve));
      server.handle.killSockets();
      emit(perHalf);
      // (Once the consumer has everything it leaves, unsubscribing: then there is nothing to wait for.)
      await until(
        () => stream.state === 'open' && (server.handle.stats().account === 1 || finished),
        'resubscribed',
      );
    }
    const got = await consumed;
    expect(got.map((e) => e.n)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(stream.stats()).toMatchObject({ resyncs: 0 });
    expect(stream.stats().reconnects).toBeGreaterThanOrEqual(kills);
  });
});

/** A bare server speaking just enough of the protocol to misbehave on purpose. */
async function scriptedServer(
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

function scriptedStream(
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

const T = '2026-01-01T00:00:00.000Z';
const ev = (channel: string, seq: number, event: string, data: unknown, ts = T) => ({
  type: 'event',
  channel,
  seq,
  event,
  data,
  ts,
});

describe('liveness and gaps', () => {
  it('replaces a connection that stops answering pings', async () => {
    const server = await scriptedServer(() => {});
    const { stream, tickets } = scriptedStream(server.wsUrl, {
      heartbeatIntervalMs: 5,
      heartbeatTimeoutMs: 5,
    });
    const states: string[] = [];
    stream.on('state', (s) => states.push(s.state));
    await until(() => server.connections() >= 3, 'two replacements');
    expect(states).toContain('reconnecting');
    expect(new Set(tickets).size).toBe(tickets.length);
  });

  it('a seq gap on the market channel yields an explicit resync event, then continues', async () => {
    const server = await scriptedServer((send, f) => {
      if (f.op !== 'subscribe') return;
      send({ type: 'subscribed', channel: 'market', id: f.id, seq: 0, ts: T });
      send(ev('market', 1, 'auction.opened', { auctionId: 1 }));
      send(ev('market', 2, 'auction.locked', { auctionId: 1 }));
      send(ev('market', 5, 'auction.opened', { auctionId: 2 }));
    });
    const { stream } = scriptedStream(server.wsUrl, {});
    const got = await take(stream.market(), 4);
    expect(got.map((e) => [e.event, e.seq])).toEqual([
      ['auction.opened', 1],
      ['auction.locked', 2],
      ['stream.resync', 4],
      ['auction.opened', 5],
    ]);
    expect(got[2]?.data).toEqual({ reason: 'gap', lastSeq: 2, resumedAtSeq: 4 });
  });

  it('a seq gap on the account channel reconciles over REST: only changes not yet seen, before the next live event', async () => {
    const o1 = { orderId: 'o1', status: 'pending', updatedAt: T };
    const o2 = { orderId: 'o2', status: 'filled', updatedAt: '2026-01-01T00:00:01.000Z' };
    const old = { orderId: 'o0', status: 'filled', updatedAt: '2025-12-31T00:00:00.000Z' };
    const server = await scriptedServer((send, f) => {
      if (f.op !== 'subscribe') return;
      send({ type: 'subscribed', channel: 'account', id: f.id, seq: 0, ts: T });
      send(ev('account', 1, 'order.accepted', o1));
      send(ev('account', 3, 'balance.updated', { accountId: 'a' }, '2026-01-01T00:00:02.000Z'));
    });
    const { stream } = scriptedStream(server.wsUrl, {}, [o2, o1, old]);
    const got = await take(stream.account(), 4);
    expect(got.map((e) => e.event)).toEqual([
      'order.accepted',
      'stream.resync',
      'order.updated',
      'balance.updated',
    ]);
    expect(got[2]).toMatchObject({ source: 'rest', data: o2 });
    expect(got[3]?.seq).toBe(3);
  });
});

describe('ticket request failures', () => {
  const failing = (statuses: number[], wsUrl: string) => {
    const calls: number[] = [];
    const stream = connectStream(
      {
        wsUrl,
        ticket: async () => {
          const status = statuses[calls.length];
          calls.push(status ?? 200);
          if (status !== undefined) throw Object.assign(new Error(`HTTP ${status}`), { status });
          return { ticket: 't', expiresAt: T };
        },
        async *listOrders() {},
      },
      { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } },
    );
    cleanups.push(() => stream.close());
    return { stream, calls };
  };

  it('a refusal (401) ends the stream at once with that error instead of retrying forever', async () => {
    const server = await scriptedServer(() => {});
    const { stream, calls } = failing([401, 401, 401], server.wsUrl);
    const market = stream.market();
    await expect(market.next()).rejects.toMatchObject({ message: 'HTTP 401', status: 401 });
    expect(stream.state).toBe('closed');
    expect(calls).toEqual([401]);
    expect(server.connections()).toBe(0);
  });

  it('transient failures (503, 429) are retried with backoff', async () => {
    const server = await scriptedServer((send, f) => {
      if (f.op === 'subscribe') send({ type: 'subscribed', channel: 'market', id: f.id, seq: 0, ts: T });
    });
    const { stream, calls } = failing([503, 429], server.wsUrl);
    stream.market();
    await until(() => stream.state === 'open', 'open');
    expect(calls).toEqual([503, 429, 200]);
  });
});

describe('close() during a failing reconciliation', () => {
  it('ends the retry pause at once: no timer outlives the stream', async () => {
    const server = await scriptedServer((send, f) => {
      if (f.op !== 'subscribe') return;
      send({ type: 'subscribed', channel: 'account', id: f.id, seq: 0, ts: T });
      send(ev('account', 2, 'balance.updated', { accountId: 'a' }));
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    let listCalls = 0;
    const stream = connectStream(
      {
        wsUrl: server.wsUrl,
        ticket: async () => ({ ticket: 't', expiresAt: T }),
        // biome-ignore lint/correctness/useYield: fails before yielding, like a REST outage
        async *listOrders(query) {
          // The open-orders read of the subscription fails too; count the resync's reads only.
          if (query.status === undefined) listCalls += 1;
          throw new Error('REST down');
        },
      },
      // The retry pause after a failed reconciliation would be 30 s to 60 s.
      { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } },
    );
    const account = stream.account();
    expect((await take(account, 1))[0]?.event).toBe('stream.resync');
    await until(() => listCalls === 1, 'the first reconciliation attempt');
    await stream.close();
    await expect(account.next()).resolves.toEqual({ value: undefined, done: true });
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('server memory per socket', () => {
  it('drops a socket that stopped reading once its unsent data passes maxBufferedBytes', async () => {
    const { WebSocket } = await import('ws');
    const { sim, server } = await fakeVenue({ maxBufferedBytes: 256 * 1024 });
    const { ticket } = await sim.tickets.issue('entity-a');
    const ws = new WebSocket(`${server.wsUrl}/v1/match/ws`, [SUBPROTOCOL, `ticket.${ticket}`]);
    cleanups.push(async () => ws.terminate());
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => server.handle.stats().market === 1, 'the subscription');
    ws.pause();
    const closed = new Promise((resolve) => ws.once('close', resolve));
    // 32 MiB: more than loopback's kernel buffers can hide.
    const pad = 'x'.repeat(1024);
    for (let i = 0; i < 32 * 1024 && server.handle.stats().connections > 0; i++)
      sim.emit({ channel: 'market', event: 'auction.opened', data: { i, pad } });
    expect(server.handle.stats()).toEqual({ connections: 0, market: 0, account: 0 });
    ws.resume();
    await closed;
  });
});

describe('server heartbeat', () => {
  it('terminates a socket that stops answering WebSocket pings', async () => {
    const { WebSocket } = await import('ws');
    const { sim, server } = await fakeVenue({ heartbeatIntervalMs: 5 });
    const { ticket } = await sim.tickets.issue('entity-a');
    const ws = new WebSocket(`${server.wsUrl}/v1/match/ws`, [SUBPROTOCOL, `ticket.${ticket}`], {
      autoPong: false,
    });
    cleanups.push(async () => ws.terminate());
    // Listen before 'open' resolves: at a 5 ms heartbeat the first ping can arrive in that gap.
    let pings = 0;
    ws.on('ping', () => {
      pings += 1;
    });
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    await new Promise((resolve) => ws.once('open', resolve));
    const code = await closed;
    expect(code).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
  });
});
