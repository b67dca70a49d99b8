/**
 * A final order as the store keeps it: its engine record's fields as one row, read back through
 * the same toWireOrder as an order in memory (listing.ts), so the REST shape has one home; `toRow`
 * and `fromRow` are the row's two directions, side by side. An
 * entity's orders of one eviction are one chunk, one SQLite row (the bytes of order-pack.ts,
 * built on the writer thread, whose bundle includes this module: it imports types only).
 *
 * Why chunks: a row per order cost about 11 µs to insert with its two indexes, and a simulated
 * day writes about 29 million orders (placements and their roll children); a row per entity and
 * eviction holds a dozen of them for one insert (1M orders: 11.3 s as rows, 3.4 s as chunks).
 */
import type { Auction, Order, OrderStatus, OrderType, PostFillAction } from '../engine/types.js';

/** One order's fields, in order (the chunk's row holds the entity). */
export type OrderRow = [
  orderId: string,
  createdAt: number,
  status: OrderStatus,
  orderType: OrderType,
  auctionId: number,
  amountCents: number,
  feeBps: string | null,
  postFillAction: PostFillAction,
  updatedAt: number,
  sourceWalletId: string | null,
  fiatAccountId: string | null,
  parentOrderId: string | null,
  childOrderId: string | null,
  filledCents: number,
  feeCents: number,
  /** The clearing auction's fee and time; null before a clear (a final order cancelled before it). */
  clearingFeeCentiBps: number | null,
  clearedAt: number | null,
  cleared: 0 | 1,
  /** The limit the placing request named: a replay of its key compares it, as in memory. */
  placedLimitCentiBps: number | null,
];

/**
 * The order record a row stands for: what the REST shape and a replay of its key read (the live
 * limit and the clearing auction's other fields are not kept).
 */
export function fromRow(entityId: string, row: OrderRow): Order {
  const [
    orderId,
    createdAt,
    status,
    orderType,
    auctionId,
    amountCents,
    feeBps,
    postFillAction,
    updatedAt,
    sourceWalletId,
    fiatAccountId,
    parentOrderId,
    childOrderId,
    filledCents,
    feeCents,
    clearingFeeCentiBps,
    clearedAt,
    cleared,
    placedLimitCentiBps,
  ] = row;
  // fillOf reads only these two fields of the clearing auction.
  const clearedIn = cleared ? ({ clearingFeeCentiBps, clearedAt } as Auction) : null;
  return {
    orderId,
    entityId,
    auctionId,
    orderType,
    amountCents,
    feeBps,
    limitCentiBps: null,
    postFillAction,
    status,
    createdAt,
    updatedAt,
    sourceWalletId,
    fiatAccountId,
    parentOrderId,
    childOrderId,
    clearedIn,
    filledCents,
    feeCents,
    placedLimitCentiBps,
  };
}

/** Listing order: createdAt, then orderId (as the in-memory listing sorts). */
export const listedBefore = (
  a: { createdAt: number; orderId: string },
  b: { createdAt: number; orderId: string },
): boolean => a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.orderId < b.orderId);

/** A sort comparator for listing order. */
export const byListing = (
  a: { createdAt: number; orderId: string },
  b: { createdAt: number; orderId: string },
) => (listedBefore(a, b) ? -1 : listedBefore(b, a) ? 1 : 0);

/** An order's row (as written in its chunk). */
export function toRow(o: Order): OrderRow {
  const c = o.clearedIn;
  return [
    o.orderId,
    o.createdAt,
    o.status,
    o.orderType,
    o.auctionId,
    o.amountCents,
    o.feeBps,
    o.postFillAction,
    o.updatedAt,
    o.sourceWalletId,
    o.fiatAccountId,
    o.parentOrderId,
    o.childOrderId,
    o.filledCents,
    o.feeCents,
    c ? c.clearingFeeCentiBps : null,
    c ? c.clearedAt : null,
    c ? 1 : 0,
    o.placedLimitCentiBps,
  ];
}

/** What a listing filters on, as the in-memory listing's query (times in epoch ms, inclusive). */
export interface StoredOrderFilter {
  status?: string | undefined;
  orderType?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** Whether a stored row passes the listing's filter (as the in-memory listing's does). */
export function rowMatches(row: OrderRow, f: StoredOrderFilter): boolean {
  const [, createdAt, status, orderType] = row;
  return (
    (f.from === undefined || createdAt >= f.from) &&
    (f.to === undefined || createdAt <= f.to) &&
    (f.status === undefined || status === f.status) &&
    (f.orderType === undefined || orderType === f.orderType)
  );
}
