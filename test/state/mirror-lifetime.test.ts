import { randomUUID } from 'node:crypto';
import { type MatchVenue, OrderFinalError, usd } from 'match-venue';
import type { MirrorChange } from '../../src/state/index.js';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientOf, collect, mintParams, type Rig, simWithdrawal, startRig, until } from './helpers.js';
import { apiClientOf } from '../../src/client/match-venue.js';

// What leaves the mirror and what becomes of unknown keys: the retention window, keys whose place
// or withdrawal may have landed, and why withdrawals are not re-read by re-sending their create.

let rig: Rig;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  rig = await startRig(1024);
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await rig.close();
});

function mirrorOf(client: MatchVenue, options: Parameters<MatchVenue['account']['mirror']>[0] = {}) {
  const mirror = client.account.mirror(options);
  cleanups.push(() => mirror.close());
  return mirror;
}

const unknownRows = (changes: MirrorChange[]) =>
  changes.flatMap((c) => (c.kind === 'unknown' ? [[c.entry.key, c.entry.operation, c.entry.state]] : []));

describe('retention', () => {
  it('a final order stays for the window, then leaves with an order.removed; waitFor answers it from REST', async () => {
    const minter = clientOf(rig, 'minter');
    const mirror = mirrorOf(minter, { retentionMs: 1_000 });
    await mirror.ready;
    const seen = collect(mirror);
    const open = await minter.orders.place(mintParams('100', '1'));
    const x = await minter.orders.place(mintParams('200', '2'));
    await minter.orders.cancel({ auctionId: x.auctionId, orderId: x.orderId });
    await until(() => mirror.order(x.orderId)?.status === 'cancelled', 'the cancel');
    const finalAt = Date.now();
    expect(mirror.orders({ open: false }).map((o) => o.orderId)).toEqual([x.orderId]);
    await until(() => mirror.order(x.orderId) === undefined, 'retirement');
    // This test sees the cancel after the mirror does (by its polling lag, which a loaded machine
    // stretches): the bound leaves 300 ms of it.
    expect(Date.now() - finalAt).toBeGreaterThanOrEqual(700);
    // The open order stays, however long.
    expect(mirror.orders().map((o) => o.orderId)).toEqual([open.orderId]);
    await seen.stop();
    const removed = seen.changes.filter((c) => c.kind === 'order.removed');
    expect(removed.map((c) => [c.order.orderId, c.order.status])).toEqual([[x.orderId, 'cancelled']]);
    expect(seen.changes.at(-1)?.kind).toBe('order.removed');

    const reads = rig.wire.requests.length;
    await expect(mirror.waitFor(x.orderId, (o) => o.status === 'cancelled')).resolves.toEqual(
      await minter.orders.retrieve(x.orderId),
    );
    expect(rig.wire.requests.slice(reads)).toContain(`GET /v1/match/orders/${x.orderId}`);
    // Final and refused: it will not change again, so the wait ends instead of hanging.
    const refused = await mirror.waitFor(x.orderId, (o) => o.status === 'filled').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OrderFinalError);
    expect((refused as OrderFinalError).order.status).toBe('cancelled');
  });

  it('a final withdrawal leaves after the window too', async () => {
    const minter = clientOf(rig, 'minter');
    const mirror = mirrorOf(minter, { retentionMs: 200 });
    await mirror.ready;
    const w = await minter.withdrawals.create({
      amount: usd('10'),
      fiatAccountId: SEEDED.minter.fiatAccountId,
    });
    rig.venue.sim.advance(3000);
    await until(() => mirror.withdrawal(w.id)?.withdrawal.status === 'completed', 'completed');
    await until(() => mirror.withdrawal(w.id) === undefined, 'retirement');
    expect(mirror.withdrawals()).toEqual([]);
  });

  it('waitFor resolves on the change it waits for, and times out with the last state seen', async () => {
    const minter = clientOf(rig, 'minter');
    const mirror = mirrorOf(minter);
    await mirror.ready;
    const x = await minter.orders.place(mintParams('100', '1'));
    const fee3 = mirror.waitFor(x.orderId, (o) => o.feeBps === '3', { timeout: 5000 });
    await minter.orders.modify({ auctionId: x.auctionId, orderId: x.orderId, feeBps: '2' });
    await minter.orders.modify({ auctionId: x.auctionId, orderId: x.orderId, feeBps: '3' });
    expect((await fee3).feeBps).toBe('3');
    const late = await mirror
      .waitFor(x.orderId, (o) => o.status === 'filled', { timeout: 50 })
      .catch((e: unknown) => e);
    expect(late).toMatchObject({ kind: 'MV_WAIT_TIMEOUT', orderId: x.orderId, lastSeen: { feeBps: '3' } });
    const controller = new AbortController();
    const aborted = mirror.waitFor(x.orderId, () => false, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ kind: 'MV_ABORTED' });
    const closing = mirror.waitFor(x.orderId, () => false).catch((e: unknown) => e);
    await mirror.close();
    expect(await closing).toMatchObject({ kind: 'MV_ABORTED', message: 'The mirror was closed.' });
  });
});

