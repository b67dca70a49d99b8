import { InvalidArgumentError, type MatchVenue, usd, ValidationError } from 'match-venue';
import type { Order } from '../../src/generated/models.js';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  burnParams,
  clientOf,
  collect,
  mintParams,
  orderRows,
  outage,
  type Rig,
  simWithdrawal,
  startRig,
  until,
} from './helpers.js';

// The account mirror against the simulator on its manual clock: what it holds after `ready`, and
// that it stays equal to the venue across a dropped socket and a resync.

let rig: Rig;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await rig.close();
});

function mirrorOf(client: MatchVenue, options: Parameters<MatchVenue['account']['mirror']>[0] = {}) {
  const mirror = client.account.mirror({
    streamOptions: { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } },
    ...options,
  });
  cleanups.push(() => mirror.close());
  return mirror;
}

/** Every open order of the client over REST, oldest first, as the mirror sorts. */
async function restOpenOrders(client: MatchVenue): Promise<Order[]> {
  const out: Order[] = [];
  for (const status of ['pending', 'settling'] as const)
    for await (const order of client.orders.list({ status, pageSize: 100 })) out.push(order);
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.orderId.localeCompare(b.orderId));
}

const withdrawTo = SEEDED.minter.fiatAccountId;

describe('account mirror: the view equals the venue', () => {
  it('after ready: open orders (pending and settling), the summary and the withdrawals, field by field', async () => {
    const minter = clientOf(rig, 'minter');
    const burner = clientOf(rig, 'burner');
    const done = await minter.orders.place(mintParams('100'));
    await minter.orders.cancel({ auctionId: done.auctionId, orderId: done.orderId });
    // Auction 1 clears without settling: a partly matched roll order sits in `settling`.
    const rolled = await minter.orders.place(mintParams('200', '4', 'roll'));
    await burner.orders.place(burnParams('100'));
    rig.venue.sim.clearAuction({ settle: false });
    const pending = await minter.orders.place(mintParams('300', '3'));

    const mirror = mirrorOf(minter);
    await mirror.ready;
    const rest = await restOpenOrders(minter);
    expect(rest.map((o) => [o.orderId, o.status])).toHaveLength(2);
    expect(rest.map((o) => [o.orderId, o.status])).toEqual(
      expect.arrayContaining([
        [rolled.orderId, 'settling'],
        [pending.orderId, 'pending'],
      ]),
    );
    expect(mirror.orders()).toEqual(rest);
    // An order final before the mirror started is not part of the view.
    expect(mirror.order(done.orderId)).toBeUndefined();
    expect(mirror.summary).toEqual(await minter.account.retrieve());
    expect(mirror.orders({ status: 'settling' }).map((o) => o.orderId)).toEqual([rolled.orderId]);
    expect(mirror.orders({ orderType: 'BURN' })).toEqual([]);
    expect(mirror.orders({ auctionId: pending.auctionId, open: true }).map((o) => o.orderId)).toEqual([
      pending.orderId,
    ]);

    // A withdrawal made through this client enters the view, then follows its events.
    const summaryAtReady = mirror.summary;
    const w = await minter.withdrawals.create({ amount: usd('250'), fiatAccountId: withdrawTo });
    await until(() => mirror.withdrawal(w.id) !== undefined, 'the withdrawal in view');
    expect(mirror.withdrawal(w.id)).toEqual({ withdrawal: simWithdrawal(rig.venue, w.id), stale: false });
    const before = (await minter.account.retrieve()).stablecoin.available;
    await until(
      () => mirror.summary?.stablecoin.available.amount === before.amount,
      'the summary after the withdrawal',
    );
    expect(mirror.summary).toEqual(await minter.account.retrieve());
    expect(mirror.summary).not.toEqual(summaryAtReady);

    rig.venue.sim.advance(1000);
    await until(() => mirror.withdrawal(w.id)?.withdrawal.status === 'processing', 'processing');
    expect(mirror.withdrawal(w.id)?.withdrawal).toEqual(simWithdrawal(rig.venue, w.id));
    rig.venue.sim.advance(2000);
    await until(() => mirror.withdrawal(w.id)?.withdrawal.status === 'completed', 'completed');
    expect(mirror.withdrawals()).toEqual([{ withdrawal: simWithdrawal(rig.venue, w.id), stale: false }]);
    // Auction 1 settles: the roll order goes final, its child rests in the open auction.
    rig.venue.sim.settleAuction();
    await until(() => mirror.order(rolled.orderId)?.status === 'partial_fill', 'the roll settled');
    expect(mirror.orders()).toEqual(
      [...(await restOpenOrders(minter)), await minter.orders.retrieve(rolled.orderId)].sort(
        (a, b) => a.createdAt.localeCompare(b.createdAt) || a.orderId.localeCompare(b.orderId),
      ),
    );
    await until(
      () => mirror.summary?.activity.to === new Date(rig.venue.sim.now()).toISOString(),
      'the last summary',
    );
    expect(mirror.summary).toEqual(await minter.account.retrieve());
  });

  it('fee changes within one millisecond of the manual clock: each state once, in order', async () => {
    const minter = clientOf(rig, 'minter');
    const mirror = mirrorOf(minter);
    await mirror.ready;
    const seen = collect(mirror);
    const x = await minter.orders.place(mintParams('100', '1'));
    for (const fee of ['2', '3', '4', '5'])
      await minter.orders.modify({ auctionId: x.auctionId, orderId: x.orderId, feeBps: fee });
    await until(() => mirror.order(x.orderId)?.feeBps === '5', 'the last fee');
    await seen.stop();
    expect(orderRows(seen.changes)).toEqual(
      ['1', '2', '3', '4', '5'].map((fee) => [x.orderId, 'pending', fee, 'stream']),
    );
    expect(seen.changes.map((c) => c.seq)).toEqual(
      seen.changes.map((_, i) => (seen.changes[0]?.seq ?? 0) + i),
    );
    expect(mirror.order(x.orderId)).toEqual(await minter.orders.retrieve(x.orderId));
  });
});

