import type { Orders, Stream } from 'match-venue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { burnParams, clientOf, collect, mintParams, type Rig, startRig, until } from './helpers.js';

// The spec's `fill` is "Null until the order is matched"; the owner's docs, that "a `fill` object
// appears once matched". An order whose auction cleared without matching any of it has no fill in
// REST, on the socket and in the mirror, whatever its status (settling, unfilled, cancelled by its
// election, rolled); one that matched some has a fill whose filledAmount is above zero.

let rig: Rig;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  rig = await startRig(1024);
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await rig.close();
});

describe('fill: null until the order is matched', () => {
  it('REST, the account channel and the mirror show no fill on an order that matched nothing', async () => {
    const minter = clientOf(rig, 'minter');
    const burner = clientOf(rig, 'burner');
    const mirror = minter.account.mirror();
    cleanups.push(() => mirror.close());
    const changes = collect(mirror);
    cleanups.push(() => changes.stop());
    const stream = minter.stream.connect();
    cleanups.push(() => stream.close());
    const frames: Stream.StreamOrder[] = [];
    const events = (async () => {
      for await (const ev of stream.account())
        if (ev.event === 'order.updated' || ev.event === 'order.accepted')
          frames.push(ev.data as Stream.StreamOrder);
    })();
    await mirror.ready;
    // The mirror's and the stream's account subscriptions are both in place before any order.
    await until(() => rig.extra.handle.stats().account >= 2, 'both account subscriptions');

    // MINT 300 at 4 meets BURN 100 at 6: 100 matched, 200 rolled. MINT 100 at 9 asks a rebate no
    // BURN pays (rule 1: eligible at c >= 9, the BURN at c <= 6): it matches nothing, and so does
    // the roll order MINT 100 at 9.
    const partial = await minter.orders.place(mintParams('300', '4', 'roll'));
    const cancelled = await minter.orders.place(mintParams('100', '9', 'cancel'));
    const rolled = await minter.orders.place(mintParams('100', '9', 'roll'));
    await burner.orders.place(burnParams('100', '6'));

    // Cleared, not yet settled: the unmatched orders are settling with no fill.
    rig.venue.sim.clearAuction({ settle: false });
    const settling = await minter.orders.retrieve(cancelled.orderId);
    expect(settling).toMatchObject({ status: 'settling', fill: null });
    rig.venue.sim.settleAuction();

    const rest = new Map<string, Orders.Order>();
    for (const id of [partial.orderId, cancelled.orderId, rolled.orderId])
      rest.set(id, await minter.orders.retrieve(id));
    expect(rest.get(partial.orderId)).toMatchObject({
      status: 'partial_fill',
      fill: { filledAmount: { amount: '100.00' }, unfilledAmount: { amount: '200.00' } },
    });
    expect(rest.get(cancelled.orderId)).toMatchObject({ status: 'cancelled', fill: null });
    const rolledOrder = rest.get(rolled.orderId)!;
    expect(rolledOrder).toMatchObject({ status: 'unfilled', fill: null });
    expect(rolledOrder.lineage.childOrderId).not.toBeNull();

    // The socket said the same in every frame: a fill only on the matched order, never of 0.
    await until(
      () => frames.filter((f) => f.status !== 'pending' && f.status !== 'settling').length >= 3,
      'the three final frames',
    );
    for (const frame of frames) {
      if (frame.orderId === partial.orderId && frame.status !== 'pending') {
        expect(frame.fill).toMatchObject({ filledAmount: { amount: '100.00' } });
      } else {
        expect(frame.fill).toBeNull();
      }
    }
    // And the mirror: every version of the unmatched orders it reported had no fill.
    await until(() => mirror.order(rolled.orderId)?.status === 'unfilled', 'the mirror to show the roll');
    const versions = changes.changes.flatMap((c) => (c.kind === 'order' ? [c.order] : []));
    const unmatched = versions.filter((o) => o.orderId === cancelled.orderId || o.orderId === rolled.orderId);
    expect(unmatched.map((o) => o.status)).toEqual(
      expect.arrayContaining(['settling', 'cancelled', 'unfilled']),
    );
    for (const o of unmatched) expect(o.fill).toBeNull();
    expect(mirror.order(rolled.orderId)).toEqual(rolledOrder);
    stream.close();
    await events;
  });

  it('over random books, an order has a fill exactly when some of it matched', async () => {
    const minter = clientOf(rig, 'minter');
    const burner = clientOf(rig, 'burner');
    const ids: string[] = [];
    // A fixed spread of limits on both sides: some cross, some do not, some are market orders.
    for (let round = 0; round < 4; round++) {
      for (const fee of ['2', '5', '8', null] as const) {
        ids.push((await minter.orders.place({ ...mintParams(`${100 * (round + 1)}`), feeBps: fee })).orderId);
        await burner.orders.place({ ...burnParams(`${100 * (4 - round)}`), feeBps: fee });
      }
      rig.venue.sim.clearAuction();
    }
    let matched = 0;
    let unmatched = 0;
    for (const id of ids) {
      const o = await minter.orders.retrieve(id);
      if (o.fill === null) {
        unmatched++;
        expect(['unfilled', 'cancelled']).toContain(o.status);
      } else {
        matched++;
        expect(o.fill.filledAmount.amount).not.toBe('0.00');
        expect(['filled', 'partial_fill']).toContain(o.status);
      }
    }
    expect(matched).toBeGreaterThan(0);
    expect(unmatched).toBeGreaterThan(0);
  });
});
