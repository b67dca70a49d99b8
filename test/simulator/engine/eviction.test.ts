import { createSimulator } from 'match-venue/simulator';
import { checkInvariants } from '../../../src/simulator/engine/invariants.js';
import { describe, expect, it } from 'vitest';
import { createState, type EngineState, newAuction } from '../../../src/simulator/engine/state.js';
import { DEFAULT_ENGINE_CONFIG, type Order, type OrderStatus } from '../../../src/simulator/engine/types.js';
import { groupByEntity } from '../../../src/simulator/engine/group-by.js';
import { evictFinalOrders } from '../../../src/simulator/engine/eviction.js';

// evictFinalOrders walks lists in step instead of looking each order up in a Set: it must evict
// the same orders in the same order and leave the same state as this straightforward reference
// (the implementation it replaced, kept verbatim).
const FINAL = new Set<OrderStatus>(['filled', 'partial_fill', 'unfilled', 'cancelled', 'failed']);
function referenceEvict(state: EngineState, cutoffMs: number): Order[] {
  const named = new Set([state.currentAuctionId, state.settlingAuctionId, state.lastClearedAuctionId]);
  const old = (auctionId: number): boolean => {
    const a = state.auctions.get(auctionId);
    if (!a) return true;
    return !named.has(auctionId) && a.settledAt !== null && a.clearedAt !== null && a.clearedAt < cutoffMs;
  };
  const evicted: Order[] = [];
  const kept = new Set<number>();
  for (const o of state.orders.values()) {
    if (!old(o.auctionId)) {
      const a = state.auctions.get(o.auctionId);
      if (a && (a.clearedAt === null || a.clearedAt >= cutoffMs)) break;
      kept.add(o.auctionId);
      continue;
    }
    if (FINAL.has(o.status)) evicted.push(o);
    else kept.add(o.auctionId);
  }
  if (evicted.length === 0) return evicted;
  const gone = new Set(evicted);
  const byEntity = new Set<string>();
  for (const o of evicted) {
    state.orders.delete(o.orderId);
    byEntity.add(o.entityId);
  }
  for (const entityId of byEntity) {
    const list = state.ordersByEntity.get(entityId);
    if (list)
      state.ordersByEntity.set(
        entityId,
        list.filter((o) => !gone.has(o)),
      );
  }
  if (state.fallbacks.some((o) => gone.has(o))) state.fallbacks = state.fallbacks.filter((o) => !gone.has(o));
  for (const auctionId of new Set(evicted.map((o) => o.auctionId))) {
    const a = state.auctions.get(auctionId);
    if (!a) continue;
    if (kept.has(auctionId)) a.orders = a.orders.filter((x) => !gone.has(x));
    else state.auctions.delete(auctionId);
  }
  return evicted;
}

/** What eviction touches, by id and in order. */
function view(state: EngineState) {
  const ids = (list: readonly Order[]) => list.map((o) => o.orderId);
  return {
    orders: [...state.orders].map(([k, o]) => [k, o.orderId]),
    ordersByEntity: [...state.ordersByEntity].map(([e, list]) => [e, ids(list)]),
    fallbacks: ids(state.fallbacks),
    auctions: [...state.auctions].map(([id, a]) => [id, a.auctionId, ids(a.orders)]),
  };
}

const T0 = Date.parse('2026-01-01T00:00:00Z');
const CUTOFF = T0 + 55_000;

/**
 * A hand-built state: auction 1 settled and old (all final: emptied), 2 settled and old with an
 * order left pending past the window (kept, its final orders go), 3 old but unsettled (held),
 * 4 old and final but named last cleared (held), 5 settled and old, 6 cleared after the cutoff
 * (the scan stops there), 7 open. Orders of auction 0 (already evicted) are left over, one
 * final; one order of auction 5 was created after auction 6's (the index keeps it with its
 * auction's, so it goes with them).
 * `scramble` puts one entity's list and auction 2's list out of creation order.
 */
