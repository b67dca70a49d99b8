import { describe, expect, it } from 'vitest';
import { connectStream } from '../../src/stream/index.js';
import { extraSocketServer, take, until } from './socket-server.js';
import { burst, cleanups, fakeVenue, useCleanups } from './flow-servers.js';

useCleanups();

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
