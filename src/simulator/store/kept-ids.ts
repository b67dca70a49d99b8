/**
 * Stored ids kept apart so that the busiest lookup skips the file: every market placement asks the
 * archive whether its key was taken (OrderArchive.find). The market makes each key once, for the
 * auction current then (market-order-ids.ts), and its orders leave memory only after their auction
 * settled, so a stored order with a key of the current or a later auction was placed by a caller
 * under it (or is a roll child whose hash took the shape): these are few, and kept here. A key of
 * that shape not among them is stored nowhere, and `get` answers so at once.
 */
import type { Order } from '../engine/types.js';
import { marketIdAuction, marketIdFrom } from '../engine/market-order-ids.js';
import { IdFilter } from './id-filter.js';
import type { Database } from './sqlite.js';

export class KeptIds {
  /**
   * Stored ids the market may yet make (an auction not past when they left memory), placed by a
   * caller (or a roll child of that shape). Saved with each checkpoint (`market_keys`).
   */
  private marketKeys = new Set<string>();
  /**
   * Stored ids of orders placed by callers, not the market (its ids have their own shape). Written
   * with each eviction (`placed_ids`), so a bot's long history adds to the file, not to memory.
   */
  private placed = new IdFilter();
  /**
   * The auction current at the last eviction: no market order of it or a later auction is stored.
   * Unknown on a file just opened (until its next eviction), when every key is looked up.
   */
  private marketFrom = Number.POSITIVE_INFINITY;

  /** As the file's checkpoint left them (rows past it already dropped). */
  static load(db: Database): KeptIds {
    const kept = new KeptIds();
    for (const id of db.prepare('SELECT order_id FROM market_keys').pluck().iterate())
      kept.marketKeys.add(id as string);
    const placed = db.prepare('SELECT eviction, order_id AS id FROM placed_ids ORDER BY eviction');
    for (const row of placed.iterate()) {
      const { eviction, id } = row as { eviction: number; id: string };
      kept.placed.add(id, eviction);
    }
    return kept;
  }

  /** Notes an eviction's orders; answers the ids placed by callers, for `placed_ids`. */
  evicted(orders: readonly Order[], eviction: number, currentAuction: number): string[] {
    // The market makes an auction's ids while it is the current one: an id of a past auction it
    // will not make again, and one of this or a later auction (placed by someone else) it may.
    this.marketFrom = currentAuction;
    for (const id of this.marketKeys)
      if ((marketIdAuction(id) as number) < currentAuction) this.marketKeys.delete(id);
    const placedIds: string[] = [];
    for (const o of orders) {
      // Roll children (most of what leaves) are neither: their hashed ids fail the shape's tail.
      if (o.parentOrderId !== null) {
        if (marketIdFrom(o.orderId, currentAuction)) this.marketKeys.add(o.orderId);
        continue;
      }
      const auction = marketIdAuction(o.orderId);
      if (auction === undefined) {
        this.placed.add(o.orderId, eviction);
        placedIds.push(o.orderId);
      } else if (auction >= currentAuction) this.marketKeys.add(o.orderId);
    }
    return placedIds;
  }

  /** What a checkpoint saves as `market_keys`. */
  marketKeyList(): string[] {
    return [...this.marketKeys];
  }

  /**
   * False when no stored order has `orderId`: a key of the market's shape for an auction no market
   * order of which is stored, and not kept apart. True answers nothing (the file may hold it).
   */
  mayHold(orderId: string): boolean {
    const auction = marketIdAuction(orderId);
    return auction === undefined || auction < this.marketFrom || this.marketKeys.has(orderId);
  }

  /**
   * False when no order placed under `key` is stored: not a key of the market's shape (whose
   * orders are placed) nor one a caller placed (OrderArchive.placed). True answers nothing.
   */
  mayHavePlaced(key: string): boolean {
    return marketIdAuction(key) !== undefined || this.placed.mightHave(key);
  }
}
