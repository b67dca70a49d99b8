/**
 * `state.orders`: the orders in memory by id, read as one Map in creation order, held as one Map
 * per auction. Why, measured on the day bench (bench/day.ts --store, 800 auctions, against one
 * Map): a busy market's placements and rolls ask about 3,400 ids an auction that memory does not
 * hold, and a store evicts each window's orders; in one Map of tens of thousands of orders, those
 * misses, the inserts and the deletes were about a sixth of the simulator's thread. Here:
 *
 * - an evicted auction's Map goes whole (`removeAuction`), not by a delete an order;
 * - a key of the market's shape (market-order-ids.ts) names its auction, and the market places it
 *   in that auction: it is looked up in that auction's Map alone. An order that breaks the rule (a
 *   caller's key of another auction's shape, a roll child whose hash took the shape) and every
 *   order a caller placed under a key of another shape are `contested`: a handful, looked up by
 *   scanning every auction's Map;
 * - `placed` answers a roll: only a placed order's key can meet a roll child's derived id.
 *
 * Callers see `get` and `placed`, exact answers; nothing outside knows the shape of the index.
 */
import { marketIdAuction } from './market-order-ids.js';
import type { Order } from './types.js';

export class OrderIndex implements Iterable<[string, Order]> {
  /** Each auction's orders in creation order; auctions in the order their first order came. */
  private readonly auctions = new Map<number, Map<string, Order>>();
  /** Ids the by-shape lookup would not find in their auction's Map (see the header). */
  private readonly contested = new Set<string>();
  private count = 0;

  /** `entries`: a snapshot's orders, ids unique (snapshot/checks.ts refuses a document without). */
  constructor(entries?: Iterable<readonly [string, Order]>) {
    if (entries) for (const [id, order] of entries) this.add(id, order);
  }

  get size(): number {
    return this.count;
  }

  get(orderId: string): Order | undefined {
    const auction = marketIdAuction(orderId);
    if (auction !== undefined) {
      const found = this.auctions.get(auction)?.get(orderId);
      if (found !== undefined || !this.contested.has(orderId)) return found;
    }
    return this.scan(orderId);
  }

  has(orderId: string): boolean {
    return this.get(orderId) !== undefined;
  }

  /**
   * Whether an order placed under `key` (by a caller or the market, not a roll child) is here. A
   * roll child's id is a hash of its parent's, so only a placed key can take it (cycle.ts).
   */
  placed(key: string): boolean {
    if (this.contested.has(key)) return this.scan(key)?.parentOrderId === null;
    const auction = marketIdAuction(key);
    return auction !== undefined && this.auctions.get(auction)?.get(key)?.parentOrderId === null;
  }

  /** A new id (admitOrder's: its callers made sure no order in memory has it). */
  add(orderId: string, order: Order): this {
    let m = this.auctions.get(order.auctionId);
    if (m === undefined) {
      m = new Map();
      this.auctions.set(order.auctionId, m);
    }
    m.set(orderId, order);
    this.count++;
    if (contests(orderId, order)) this.contested.add(orderId);
    return this;
  }

  /**
   * Removes `gone`, orders of auction `auctionId` in its order (an eviction's walk): all of them
   * drop the auction's Map whole, otherwise each is deleted.
   */
  removeFromAuction(auctionId: number, gone: readonly Order[]): void {
    const m = this.auctions.get(auctionId);
    if (m === undefined || gone.length === 0) return;
    if (this.contested.size > 0) for (const o of gone) this.contested.delete(o.orderId);
    if (gone.length === m.size) {
      this.auctions.delete(auctionId);
      this.count -= gone.length;
      return;
    }
    for (const o of gone) if (m.delete(o.orderId)) this.count--;
  }

  /** One order out (an auction it empties goes). */
  delete(orderId: string): boolean {
    for (const [auctionId, m] of this.auctions)
      if (m.delete(orderId)) {
        this.count--;
        this.contested.delete(orderId);
        if (m.size === 0) this.auctions.delete(auctionId);
        return true;
      }
    return false;
  }

  forEach(fn: (order: Order, orderId: string) => void): void {
    for (const m of this.auctions.values()) for (const [id, o] of m) fn(o, id);
  }

  *values(): IterableIterator<Order> {
    for (const m of this.auctions.values()) yield* m.values();
  }

  *keys(): IterableIterator<string> {
    for (const m of this.auctions.values()) yield* m.keys();
  }

  *entries(): IterableIterator<[string, Order]> {
    for (const m of this.auctions.values()) yield* m.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, Order]> {
    return this.entries();
  }

  /** Each auction's orders, in the index's order (an eviction's walk). */
  byAuction(): IterableIterator<[number, ReadonlyMap<string, Order>]> {
    return this.auctions.entries();
  }

  private scan(orderId: string): Order | undefined {
    for (const m of this.auctions.values()) {
      const found = m.get(orderId);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

/** Whether the by-shape lookup would miss `order`: its key is not one the market placed in its auction. */
function contests(orderId: string, order: Order): boolean {
  const auction = marketIdAuction(orderId);
  if (auction === undefined) return order.parentOrderId === null;
  return order.parentOrderId !== null || auction !== order.auctionId;
}
