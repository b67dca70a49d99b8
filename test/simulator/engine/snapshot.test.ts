import { describe, expect, it } from 'vitest';
import { exportEngineState, type SnapshotTime } from '../../../src/simulator/engine/snapshot.js';
import type { EngineState } from '../../../src/simulator/engine/state.js';
import { key, MINTER, newDriver } from '../helpers.js';

// Small enough to be quick, busy enough to leave roll children, fallbacks and failed orders behind.
const MARKET = { preset: 'busy', noise: { count: 30 }, liquidity: { count: 2 } } as const;

/**
 * The document as exportEngineState built it before its loops (spreads and Object.fromEntries,
 * shared objects): its JSON text is what the store's checkpoints and POST /_sim/snapshot wrote,
 * and the loops must write the same text, byte for byte.
 */
function referenceExport(s: EngineState) {
  const toTime = (t: number): SnapshotTime => (t === Number.POSITIVE_INFINITY ? 'Infinity' : t);
  return {
    entities: [...s.entities.values()],
    wallets: [...s.wallets.values()],
    fiatAccounts: [...s.fiatAccounts.values()],
    orders: [...s.orders.values()].map(({ clearedIn, ...o }) => ({
      ...o,
      clearedIn: clearedIn?.auctionId ?? null,
    })),
    ordersByEntity: Object.fromEntries(
      [...s.ordersByEntity].map(([id, list]) => [id, list.map((o) => o.orderId)]),
    ),
    auctions: [...s.auctions.values()].map((a) => ({
      ...a,
      locksAt: toTime(a.locksAt),
      clearsAt: toTime(a.clearsAt),
      settleAt: a.settleAt === null ? null : toTime(a.settleAt),
      orders: a.orders.map((o) => o.orderId),
      pending: Object.fromEntries(a.pending),
      placed: Object.fromEntries(a.placed),
    })),
    currentAuctionId: s.currentAuctionId,
    settlingAuctionId: s.settlingAuctionId,
    lastClearedAuctionId: s.lastClearedAuctionId,
    withdrawals: [...s.withdrawals.values()],
    activeWithdrawals: [...s.activeWithdrawals],
    fallbacks: s.fallbacks.map((o) => o.orderId),
    wires: s.wires,
    house: { ...s.house },
    issuer: { ...s.issuer },
    initialTotals: { ...s.initialTotals },
    seededLedgers: s.seededLedgers,
    exposure: Object.fromEntries(s.exposure),
    activity: Object.fromEntries(s.activity),
  };
}

/** A busy market's state with every kind of order the document holds, and withdrawals. */
async function busyState() {
  const d = newDriver({ market: MARKET, seed: 7 });
  // Failed settlements leave failed orders and counterparties the house absorbed.
  d.sim.setFaults({ failSettlement: 0.1 });
  for (let i = 0; i < 6; i++) {
    // The payout processor moves the earlier withdrawals on (processing after 1 s, done after 3 s).
    d.sim.advance(1_500);
    await d.placed(d.burn('2500.00', { feeBps: '6', postFillAction: i % 2 ? 'roll' : 'fallback' }));
    const withdrawal = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, {
      idempotencyKey: key(),
      amount: { amount: '10.00', currency: 'USD' },
      fiatAccountId: MINTER.fiatAccountId,
    });
    expect(withdrawal.status).toBe(201);
    // Every third auction is left settling on demand (settleAt Infinity) until the next clear.
    await d.clear(i % 3 !== 2);
  }
  expect((await d.wire(MINTER.entityId, '100.00')).status).toBe(200);
  // exportEngineState is the engine's own: it takes the engine's state, not the read-only view.
  return { sim: d.sim, state: d.sim.engine.writableState() };
}

describe('exportEngineState', () => {
  it('writes the JSON text the spreads wrote, shared or copied, on a busy market mid-settlement', async () => {
    const { state } = await busyState();
    const orders = [...state.orders.values()];
    // The state holds what the document must carry: each kind of order and auction, withdrawals.
    expect(orders.filter((o) => o.parentOrderId !== null).length).toBeGreaterThan(0);
    expect(orders.filter((o) => o.clearedIn !== null).length).toBeGreaterThan(0);
    expect(new Set(orders.map((o) => o.status))).toEqual(
      new Set(['pending', 'settling', 'filled', 'partial_fill', 'unfilled', 'cancelled', 'failed']),
    );
    expect(state.fallbacks.length).toBeGreaterThan(0);
    expect(new Set([...state.withdrawals.values()].map((w) => w.status))).toEqual(
      new Set(['pending', 'processing', 'completed']),
    );
    expect(state.activeWithdrawals.size).toBeGreaterThan(0);
    expect(state.wires.length).toBe(1);
    const auctions = [...state.auctions.values()];
    expect(auctions.some((a) => a.settleAt === Number.POSITIVE_INFINITY)).toBe(true);
    expect(auctions.some((a) => a.pending.size > 0 && a.placed.size > 0)).toBe(true);

    const reference = JSON.stringify(referenceExport(state));
    expect(reference.length).toBeGreaterThan(100_000);
    expect(JSON.stringify(exportEngineState(state, true))).toBe(reference);
    expect(JSON.stringify(exportEngineState(state))).toBe(reference);
  });

  it('restores orders and auctions with the keys of new ones, whatever order the document has them in', async () => {
    const { sim, state } = await busyState();
    const text = JSON.stringify(exportEngineState(state));
    const keysOf = (o: object) => Object.keys(o).join();
    // Made by orderRecord and newAuction: the shapes every live order and auction has.
    const orderKeys = keysOf(state.orders.values().next().value ?? {});
    const auctionKeys = keysOf(state.auctions.values().next().value ?? {});
    expect(orderKeys.split(',').at(-1)).toBe('placedLimitCentiBps');
    // The engine's own import, no schema in between to put keys back in order: the document as
    // exported (`clearedIn` last), then with every order's and auction's keys reversed.
    const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;
    const shuffled = sim.engine.exportSnapshot();
    shuffled.state.orders = shuffled.state.orders.map(reversed);
    shuffled.state.auctions = shuffled.state.auctions.map(reversed);
    for (const doc of [sim.engine.exportSnapshot(), shuffled]) {
      const fork = newDriver({ market: MARKET, seed: 7 }).sim;
      fork.engine.importSnapshot(doc);
      const { orders, auctions } = fork.engine.state;
      expect(new Set([...orders.values()].map(keysOf))).toEqual(new Set([orderKeys]));
      expect(new Set([...auctions.values()].map(keysOf))).toEqual(new Set([auctionKeys]));
      expect(JSON.stringify(exportEngineState(fork.engine.writableState()))).toBe(text);
    }
  });
});