function handBuilt(scramble: boolean): EngineState {
  const state = createState(DEFAULT_ENGINE_CONFIG, T0);
  const entities = [...state.entities.keys()];
  state.auctions.clear();
  for (let id = 1; id <= 7; id++) {
    const a = newAuction(id, T0 + (id - 1) * 10_000, DEFAULT_ENGINE_CONFIG);
    if (id <= 6) a.clearedAt = a.clearsAt;
    if (id !== 3 && id <= 6) a.settledAt = a.clearsAt + 1_000;
    state.auctions.set(id, a);
  }
  state.currentAuctionId = 7;
  state.settlingAuctionId = null;
  state.lastClearedAuctionId = 4;
  let n = 0;
  const add = (auctionId: number, entity: number, status: OrderStatus): Order => {
    const o = {
      orderId: `order-${String(++n).padStart(3, '0')}`,
      entityId: entities[entity % entities.length] as string,
      auctionId,
      status,
    } as Order;
    state.orders.add(o.orderId, o);
    state.ordersByEntity.get(o.entityId)?.push(o);
    state.auctions.get(auctionId)?.orders.push(o);
    return o;
  };
  add(0, 0, 'filled');
  add(0, 1, 'pending');
  for (const [auctionId, statuses] of [
    [1, ['filled', 'unfilled', 'cancelled']],
    [2, ['filled', 'pending', 'partial_fill', 'failed']],
    [3, ['filled', 'unfilled']],
    [4, ['filled', 'filled']],
    [5, ['unfilled', 'filled', 'partial_fill']],
    [6, ['filled', 'pending']],
  ] as const)
    for (const [i, s] of statuses.entries()) add(auctionId, auctionId + i, s);
  add(5, 2, 'filled');
  add(7, 3, 'pending');
  const o = (k: number) => state.orders.get(`order-${String(k).padStart(3, '0')}`) as Order;
  // Fallbacks in routing order: an auction 2 order (evicted), auction 3's (held), auction 5's (evicted).
  state.fallbacks = [o(11), o(10), o(15), o(6)];
  if (scramble) {
    const list = state.ordersByEntity.get(entities[2] as string) as Order[];
    list.reverse();
    (state.auctions.get(2) as { orders: Order[] }).orders.reverse();
  }
  return state;
}

