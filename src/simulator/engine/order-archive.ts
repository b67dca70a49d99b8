/**
 * Where orders evicted from memory are read back (a simulator with `store`, src/simulator/store/):
 * the engine answers getOrder, listOrders and an idempotent replay over memory and the archive as
 * if nothing had left. Without a store there is no archive and nothing here runs.
 */
import type { WireOrder } from './rest-shapes.js';
import { venueError } from './errors.js';
import type { ActivitySums, Order, OrderStatus, OrderType, PlaceResult } from './types.js';

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
  /** An evicted order by id, with its entity. */
  find(orderId: string): { entityId: string; wire: WireOrder } | undefined;
  /**
   * False when no evicted order has `orderId`, a key the background market made for the current
   * auction (ParsedPlacement.marketKey). The market makes each such key once, so only an order
   * placed by someone else under it (or a roll child with that id) could, and the store keeps those
   * ids apart when it evicts them; a market placement then skips `find` (it was a tenth of a
   * stored run's time: every placement asked the id filter and the batches on their way).
   */
  mayHoldMarketKey(orderId: string): boolean;
  /** The cumulative activity sums through the entity's last stored entry before `at`. */
  activityBefore(entityId: string, at: number): ActivitySums | undefined;
  /** The page of the merged listing; `memory` is the entity's in-memory matches, sorted. */
  list(
    entityId: string,
    q: ListQuery,
    memory: Order[],
  ): { orders: WireOrder[]; pagination: { page: number; pageSize: number; total: number } };
}

/**
 * A placement under the key of an evicted order: the same answer as for one in memory when the
 * entity, type, amount and election match and it was placed (not a roll child); otherwise 409
 * IdempotencyKeyReused. The limit and the wallets are not compared: the stored REST shape holds
 * the limit after any modify, and no wallet.
 */
export function replayArchived(
  archive: OrderArchive | undefined,
  entityId: string,
  orderId: string,
  key: string,
  params: { orderType: string; amountCents: number | undefined; postFillAction: string },
  cents: (amount: string) => number | undefined,
): PlaceResult | undefined {
  const found = archive?.find(orderId);
  if (!found) return undefined;
  const w = found.wire;
  const same =
    found.entityId === entityId &&
    w.lineage.parentOrderId === null &&
    w.orderType === params.orderType &&
    cents(w.amount.amount) === params.amountCents &&
    w.postFillAction === params.postFillAction;
  if (!same) throw venueError.IdempotencyKeyReused(key);
  // A placed order always names its auction; the REST shape's type allows null for others.
  return { auctionId: w.auctionId as number, orderId: w.orderId, status: 'pending' };
}
