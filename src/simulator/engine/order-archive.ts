/**
 * Where orders evicted from memory are read back (a simulator with `store`, src/simulator/store/):
 * the engine answers getOrder, listOrders and an idempotent replay over memory and the archive as
 * if nothing had left. Without a store there is no archive and nothing here runs.
 */
import type { WireOrder } from './rest-shapes.js';
import type { ActivitySums, Order, OrderStatus, OrderType } from './types.js';

/** listOrders' query, times parsed. */
export interface ListQuery {
  page?: number;
  pageSize?: number;
  status?: OrderStatus;
  orderType?: OrderType;
  orderId?: string;
  /** Inclusive bounds in ms. */
  from?: number;
  to?: number;
}

export interface OrderArchive {
  /**
   * An evicted order by id: the fields its REST shape and a replay of its key read (the live limit
   * is null; `clearedIn` holds only the clearing fee and time).
   */
  find(orderId: string): Order | undefined;
  /**
   * False when no evicted order has `orderId`, a key the background market made for the current
   * auction (ParsedPlacement.marketKey). The market makes each such key once, so only an order
   * placed by someone else under it (or a roll child with that id) could, and the store keeps those
   * ids apart when it evicts them; a market placement then skips `find` (it was a tenth of a
   * stored run's time: every placement asked the id filter and the batches on their way).
   */
  mayHoldMarketKey(orderId: string): boolean;
  /**
   * False when no evicted order can have `orderId`, a roll child's derived id (ids.ts): only an
   * order a caller placed under it, or one the market made (by its shape), could; the store keeps
   * the ids of placed orders that are not the market's apart. (Another roll child would need two
   * parents' 128-bit hashes to meet.) Lets a roll skip the store.
   */
  mayHoldRollChildId(orderId: string): boolean;
  /** The cumulative activity sums through the entity's last stored entry before `at`. */
  activityBefore(entityId: string, at: number): ActivitySums | undefined;
  /** The page of the merged listing; `memory` is the entity's in-memory matches, sorted. */
  list(
    entityId: string,
    q: ListQuery,
    memory: Order[],
  ): { orders: WireOrder[]; pagination: { page: number; pageSize: number; total: number } };
}
