/**
 * Stored ids kept apart so that the busiest lookups skip the store (OrderArchive.mayHoldMarketKey
 * and mayHoldRollChildId). Every market placement and every roll asked the id filter and the
 * batches on their way to the file whether its id was taken: a tenth of a stored day. The market
 * makes each key once, for the current auction, and a roll child's id is a hash of its parent's,
 * so only an order a caller placed could have taken either; these are few, and kept here.
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

  /** False when no stored order can have `orderId`, a key the market made for the current auction. */
  mayHoldMarketKey(orderId: string): boolean {
    return this.marketKeys.has(orderId);
  }

  /**
   * False when no stored order placed by a caller (or made by the market) has `orderId`, a roll
   * child's derived id.
   */
  mayHoldRollChildId(orderId: string): boolean {
    return marketIdAuction(orderId) !== undefined || this.placed.mightHave(orderId);
  }
}