describe('account mirror: across lost sockets', () => {
  it('a killed socket (replay available): every change once, in order, and the summary re-read after the reconnect', async () => {
    const big = await startRig(1024);
    cleanups.push(() => big.close());
    const minter = clientOf(big, 'minter');
    const stream = minter.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    cleanups.push(() => stream.close());
    const mirror = mirrorOf(minter, { stream });
    await mirror.ready;
    const seen = collect(mirror);
    const x = await minter.orders.place(mintParams('100', '1'));
    await until(() => mirror.order(x.orderId) !== undefined, 'x in view');
    const reads = () => big.wire.requests.filter((r) => r === 'GET /v1/match/account').length;
    const readsBefore = reads();
    await outage(big, async () => {
      await minter.orders.modify({ auctionId: x.auctionId, orderId: x.orderId, feeBps: '2' });
      await minter.orders.cancel({ auctionId: x.auctionId, orderId: x.orderId });
    });
    await until(() => mirror.order(x.orderId)?.status === 'cancelled', 'the cancel, replayed');
    await until(() => reads() > readsBefore, 'the summary re-read');
    await until(
      () =>
        JSON.stringify(mirror.summary) ===
        JSON.stringify(seen.changes.findLast((c) => c.kind === 'summary')?.summary),
      'settled',
    );
    await seen.stop();
    expect(stream.stats().resyncs).toBe(0);
    expect(orderRows(seen.changes)).toEqual([
      [x.orderId, 'pending', '1', 'stream'],
      [x.orderId, 'pending', '2', 'stream'],
      [x.orderId, 'cancelled', '2', 'stream'],
    ]);
    expect(seen.changes.map((c) => c.seq)).toEqual(
      seen.changes.map((_, i) => (seen.changes[0]?.seq ?? 0) + i),
    );
    expect(mirror.summary).toEqual(await minter.account.retrieve());
  });

  it('a gap the server cannot replay: the missed order change comes from the stream, the missed balance from the re-read, the withdrawal turns stale', async () => {
    const minter = clientOf(rig, 'minter');
    const stream = minter.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    cleanups.push(() => stream.close());
    const mirror = mirrorOf(minter, { stream });
    await mirror.ready;
    const w = await minter.withdrawals.create({ amount: usd('40'), fiatAccountId: withdrawTo });
    await until(() => mirror.withdrawal(w.id) !== undefined, 'the withdrawal in view');
    const seen = collect(mirror);
    const summaryBefore = mirror.summary;
    let x = '';
    await outage(rig, async () => {
      // Missed: order.accepted, balance.updated (twice), order.updated, withdrawal.updated.
      const placed = await minter.orders.place(mintParams('500', '2'));
      x = placed.orderId;
      await minter.orders.cancel({ auctionId: placed.auctionId, orderId: x });
      rig.venue.sim.advance(1000);
      await minter.withdrawals
        .create({ amount: usd('60'), fiatAccountId: withdrawTo, idempotencyKey: w.id })
        .catch(() => undefined);
    });
    await until(() => mirror.order(x)?.status === 'cancelled', 'the order from the resync');
    await until(
      () => mirror.summary?.activity.to === new Date(rig.venue.sim.now()).toISOString(),
      'the re-read summary',
    );
    expect(stream.stats().resyncs).toBe(1);
    expect(mirror.summary).toEqual(await minter.account.retrieve());
    expect(mirror.summary).not.toEqual(summaryBefore);
    // Pending when last seen; the venue has it processing, and no GET could tell: stale until its next event.
    expect(mirror.withdrawal(w.id)).toEqual({
      withdrawal: {
        ...simWithdrawal(rig.venue, w.id),
        status: 'pending',
        updatedAt: mirror.withdrawal(w.id)?.withdrawal.updatedAt,
      },
      stale: true,
    });
    rig.venue.sim.advance(2000);
    await until(() => mirror.withdrawal(w.id)?.stale === false, 'the next withdrawal event');
    expect(mirror.withdrawal(w.id)).toEqual({ withdrawal: simWithdrawal(rig.venue, w.id), stale: false });
    await until(
      () => mirror.summary?.activity.to === new Date(rig.venue.sim.now()).toISOString(),
      'the last summary',
    );
    await seen.stop();
    expect(orderRows(seen.changes)).toEqual([[x, 'cancelled', '2', 'rest']]);
    const kinds = seen.changes.map((c) => `${c.kind}:${'source' in c ? c.source : ''}`);
    expect(kinds.filter((k) => k.startsWith('withdrawal'))).toEqual(['withdrawal:rest', 'withdrawal:stream']);
    expect(kinds).toContain('summary:rest');
    expect(seen.changes.map((c) => c.seq)).toEqual(
      seen.changes.map((_, i) => (seen.changes[0]?.seq ?? 0) + i),
    );
    expect(mirror.summary).toEqual(await minter.account.retrieve());
  });
});