describe('engine: evictFinalOrders', () => {
  it('evicts what the reference evicts and leaves the same state (hand-built edge cases)', () => {
    for (const scramble of [false, true]) {
      const [mine, theirs] = [handBuilt(scramble), handBuilt(scramble)];
      const evicted = evictFinalOrders(mine, CUTOFF).map((o) => o.orderId);
      expect(evicted).toEqual(referenceEvict(theirs, CUTOFF).map((o) => o.orderId));
      expect(view(mine)).toEqual(view(theirs));
      // Exactly these: the leftover final order of auction 0, auction 1, auction 2's final orders, auction 5's.
      expect(evicted).toEqual([
        'order-001',
        'order-003',
        'order-004',
        'order-005',
        'order-006',
        'order-008',
        'order-009',
        'order-014',
        'order-015',
        'order-016',
        'order-019',
      ]);
      // Auction 1 emptied, 5 went with the order created past the stop; 2 (a pending order), 3 and 4 (held) stay.
      expect([...mine.auctions.keys()]).toEqual([2, 3, 4, 6, 7]);
      expect(mine.auctions.get(2)?.orders.map((x) => x.orderId)).toEqual(['order-007']);
      expect(mine.fallbacks.map((x) => x.orderId)).toEqual(['order-011', 'order-010']);
      expect(mine.orders.has('order-002')).toBe(true);
      expect(mine.orders.has('order-019')).toBe(false);
      expect(mine.orders.has('order-018')).toBe(true);
      // Nothing left to evict: the same empty answer, the same state.
      expect(evictFinalOrders(mine, CUTOFF)).toEqual([]);
      expect(referenceEvict(theirs, CUTOFF)).toEqual([]);
      expect(view(mine)).toEqual(view(theirs));
    }
  });

  it('with a cutoff before every clearing, only the leftover final order of an evicted auction goes', () => {
    const [mine, theirs] = [handBuilt(false), handBuilt(false)];
    expect(evictFinalOrders(mine, T0).map((o) => o.orderId)).toEqual(['order-001']);
    expect(referenceEvict(theirs, T0).map((o) => o.orderId)).toEqual(['order-001']);
    expect(view(mine)).toEqual(view(theirs));
    expect(mine.auctions.size).toBe(7);
  });

  it('matches the reference eviction after eviction under a running market', () => {
    const market = { preset: 'busy', noise: { count: 40 }, liquidity: { count: 2 } } as const;
    const options = { clock: 'manual', startTime: T0, seed: 7, market } as const;
    const [mine, theirs] = [createSimulator(options), createSimulator(options)];
    let total = 0;
    for (let step = 1; step <= 8; step++) {
      for (let i = 0; i < 3; i++) {
        mine.advance(10_000);
        theirs.advance(10_000);
      }
      const cutoff = mine.now() - 20_000;
      const byEntity = new Map<string, Order[]>();
      const gone = evictFinalOrders(mine.engine.writableState(), cutoff, byEntity);
      const evicted = gone.map((o) => o.orderId);
      expect(evicted).toEqual(referenceEvict(theirs.engine.writableState(), cutoff).map((o) => o.orderId));
      // The groups it hands the store: each entity's evicted orders, in order (what packOrders takes).
      expect([...byEntity]).toEqual([...groupByEntity(gone)]);
      expect(view(mine.engine.writableState())).toEqual(view(theirs.engine.writableState()));
      total += evicted.length;
    }
    // The market made orders to evict, and the two stayed alike while it ran on.
    expect(total).toBeGreaterThan(500);
    expect(mine.engine.state.orders.size).toBe(theirs.engine.state.orders.size);
  });

  it('engine.evict hands over one batch the engine already dropped from its own indexes', () => {
    const market = { preset: 'busy', noise: { count: 40 }, liquidity: { count: 2 } } as const;
    const sim = createSimulator({ clock: 'manual', startTime: T0, seed: 7, market });
    for (let i = 0; i < 12; i++) sim.advance(10_000);
    const before = sim.engine.state.orders.size;
    const cutoff = sim.now() - 30_000;
    const batch = sim.engine.evict(cutoff);
    expect(batch.orders.length).toBeGreaterThan(100);
    expect(batch.currentAuctionId).toBe(sim.engine.state.currentAuctionId);
    expect(sim.engine.state.orders.size).toBe(before - batch.orders.length);
    expect([...batch.byEntity]).toEqual([...groupByEntity(batch.orders)]);
    for (const o of batch.orders) {
      expect(['filled', 'partial_fill', 'unfilled', 'cancelled', 'failed']).toContain(o.status);
      expect(o.clearedIn?.clearedAt).toBeLessThan(cutoff);
      expect(sim.engine.state.orders.has(o.orderId)).toBe(false);
      expect(sim.engine.state.ordersByEntity.get(o.entityId)).not.toContain(o);
    }
    // Activity entries before the cutoff left with them, cumulative sums and all.
    expect(batch.activity.length).toBeGreaterThan(0);
    for (const a of batch.activity) expect(a.at).toBeLessThan(cutoff);
    for (const log of sim.engine.state.activity.values())
      for (const at of log.at) expect(at).toBeGreaterThanOrEqual(cutoff);
    // Without an archive, what left is gone for readers too; the rest still balances.
    const [gone] = batch.orders as [Order];
    expect(() => sim.engine.getOrder(gone.entityId, { id: gone.orderId })).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(checkInvariants(sim.engine.state, { records: false })).toEqual([]);
    // A second eviction at the same cutoff finds nothing more.
    const again = sim.engine.evict(cutoff);
    expect(again.orders).toEqual([]);
    expect(again.activity).toEqual([]);
  });
});
