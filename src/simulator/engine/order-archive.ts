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
   * is null; `clearedIn` holds only the clearing fee and time). Asked for every key placed and
   * every roll child's id that memory does not hold, so most answers are "none": an archive makes
   * those quick on its side (store/kept-ids.ts), and nothing here changes for it.
   */
  find(orderId: string): Order | undefined;
  /**
   * Whether an order placed under `key` (by a caller or the market) left memory for the archive.
   * A roll child's id is derived from its parent's (ids.ts), never placed, so two roll children
   * meet only if two parents' 128-bit hashes do: a new child's id must avoid the keys placed, not
   * every id held (cycle.ts). A placement's own lookup is `find`.
   */
  placed(key: string): boolean;
  /** The cumulative activity sums through the entity's last stored entry before `at`. */
  activityBefore(entityId: string, at: number): ActivitySums | undefined;
  /** The page of the merged listing; `memory` is the entity's in-memory matches, sorted. */
  list(
    entityId: string,
    q: ListQuery,
    memory: Order[],
  ): { orders: WireOrder[]; pagination: { page: number; pageSize: number; total: number } };
}
