import { invalidField, type VenueError, venueError } from './errors.js';
import { emitOrder } from './events.js';
import type { ListQuery, OrderArchive } from './order-archive.js';
import { parseCentiBps } from './money.js';
import { type NewOrder, orderRecord } from './records.js';
import { toWireOrder, type WireOrder } from './rest-shapes.js';
import { currentAuction, type EngineContext, type EngineState, mustEntity } from './state.js';
import type { Auction, Entity, Order, OrderStatus, OrderType } from './types.js';

export function requireEligible(entity: Entity): void {
  if (!entity.eligible) throw venueError.EntityNotEligible();
}

export const FEE_RULE = 'must be a non-negative number of basis points with at most 2 decimals, below 9e13';

/** Puts an order (already reserved for) into the current auction and announces it. */
export function admitOrder(ctx: EngineContext, fields: NewOrder): Order {
  const { state } = ctx;
  const auction = currentAuction(state);
  const order = orderRecord(fields, auction.auctionId, ctx.time);
  state.orders.add(order.orderId, order);
  state.ordersByEntity.get(order.entityId)?.push(order);
  auction.orders.push(order);
  bumpPending(auction, order, 1);
  const exposure = state.exposure.get(order.entityId);
  if (exposure) exposure[order.orderType] += 1;
  emitOrder(ctx, 'order.accepted', order);
  ctx.dirty.add(order.entityId);
  return order;
}

/** The entity's pending orders on one side of the auction (the self-match rule's question). */
export function pendingCount(auction: Auction, entityId: string, side: OrderType): number {
  return auction.pending.get(entityId)?.[side] ?? 0;
}

/** Keeps the auction's pending counts in step; clearing empties them all at once. */
export function bumpPending(auction: Auction, order: Order, delta: number): void {
  let counts = auction.pending.get(order.entityId);
  if (!counts) {
    counts = { BURN: 0, MINT: 0 };
    auction.pending.set(order.entityId, counts);
  }
  counts[order.orderType] += delta;
}

/** What MINT orders and withdrawals can still take: venue-only balance not reserved or held. */
export function venueAvailableCents(entity: Entity): number {
  return entity.venueBalanceCents - entity.venueReservedCents - entity.withdrawalHeldCents;
}

/** Gives back what the order holds: BURN in its source wallet, MINT in the venue-only balance. */
export function releaseReservation(state: EngineState, order: Order): void {
  if (order.orderType === 'BURN') {
    const wallet = order.sourceWalletId ? state.wallets.get(order.sourceWalletId) : undefined;
    if (wallet) wallet.reservedCents -= order.amountCents;
  } else {
    mustEntity(state, order.entityId).venueReservedCents -= order.amountCents;
  }
}

export function setStatus(ctx: EngineContext, order: Order, status: OrderStatus): void {
  if ((order.status === 'pending') !== (status === 'pending')) {
    const e = ctx.state.exposure.get(order.entityId);
    if (e) e[order.orderType] += status === 'pending' ? 1 : -1;
  }
  order.status = status;
  order.updatedAt = ctx.time;
  emitOrder(ctx, 'order.updated', order);
}

/** The window rules shared by cancel and cancel-all: 136001 in lock, 136002 while the previous settles. */
function requireCancelWindow(state: EngineState): void {
  const auction = currentAuction(state);
  if (auction.phase === 'lock') throw venueError.AuctionLocked(auction.auctionId);
  if (state.settlingAuctionId !== null)
    throw venueError.AuctionSettling(
      `Auction ${state.settlingAuctionId} is settling; retry cancellations after settlement`,
    );
}

function ownOrder(state: EngineState, entityId: string, orderId: string, auctionId?: number): Order {
  const order = state.orders.get(orderId);
  if (!order || order.entityId !== entityId || (auctionId !== undefined && order.auctionId !== auctionId))
    throw venueError.TransactionNotFound(orderId);
  return order;
}

/** An order that already cleared is refused with 136002: it is settling or settled, never cancellable. */
function clearedError(order: Order, action: string): VenueError {
  return venueError.AuctionSettling(
    `Order ${order.orderId} has already cleared in auction ${order.auctionId} (status ${order.status}); it cannot be ${action}`,
  );
}

export function cancelOrder(ctx: EngineContext, entityId: string, auctionId: number, orderId: string) {
  const { state } = ctx;
  requireEligible(mustEntity(state, entityId));
  const order = ownOrder(state, entityId, orderId, auctionId);
  // A retried cancel of an order this call already cancelled answers the same success.
  if (order.status === 'cancelled' && order.clearedIn === null)
    return { auctionId: order.auctionId, orderId: order.orderId, status: 'cancelled' as const };
  if (order.status !== 'pending') throw clearedError(order, 'cancelled');
  requireCancelWindow(state);
  cancelPending(ctx, order);
  return { auctionId: order.auctionId, orderId: order.orderId, status: 'cancelled' as const };
}

