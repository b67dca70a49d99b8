/**
 * The ids in memory that a market placement or a roll child could name again: the memory's side of
 * what the store keeps apart for the same lookups (store/kept-ids.ts, OrderArchive.mayHoldMarketKey
 * and mayHoldRollChildId).
 *
 * Why: every market placement asked `state.orders` whether its key was taken and every roll whether
 * its child's derived id was, about 3,400 misses an auction of a busy market, each some cache
 * misses in a Map of tens of thousands of orders (about 4% of a stored day's simulator thread).
 * The market makes each key once, for the current auction, and a roll child's id is a 128-bit hash
 * of its parent's, so only an order a caller placed (under any id), or a roll child whose hash took
 * the market's shape, could hold either; these are few, and kept in `EngineState.contestedIds`.
 */
import { marketIdAuction } from './market-order-ids.js';
import type { EngineState } from './state.js';
import type { Order } from './types.js';

/**
 * Whether `order` (in memory) must be in `contestedIds`: a caller's order, or a roll child of the
 * market's shape, whose id the market may yet make (an auction not past) or a roll may derive.
 * `placedByMarket`: placed by the market under its own key, which it never makes again; unknown
 * for a restored state, where false keeps the current auction's market orders too (harmless).
 */
export function contests(order: Order, currentAuctionId: number, placedByMarket: boolean): boolean {
  if (placedByMarket) return false;
  const auction = marketIdAuction(order.orderId);
  // An id of the market's shape for a past auction: no market key can meet it, and a roll child
  // of that shape is looked up in memory anyway (mayBeTaken).
  if (auction !== undefined) return auction >= currentAuctionId;
  return order.parentOrderId === null;
}

/** The contested ids of a state's orders (a state from a document: who placed what is not known). */
export function contestedIdsOf(orders: Iterable<Order>, currentAuctionId: number): Set<string> {
  const ids = new Set<string>();
  for (const o of orders) if (contests(o, currentAuctionId, false)) ids.add(o.orderId);
  return ids;
}

/** Notes an order just admitted (placement or roll). */
export function admitted(state: EngineState, order: Order, placedByMarket: boolean): void {
  if (contests(order, state.currentAuctionId, placedByMarket)) state.contestedIds.add(order.orderId);
}

/**
 * Whether an order in memory may have `orderId`, a market key of the current auction (`marketKey`)
 * or a roll child's derived id: false answers "no" without asking `state.orders`. A roll child id
 * of the market's shape may be a market order's (never contested), so memory is asked.
 */
export function mayBeTaken(state: EngineState, orderId: string, marketKey: boolean): boolean {
  if (state.contestedIds.has(orderId)) return true;
  return !marketKey && marketIdAuction(orderId) !== undefined;
}