describe('account mirror: input', () => {
  it('names the option or argument it cannot use', async () => {
    const minter = clientOf(rig, 'minter');
    expect(() => minter.account.mirror({ retentionMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => minter.account.mirror({ retentionMs: Number.NaN })).toThrow(/retentionMs/);
    expect(() => minter.account.mirror({ changesBufferSize: 0 })).toThrow(/changesBufferSize/);
    expect(() => minter.account.mirror({ settlementHoldMs: -1 })).toThrow(
      'account.mirror: settlementHoldMs must be a non-negative number of milliseconds, got -1',
    );
    const closed = minter.stream.connect();
    await closed.close();
    expect(() => minter.account.mirror({ stream: closed })).toThrow(/stream must be an open VenueStream/);
    const mirror = mirrorOf(minter);
    expect(() => mirror.orders({ status: 'open' as never })).toThrow(/filter\.status/);
    expect(() => mirror.orders({ orderType: 'SELL' as never })).toThrow(/filter\.orderType/);
    expect(() => mirror.orders({ auctionId: 1.5 })).toThrow(/filter\.auctionId/);
    const sent = rig.wire.requests.length;
    await expect(mirror.waitFor('nope', () => true)).rejects.toThrow(ValidationError);
    await expect(mirror.waitFor(SEEDED.minter.fiatAccountId, 'x' as never)).rejects.toThrow(/predicate/);
    await expect(mirror.waitFor(SEEDED.minter.fiatAccountId, () => true, { timeout: -5 })).rejects.toThrow(
      /timeout/,
    );
    // Nothing of it was sent (the mirror's own reads aside).
    expect(rig.wire.requests.slice(sent).filter((r) => r.includes(SEEDED.minter.fiatAccountId))).toEqual([]);
  });
});