describe('keys with an unknown outcome', () => {
  it('a place key becomes the order when it shows up; one that never does becomes a final absence at settlesAt', async () => {
    const minter = clientOf(rig, 'minter', { settleWindowMs: 400 });
    const mirror = mirrorOf(minter);
    await mirror.ready;
    const seen = collect(mirror);
    const landed = mintParams('100', '1');
    const lost = mintParams('100', '2');
    // As the pipeline records an attempt that may have reached the venue.
    apiClientOf(minter).unknownKeys.markAmbiguous(landed.idempotencyKey, 'placeOrder', landed);
    apiClientOf(minter).unknownKeys.markAmbiguous(lost.idempotencyKey, 'placeOrder', lost);
    expect(mirror.unknown().map((e) => [e.key, e.state])).toEqual([
      [landed.idempotencyKey, 'unknown'],
      [lost.idempotencyKey, 'unknown'],
    ]);
    await minter.orders.place(landed);
    await until(() => mirror.unknown().length === 1, 'the landed key found');
    expect(mirror.order(landed.idempotencyKey)?.status).toBe('pending');
    await until(() => mirror.unknown().length === 0, 'the lost key settled');
    await seen.stop();
    expect(unknownRows(seen.changes)).toEqual([
      [landed.idempotencyKey, 'placeOrder', 'unknown'],
      [lost.idempotencyKey, 'placeOrder', 'unknown'],
      [landed.idempotencyKey, 'placeOrder', 'found'],
      [lost.idempotencyKey, 'placeOrder', 'absent'],
    ]);
    // The order change comes before the entry says it was found.
    const orderAt = seen.changes.findIndex(
      (c) => c.kind === 'order' && c.order.orderId === landed.idempotencyKey,
    );
    const foundAt = seen.changes.findIndex((c) => c.kind === 'unknown' && c.entry.state === 'found');
    expect(orderAt).toBeGreaterThanOrEqual(0);
    expect(orderAt).toBeLessThan(foundAt);
    // The absence was checked over REST, not assumed.
    expect(rig.wire.requests).toContain(`GET /v1/match/orders/${lost.idempotencyKey}`);
  });

  it('a key whose order the mirror missed is found over REST at settlesAt', async () => {
    const minter = clientOf(rig, 'minter', { settleWindowMs: 300 });
    const other = clientOf(rig, 'minter');
    const params = mintParams('100', '1');
    // Placed before the mirror started and final before it read the open orders: not in view.
    const placed = await other.orders.place(params);
    await other.orders.cancel({ auctionId: placed.auctionId, orderId: placed.orderId });
    apiClientOf(minter).unknownKeys.markAmbiguous(params.idempotencyKey, 'placeOrder', params);
    const mirror = mirrorOf(minter);
    await mirror.ready;
    expect(mirror.unknown().map((e) => e.state)).toEqual(['unknown']);
    await until(() => mirror.unknown().length === 0, 'settled');
    expect(mirror.order(placed.orderId)).toEqual(await minter.orders.retrieve(placed.orderId));
  });

  it('a withdrawal key: found by its event; absent after its window when the mirror saw every event', async () => {
    const minter = clientOf(rig, 'minter', { settleWindowMs: 300 });
    const mirror = mirrorOf(minter);
    await mirror.ready;
    const seen = collect(mirror);
    const landed = {
      idempotencyKey: randomUUID(),
      amount: usd('5'),
      fiatAccountId: SEEDED.minter.fiatAccountId,
    };
    const lost = randomUUID();
    apiClientOf(minter).unknownKeys.markAmbiguous(landed.idempotencyKey, 'createWithdrawal', landed);
    apiClientOf(minter).unknownKeys.markAmbiguous(lost, 'createWithdrawal', {});
    // Created by another client: the mirror learns of it from its event only.
    await clientOf(rig, 'minter').withdrawals.create(landed);
    await until(() => mirror.unknown().length === 0, 'both settled');
    await seen.stop();
    expect(unknownRows(seen.changes).filter((r) => r[2] !== 'unknown')).toEqual([
      [landed.idempotencyKey, 'createWithdrawal', 'found'],
      [lost, 'createWithdrawal', 'absent'],
    ]);
    expect(mirror.withdrawal(landed.idempotencyKey)?.withdrawal).toEqual(
      simWithdrawal(rig.venue, landed.idempotencyKey),
    );
  });
});

describe('withdrawals cannot be re-read by re-sending their create', () => {
  it('the simulator answers a keyed re-send with the frozen creation body, not the current state', async () => {
    const minter = clientOf(rig, 'minter');
    const params = {
      idempotencyKey: randomUUID(),
      amount: usd('7'),
      fiatAccountId: SEEDED.minter.fiatAccountId,
    };
    const first = await minter.withdrawals.create(params);
    rig.venue.sim.advance(1000);
    expect(simWithdrawal(rig.venue, first.id)?.status).toBe('processing');
    // So the mirror does not re-send creates after a resync (docs/STATE.md): it marks them stale.
    expect(await minter.withdrawals.create(params)).toEqual(first);
    expect(first.status).toBe('pending');
  });
});
