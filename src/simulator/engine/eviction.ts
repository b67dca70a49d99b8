/**
 * Eviction, the engine's own operation (`VenueEngine.evict`): which orders leave memory, for a
 * store to keep (src/simulator/store/). An order leaves once it can no longer change (a final
 * status, and its auction settled) and its auction cleared before the retention cutoff. Its
 * auction leaves with it when none of the auction's orders stays, so the state keeps no reference
 * to an evicted order and a snapshot of the rest still resolves every id it names. The account
 * activity entries no fill can join any more leave with them. The engine drops both from its own
 * indexes and hands them over as one batch; nothing outside the engine edits its state.
 *
 * It runs on the simulator's thread once a retention window, over tens of thousands of orders on
 * a busy day, so it looks nothing up per order where the lists' order makes a lookup needless:
 * state.orders, each entity's list and each auction's list are in creation order, so the evicted
 * orders of a list are a subsequence of it in the same order (mostly its prefix), found by walking
 * both (a Set of the evicted orders, and filtering every touched list through it, was half of the
 * function's time).
 */
import { type ActivityEntry, drainActivity } from './account.js';
import { groupBy, groupByEntity } from './group-by.js';
import type { EngineState } from './state.js';
import type { Order, OrderStatus } from './types.js';

/** What one eviction took out of memory, for a store to keep. */
export interface EvictedBatch {
  /** The final orders that left, in creation order. */
  orders: Order[];
  /** The same orders by entity, each entity's in creation order (the store packs them so). */
  byEntity: Map<string, Order[]>;
  /** Account activity entries that left, with the cumulative sums through each (account.ts). */
  activity: ActivityEntry[];
  /** The auction current when they left (the market may yet make ids of it and later ones). */
  currentAuctionId: number;
}

/**
 * Takes out of `state` what can leave memory at `cutoffMs` (simulated ms: auctions cleared before
 * it): the final orders, the auctions left empty, and the activity entries before the horizon.
 */
export function evict(state: EngineState, cutoffMs: number): EvictedBatch {
  const byEntity = new Map<string, Order[]>();
  const orders = evictFinalOrders(state, cutoffMs, byEntity);
  const activity = drainActivity(state, activityHorizon(state, cutoffMs));
  return { orders, byEntity, activity, currentAuctionId: state.currentAuctionId };
}

/**
 * What each entity's activity log counts before its first entry (a restored document's running
 * sums), as entries dated before any other: a store that starts a new history keeps them, so that
 * summaries read them like any sums that left memory, where an empty store would count them as 0.
 */
export function activityBaselines(state: EngineState): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  for (const [entityId, log] of state.activity) {
    const [matched = 0, rebates = 0, fees = 0] = [log.matched[0], log.rebates[0], log.fees[0]];
    if (matched !== 0 || rebates !== 0 || fees !== 0)
      out.push({ entityId, at: Number.MIN_SAFE_INTEGER, matched, rebates, fees });
  }
  return out;
}

// `pending` and `settling` still change; every other status is where an order ends.
const FINAL: ReadonlySet<OrderStatus> = new Set([
  'filled',
  'partial_fill',
  'unfilled',
  'cancelled',
  'failed',
]);

// What the scan makes of an order's auction.
const OLD = 0; // settled and cleared before the cutoff (or already evicted): its final orders go
const HELD = 1; // cleared before the cutoff but still named by the cycle or settling: all stay
const YOUNG = 2; // cleared at or after the cutoff, or open: it and everything after it stay

/**
 * Removes the evictable orders (and auctions left empty) from `state`; answers the orders removed.
 * `byEntity`, when given, receives them by entity, as it groups them anyway: the store packs them
 * so (packOrders), and grouping them again was a tenth of packing (a pass over cold orders).
 */
