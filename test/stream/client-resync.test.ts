import { describe, expect, it } from 'vitest';
import { extraSocketServer, placeOrder, take, until } from './helpers.js';
import { accountReady, open } from './client-venue.js';
import { cleanups, useVenue, venue } from './venue-per-test.js';

useVenue();

describe('connectStream against the simulator', () => {
  it('resyncs over REST when the server cannot replay: explicit resync event, then every missed order change once', async () => {
    const extra = await extraSocketServer(venue.sim, { replayBufferSize: 1 });
    cleanups.push(() => extra.close());
    const { stream, host } = open('burner', {}, extra.wsUrl);
    const account = await accountReady(stream);
    const first = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await take(account, 2)).map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);

    let release = () => {};
    host.gate = new Promise<void>((r) => {
      release = r;
    });
    extra.handle.killSockets();
    await until(() => stream.state === 'reconnecting', 'reconnecting');
    const missed = [
      await placeOrder(venue.url, 'burner', 'BURN'),
      await placeOrder(venue.url, 'burner', 'BURN'),
      await placeOrder(venue.url, 'burner', 'BURN'),
    ];
    host.gate = undefined;
    release();

    const [resync, ...synthesized] = await take(account, 4);
    expect(resync).toMatchObject({
      event: 'stream.resync',
      channel: 'account',
      data: { reason: 'replay-unavailable', lastSeq: 2, resumedAtSeq: 8 },
    });
    expect(
      synthesized.map((e) =>
        [e.event, (e as { source?: string }).source, (e.data as { orderId: string }).orderId].join(),
      ),
    ).toEqual(expect.arrayContaining(missed.map((id) => ['order.updated', 'rest', id].join())));
    expect(synthesized).toHaveLength(3);
    expect(JSON.stringify(synthesized)).not.toContain(first);

    // The live feed resumes after the resync, numbered from the server's seq.
    const later = await placeOrder(venue.url, 'burner', 'BURN');
    const live = await take(account, 2);
    expect(live.map((e) => [e.event, e.seq])).toEqual([
      ['order.accepted', 9],
      ['balance.updated', 10],
    ]);
    expect(live[0]?.data).toMatchObject({ orderId: later });
    expect(stream.stats().resyncs).toBe(1);
  });

  it('resync reports an order whose status changed while away (filled), once, with its latest state', async () => {
    const extra = await extraSocketServer(venue.sim, { replayBufferSize: 1 });
    cleanups.push(() => extra.close());
    const { stream, host } = open('burner', {}, extra.wsUrl);
    const account = await accountReady(stream);
    const burn = await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    const seen = await take(account, 2);
    expect(seen.map((e) => [e.event, (e.data as { status?: string }).status])).toEqual([
      ['order.accepted', 'pending'],
      ['balance.updated', undefined],
    ]);

    let release = () => {};
    host.gate = new Promise<void>((r) => {
      release = r;
    });
    extra.handle.killSockets();
    await until(() => stream.state === 'reconnecting', 'reconnecting');
    // Cleared, settled and a new auction opened: settling and filled both happen while away.
    venue.sim.clearAuction();
    host.gate = undefined;
    release();

    const [resync, fromRest] = await take(account, 2);
    expect(resync).toMatchObject({ event: 'stream.resync', data: { reason: 'replay-unavailable' } });
    expect(fromRest).toMatchObject({
      event: 'order.updated',
      source: 'rest',
      data: {
        orderId: burn,
        status: 'filled',
        fill: { filledAmount: { amount: '1000.00', currency: 'USD' } },
      },
    });
    // Nothing else was synthesized: the next event is live.
    const next = await placeOrder(venue.url, 'burner', 'BURN');
    const [live] = await take(account, 1);
    expect(live).toMatchObject({ event: 'order.accepted', data: { orderId: next } });
    expect(live).not.toHaveProperty('source');
  });
});
