import type { Order } from './types.js';

/**
 * `state.orders`: the orders in memory by id, in creation order, read and written as a Map, held
 * in generations. Why: a store evicts the oldest orders every retention window, and deleting them
 * one by one from a single Map of tens of thousands (each delete some cache misses, and the Map
 * rehashing as its holes fill) cost a twentieth of a stored day's simulator thread. Orders added go
 * to the newest generation. With a store (`byAuction`) each auction's orders make a generation of
 * their own, which its eviction drops whole (nothing per order); one an eviction leaves partly is
 * rebuilt from the few that stay. Without a store: one generation, a plain Map (a lookup that
 * misses asks every generation, a dozen or so with a store: callers' placements do, markets' and
 * rolls' do not, contested-ids.ts).
 */
export class OrderIndex implements Iterable<[string, Order]> {
  /** Oldest first; never empty; each in creation order, all of one before any of the next. */
  private gens: Map<string, Order>[] = [new Map()];
  private count = 0;
  /** The auction the newest generation's orders belong to (with `byAuction`). */
  private newestAuction = Number.NaN;
  /**
   * Each auction's orders in a generation of their own (a store sets it): the orders an auction
   * admits are its own and auctions come in order, so a generation starts with each auction.
   */
  byAuction = false;

  constructor(entries?: Iterable<readonly [string, Order]>) {
    if (entries) for (const [id, order] of entries) this.set(id, order);
  }

  get size(): number {
    return this.count;
  }

  get(orderId: string): Order | undefined {
    const gens = this.gens;
    // Newest first: what a step reads is mostly recent.
    for (let i = gens.length - 1; i >= 0; i--) {
      const order = (gens[i] as Map<string, Order>).get(orderId);
      if (order !== undefined) return order;
    }
    return undefined;
  }

  has(orderId: string): boolean {
    return this.get(orderId) !== undefined;
  }

  /** As Map.set: an id held already keeps its place; a new one goes last. */
  set(orderId: string, order: Order): this {
    for (const g of this.gens)
      if (g.has(orderId)) {
        g.set(orderId, order);
        return this;
      }
    return this.add(orderId, order);
  }

  /**
   * A new id, last (admitOrder's: its callers made sure no order in memory has it, so the older
   * generations are not asked).
   */
  add(orderId: string, order: Order): this {
    if (this.byAuction && order.auctionId !== this.newestAuction) {
      this.seal();
      this.newestAuction = order.auctionId;
    }
    (this.gens[this.gens.length - 1] as Map<string, Order>).set(orderId, order);
    this.count++;
    return this;
  }

  delete(orderId: string): boolean {
    for (const g of this.gens)
      if (g.delete(orderId)) {
        this.count--;
        return true;
      }
    return false;
  }

  *values(): IterableIterator<Order> {
    for (const g of this.gens) yield* g.values();
  }

  *keys(): IterableIterator<string> {
    for (const g of this.gens) yield* g.keys();
  }

  *entries(): IterableIterator<[string, Order]> {
    for (const g of this.gens) yield* g.entries();
  }

  forEach(fn: (order: Order, orderId: string) => void): void {
    for (const g of this.gens)
      g.forEach((order, orderId) => {
        fn(order, orderId);
      });
  }

  [Symbol.iterator](): IterableIterator<[string, Order]> {
    return this.entries();
  }

  /** Orders added from now on start a new generation (none when the newest is empty). */
  seal(): void {
    if ((this.gens.at(-1) as Map<string, Order>).size > 0) this.gens.push(new Map());
  }

  /** The generations, oldest first, for an eviction's walk (then `remove` with what left). */
  generations(): readonly ReadonlyMap<string, Order>[] {
    return this.gens;
  }

  /**
   * Removes `gone` from generation `gen` (one of `generations()`): orders of it in its order, as
   * an eviction's walk collects them. A generation they empty goes whole; one that keeps fewer
   * than go is rebuilt from those (a set each, cheaper than a delete each); else each is deleted.
   */
  remove(gen: ReadonlyMap<string, Order>, gone: readonly Order[]): void {
    const at = this.gens.indexOf(gen as Map<string, Order>);
    const g = this.gens[at];
    if (g === undefined || gone.length === 0) return;
    const before = g.size;
    // All of it (an evicted auction's, with byAuction): gone without a look at each (a walk
    // checked gone in g's order; the caller's is g's own, so equal sizes mean the same orders).
    if (gone.length === before) {
      if (at === this.gens.length - 1) this.gens[at] = new Map();
      else this.gens.splice(at, 1);
      this.count -= before;
      return;
    }
    if (gone.length >= before - gone.length) {
      const rest = new Map<string, Order>();
      let j = 0;
      g.forEach((o, id) => {
        if (j < gone.length && o === gone[j]) j++;
        else rest.set(id, o);
      });
      // Not the subsequence promised: fall back to deleting each. (Some stay: fewer went than g held.)
      if (j === gone.length) {
        this.gens[at] = rest;
        this.count -= before - rest.size;
        return;
      }
    }
    for (const o of gone) if (g.delete(o.orderId)) this.count--;
  }
}