export function evictFinalOrders(
  state: EngineState,
  cutoffMs: number,
  byEntity: Map<string, Order[]> = new Map(),
): Order[] {
  const named = new Set([state.currentAuctionId, state.settlingAuctionId, state.lastClearedAuctionId]);
  const classify = (auctionId: number): number => {
    const a = state.auctions.get(auctionId);
    if (!a) return OLD; // already evicted: an order left behind in it (not final then) may go now
    if (a.clearedAt === null || a.clearedAt >= cutoffMs) return YOUNG;
    return !named.has(auctionId) && a.settledAt !== null ? OLD : HELD;
  };
  const evicted: Order[] = [];
  const kept = new Set<number>();
  // state.orders holds each auction's orders in creation order, auctions in order: stop at the
  // first young auction. An auction all of whose orders go leaves the index whole.
  for (const [auctionId, orders] of [...state.orders.byAuction()]) {
    const runClass = classify(auctionId);
    if (runClass === YOUNG) break;
    const start = evicted.length;
    for (const o of orders.values())
      if (runClass === OLD && FINAL.has(o.status)) evicted.push(o);
      else kept.add(auctionId);
    if (evicted.length > start) state.orders.removeFromAuction(auctionId, evicted.slice(start));
  }
  if (evicted.length === 0) return evicted;
  groupByEntity(evicted, byEntity);
  for (const [entityId, gone] of byEntity) {
    const list = state.ordersByEntity.get(entityId);
    if (list) state.ordersByEntity.set(entityId, without(list, gone));
  }
  state.fallbacks = withoutFallbacks(state.fallbacks, evicted);
  for (const [auctionId, gone] of groupBy(evicted, (o) => o.auctionId)) {
    const a = state.auctions.get(auctionId);
    if (!a) continue;
    // An auction with an order still here keeps the rest of its list; an emptied one goes.
    if (kept.has(auctionId)) a.orders = without(a.orders, gone);
    else state.auctions.delete(auctionId);
  }
  return evicted;
}

/**
 * `list` without the orders of `gone`, as a new array (as filter made it). `gone` holds orders of
 * `list` in the list's order (both in creation order), so one walk of the two finds them: mostly
 * they are its prefix, which is sliced off. A list holds an order once (orders.ts adds it once),
 * so when the walk met all of `gone` it removed exactly those. Should `gone` not be such a
 * subsequence (a list in another order), a Set does it as before: the answer is the same.
 */
function without(list: readonly Order[], gone: readonly Order[]): Order[] {
  let i = 0;
  while (i < gone.length && i < list.length && list[i] === gone[i]) i++;
  if (i === gone.length) return list.slice(i);
  // The first i are gone: the walk goes on from there.
  const rest: Order[] = [];
  let j = i;
  for (; i < list.length; i++) {
    const o = list[i] as Order;
    if (j < gone.length && o === gone[j]) j++;
    else rest.push(o);
  }
  if (j === gone.length) return rest;
  const set = new Set(gone);
  return list.filter((o) => !set.has(o));
}

/**
 * The fallback list without evicted orders (unchanged when it holds none). It is in routing
 * order, not creation order, and usually far shorter than the evicted list: a Set of it finds the
 * evicted ones among it, rather than a Set of every evicted order.
 */
function withoutFallbacks(fallbacks: Order[], evicted: readonly Order[]): Order[] {
  if (fallbacks.length === 0) return fallbacks;
  const listed = new Set(fallbacks);
  const gone = new Set<Order>();
  for (const o of evicted) if (listed.has(o)) gone.add(o);
  return gone.size === 0 ? fallbacks : fallbacks.filter((o) => !gone.has(o));
}

/**
 * Activity entries before this instant can leave memory: their auctions cleared before the
 * cutoff and settled, so no fill will be added at their time (fills settle in clearing order).
 */
function activityHorizon(state: EngineState, cutoffMs: number): number {
  let horizon = cutoffMs;
  for (const a of state.auctions.values())
    if (a.clearedAt !== null && a.settledAt === null && a.clearedAt < horizon) horizon = a.clearedAt;
  return horizon;
}
