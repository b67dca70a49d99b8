/**
 * Eviction: which orders leave memory. An order leaves once it can no longer change (a final
 * status, and its auction settled) and its auction cleared before the retention cutoff. Its
 * auction leaves with it when none of the auction's orders stays, so the state keeps no reference
 * to an evicted order and a snapshot of the rest still resolves every id it names.
 */
import type { EngineState } from '../engine/state.js';
import type { Order, OrderStatus } from '../engine/types.js';

// `pending` and `settling` still change; every other status is where an order ends.
const FINAL: ReadonlySet<OrderStatus> = new Set([
  'filled',
  'partial_fill',
  'unfilled',
  'cancelled',
  'failed',
]);

/** Removes the evictable orders (and auctions left empty) from `state`; answers the orders removed. */
export function evictFinalOrders(state: EngineState, cutoffMs: number): Order[] {
  // Auctions that may lose orders: settled, cleared before the cutoff, and not one the cycle names.
  const named = new Set([state.currentAuctionId, state.settlingAuctionId, state.lastClearedAuctionId]);
  const old = (auctionId: number): boolean => {
    const a = state.auctions.get(auctionId);
    if (!a) return true; // already evicted: an order left behind in it (not final then) may go now
    return !named.has(auctionId) && a.settledAt !== null && a.clearedAt !== null && a.clearedAt < cutoffMs;
  };
  const evicted: Order[] = [];
  const kept = new Set<number>();
  // state.orders is in creation order, which is auction order: stop at the first young auction.
  for (const o of state.orders.values()) {
    if (!old(o.auctionId)) {
      const a = state.auctions.get(o.auctionId);
      if (a && (a.clearedAt === null || a.clearedAt >= cutoffMs)) break; // young from here on
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
    // An auction with an order still here keeps the rest of its list; an emptied one goes.
    if (kept.has(auctionId)) a.orders = a.orders.filter((x) => !gone.has(x));
    else state.auctions.delete(auctionId);
  }
  return evicted;
}

/**
 * Activity entries before this instant can leave memory: their auctions cleared before the
 * cutoff and settled, so no fill will be added at their time (fills settle in clearing order).
 */
export function activityHorizon(state: EngineState, cutoffMs: number): number {
  let horizon = cutoffMs;
  for (const a of state.auctions.values())
    if (a.clearedAt !== null && a.settledAt === null && a.clearedAt < horizon) horizon = a.clearedAt;
  return horizon;
}