function cancelPending(ctx: EngineContext, order: Order): void {
  releaseReservation(ctx.state, order);
  const auction = ctx.state.auctions.get(order.auctionId);
  if (auction) bumpPending(auction, order, -1);
  setStatus(ctx, order, 'cancelled');
  ctx.dirty.add(order.entityId);
}

export function cancelAllOrders(ctx: EngineContext, entityId: string) {
  const { state } = ctx;
  requireEligible(mustEntity(state, entityId));
  requireCancelWindow(state);
  const auction = currentAuction(state);
  const orderIds: string[] = [];
  for (const o of auction.orders) {
    if (o.entityId !== entityId || o.status !== 'pending') continue;
    cancelPending(ctx, o);
    orderIds.push(o.orderId);
  }
  return { auctionId: auction.auctionId, orderIds, status: 'cancelled' as const };
}

/**
 * How competitive a limit is, larger is better, in the spec's order: lower for BURN, higher for
 * MINT. A market order takes any fee: an unbounded BURN maximum, a MINT minimum of nothing, so it
 * sits at the least competitive end on both sides.
 */
function competitiveness(type: OrderType, limit: number | null): number {
  if (limit === null) return Number.NEGATIVE_INFINITY;
  return type === 'BURN' ? -limit : limit;
}

export function modifyOrder(
  ctx: EngineContext,
  entityId: string,
  auctionId: number,
  orderId: string,
  feeBps: string | null,
) {
  const { state } = ctx;
  requireEligible(mustEntity(state, entityId));
  const order = ownOrder(state, entityId, orderId, auctionId);
  if (order.status !== 'pending') throw clearedError(order, 'modified');
  const limit = feeBps === null ? null : parseCentiBps(feeBps);
  if (limit === undefined) throw invalidField('feeBps', FEE_RULE, feeBps ?? '');
  const auction = currentAuction(state);
  // The spec asks for a *more* competitive fee in the lock window: an unchanged one is refused too
  // (a retried modify whose first attempt landed is settled by the client, not let through here).
  if (
    auction.phase === 'lock' &&
    competitiveness(order.orderType, limit) <= competitiveness(order.orderType, order.limitCentiBps)
  ) {
    const better = order.orderType === 'BURN' ? 'lower' : 'higher';
    throw venueError.FeeChangeNotMoreCompetitive(
      `Auction ${auction.auctionId} is locked: a ${order.orderType} fee change must be ${better} than its current ${order.feeBps === null ? 'market order' : `${order.feeBps} bps`} (a market order counts as least competitive)`,
    );
  }
  order.feeBps = feeBps;
  order.limitCentiBps = limit;
  setStatus(ctx, order, 'pending');
  return { auctionId: order.auctionId, orderId: order.orderId, status: 'pending' as const };
}

export type { ListQuery };

export function getOrder(
  state: EngineState,
  entityId: string,
  orderId: string,
  archive?: OrderArchive,
): WireOrder {
  requireEligible(mustEntity(state, entityId));
  // Memory, then the archive (placement's rule): one lookup each, not the memory's twice.
  const order = state.orders.get(orderId) ?? archive?.find(orderId);
  if (order?.entityId !== entityId) throw venueError.TransactionNotFound(orderId);
  return toWireOrder(order);
}

/** Results are sorted by createdAt ascending, then orderId ascending. */
export function listOrders(state: EngineState, entityId: string, q: ListQuery, archive?: OrderArchive) {
  requireEligible(mustEntity(state, entityId));
  if (q.from !== undefined && q.to !== undefined && q.from > q.to)
    throw invalidField('to', 'must not be before from');
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  const matching = (state.ordersByEntity.get(entityId) ?? []).filter(
    (o) =>
      (q.status === undefined || o.status === q.status) &&
      (q.orderType === undefined || o.orderType === q.orderType) &&
      (q.orderId === undefined || o.orderId === q.orderId) &&
      (q.from === undefined || o.createdAt >= q.from) &&
      (q.to === undefined || o.createdAt <= q.to),
  );
  matching.sort(
    (a, b) => a.createdAt - b.createdAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0),
  );
  if (archive) return archive.list(entityId, q, matching);
  const start = (page - 1) * pageSize;
  return {
    orders: matching.slice(start, start + pageSize).map((o) => toWireOrder(o)),
    pagination: { page, pageSize, total: matching.length },
  };
}
