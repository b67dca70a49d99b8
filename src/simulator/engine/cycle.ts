import { recordActivity } from './account.js';
import { bpsAmountCents, type ClearingOrder, clearOrders } from './clearing.js';
import { rollChildOrderId } from './ids.js';
import { usdMoney } from './money.js';
import { admitOrder, bumpPending, releaseReservation, setStatus, sideKey } from './orders.js';
import { currentAuction, type EngineContext, mustEntity, newAuction } from './state.js';
import type { Auction, Order } from './types.js';
import { iso, toWireAuction } from './wire.js';
import { advanceWithdrawal, nextWithdrawalDeadline } from './withdrawals.js';

function market(ctx: EngineContext, event: string, auction: Auction): void {
  ctx.emit({ channel: 'market', event, data: toWireAuction(auction) });
}

/** The earliest scheduled transition (phase change, settlement, payout step), or null. */
export function nextDeadline(ctx: EngineContext): number | null {
  const { state } = ctx;
  const a = currentAuction(state);
  let next = a.phase === 'open' ? a.locksAt : a.clearsAt;
  const settling = state.settlingAuctionId === null ? undefined : state.auctions.get(state.settlingAuctionId);
  if (settling?.settleAt != null && settling.settleAt < next) next = settling.settleAt;
  const w = nextWithdrawalDeadline(state);
  if (w !== null && w < next) next = w;
  return Number.isFinite(next) ? next : null;
}

/** Runs every transition due at or before `until`, each at its own scheduled instant. */
export function advanceTo(ctx: EngineContext, until: number): void {
  for (;;) {
    skipIdleCycles(ctx, until);
    const due = nextDeadline(ctx);
    if (due === null || due > until) break;
    ctx.time = Math.max(ctx.time, due);
    const { state } = ctx;
    const settling =
      state.settlingAuctionId === null ? undefined : state.auctions.get(state.settlingAuctionId);
    const current = currentAuction(state);
    if (settling?.settleAt != null && settling.settleAt <= due) settleAuction(ctx);
    else if (current.phase === 'open' && current.locksAt <= due) lockAuction(ctx);
    else if (current.clearsAt <= due) clearAuction(ctx, true);
    else advanceWithdrawal(ctx, due);
  }
}

/**
 * A long clock jump over auctions that can hold no order (none rests, nothing settles, no payout
 * falls due) moves straight to the last of them: their ids are consumed, their events not sent.
 */
function skipIdleCycles(ctx: EngineContext, until: number): void {
  const { state, config } = ctx;
  const current = currentAuction(state);
  if (current.orderIds.length > 0 || state.settlingAuctionId !== null) return;
  const k = Math.floor((until - current.clearsAt) / config.cycleMs);
  if (k < 3) return;
  const w = nextWithdrawalDeadline(state);
  if (w !== null && w <= until) return;
  // Auction id + k is the last whose cycle ends by `until`; the loop then locks and clears it as usual.
  const next = newAuction(current.auctionId + k, current.clearsAt + (k - 1) * config.cycleMs, config);
  state.auctions.delete(current.auctionId);
  state.auctions.set(next.auctionId, next);
  state.currentAuctionId = next.auctionId;
}

export function lockAuction(ctx: EngineContext): void {
  const a = currentAuction(ctx.state);
  if (a.phase !== 'open') return;
  a.phase = 'lock';
  a.locksAt = ctx.time;
  market(ctx, 'auction.locked', a);
}

/** Re-opens a locked auction, granting it a fresh open period of cycleMs - lockMs. */
export function unlockAuction(ctx: EngineContext): void {
  const a = currentAuction(ctx.state);
  if (a.phase !== 'lock') return;
  a.phase = 'open';
  a.locksAt = ctx.time + ctx.config.cycleMs - ctx.config.lockMs;
  a.clearsAt = a.locksAt + ctx.config.lockMs;
  market(ctx, 'auction.opened', a);
}

/**
 * Clears the current auction now and opens the next one. A previous auction still settling is
 * settled first, so at most one auction settles at a time. `scheduleSettlement` false leaves the
 * cleared auction settling until settleAuction() is called.
 */
export function clearAuction(ctx: EngineContext, scheduleSettlement: boolean): Auction {
  const { state, config } = ctx;
  if (state.settlingAuctionId !== null) settleAuction(ctx);
  lockAuction(ctx);
  const auction = currentAuction(state);
  auction.phase = 'clearing';
  const pending: Order[] = [];
  for (const id of auction.orderIds) {
    const o = state.orders.get(id);
    if (o && o.status === 'pending') pending.push(o);
  }
  const input: ClearingOrder[] = pending.map((o) => ({
    side: o.orderType,
    amountCents: o.amountCents,
    limitCentiBps: o.limitCentiBps,
    createdAt: o.createdAt,
    orderId: o.orderId,
  }));
  const result = clearOrders(input, { referenceFeeCentiBps: config.referenceFeeCentiBps });
  auction.clearingFeeCentiBps = result.clearingFeeCentiBps;
  auction.matchedCents = result.matchedCents;
  auction.clearedAt = ctx.time;
  auction.clearsAt = ctx.time;
  auction.phase = 'settling';
  auction.settleAt = scheduleSettlement ? ctx.time + config.settleMs : Number.POSITIVE_INFINITY;
  let fills = 0;
  pending.forEach((o, i) => {
    const filled = result.filledCents[i] ?? 0;
    if (filled > 0) fills++;
    o.fill = {
      filledCents: filled,
      unfilledCents: o.amountCents - filled,
      clearingFeeCentiBps: result.clearingFeeCentiBps,
      matchedAt: ctx.time,
      feeCents: filled > 0 ? bpsAmountCents(filled, result.clearingFeeCentiBps) : 0,
    };
    bumpPending(state, o, -1);
    setStatus(ctx, o, 'settling');
  });
  auction.fillsCount = fills;
  state.settlingAuctionId = auction.auctionId;
  market(ctx, 'auction.cleared', auction);
  const next = newAuction(auction.auctionId + 1, ctx.time, config);
  state.auctions.set(next.auctionId, next);
  state.currentAuctionId = next.auctionId;
  market(ctx, 'auction.opened', next);
  return auction;
}

function shouldFail(ctx: EngineContext, orderId: string): boolean {
  if (ctx.faults.failOrderIds?.includes(orderId)) return true;
  const rate = ctx.faults.failRate ?? 0;
  return rate > 0 && ctx.random() < rate;
}

/** Settles the auction that is settling; returns it, or null when none is. */
export function settleAuction(ctx: EngineContext): Auction | null {
  const { state } = ctx;
  if (state.settlingAuctionId === null) return null;
  const auction = state.auctions.get(state.settlingAuctionId);
  state.settlingAuctionId = null;
  if (!auction) return null;
  for (const id of auction.orderIds) {
    const o = state.orders.get(id);
    if (o && o.status === 'settling') settleOrder(ctx, o);
  }
  auction.phase = 'settled';
  auction.settledAt = ctx.time;
  auction.settleAt = ctx.time;
  market(ctx, 'auction.settled', auction);
  return auction;
}

/**
 * Money moves through the house: a BURN fill F delivers F stablecoin to the house and the house
 * pays F - fee USD to the order's fiat account; a MINT fill F takes F - rebate USD from the
 * minter's cash and the house credits F stablecoin to the minter's venue-only balance. A failed
 * order moves nothing and its reservation is released; the house covers its counterparties.
 */
function settleOrder(ctx: EngineContext, o: Order): void {
  const { state } = ctx;
  const fill = o.fill;
  if (!fill) return;
  const entity = mustEntity(state, o.entityId);
  ctx.dirty.add(o.entityId);
  releaseReservation(state, o);
  if (shouldFail(ctx, o.orderId)) {
    setStatus(ctx, o, 'failed');
    return;
  }
  const F = fill.filledCents;
  if (o.orderType === 'BURN') {
    const wallet = state.wallets.get(o.sourceWalletId ?? '');
    const fiat = state.fiatAccounts.get(o.fiatAccountId ?? '');
    if (!wallet || !fiat) throw new Error(`BURN order ${o.orderId} lost its wallet or fiat account`);
    wallet.balanceCents -= F;
    state.house.stablecoinCents += F;
    fiat.balanceCents += F - fill.feeCents;
    state.house.usdCents -= F - fill.feeCents;
  } else {
    entity.cash.balanceCents -= F - fill.feeCents;
    state.house.usdCents += F - fill.feeCents;
    state.house.stablecoinCents -= F;
    entity.venueBalanceCents += F;
  }
  if (F > 0) recordActivity(state, o.entityId, fill.matchedAt, o.orderType, F, fill.feeCents);
  const remainder = fill.unfilledCents;
  if (remainder === 0) {
    setStatus(ctx, o, 'filled');
    return;
  }
  if (o.postFillAction === 'cancel' && F === 0) {
    setStatus(ctx, o, 'cancelled');
    return;
  }
  if (o.postFillAction === 'roll') rollRemainder(ctx, o, remainder);
  else if (o.postFillAction === 'fallback') fallbackRemainder(ctx, o, remainder);
  setStatus(ctx, o, F > 0 ? 'partial_fill' : 'unfilled');
}

function rollRemainder(ctx: EngineContext, parent: Order, remainder: number): void {
  const { state } = ctx;
  // A child next to an open opposite order of the same entity would trade with it (the self-match
  // 137006 forbids): that roll is not made and the remainder is dropped, as by `cancel`.
  const opposite = parent.orderType === 'BURN' ? 'MINT' : 'BURN';
  const target = currentAuction(state).auctionId;
  if ((state.pendingBySide.get(sideKey(target, parent.entityId, opposite)) ?? 0) > 0) return;
  if (parent.orderType === 'BURN') {
    const wallet = state.wallets.get(parent.sourceWalletId ?? '');
    if (wallet) wallet.reservedCents += remainder;
  } else {
    mustEntity(state, parent.entityId).cash.reservedCents += remainder;
  }
  // The id is derived, so a caller could have placed an order under it already: derive again.
  let childId = rollChildOrderId(parent.orderId);
  while (state.orders.has(childId)) childId = rollChildOrderId(childId);
  const child = admitOrder(ctx, {
    orderId: childId,
    entityId: parent.entityId,
    orderType: parent.orderType,
    amountCents: remainder,
    feeBps: parent.feeBps,
    limitCentiBps: parent.limitCentiBps,
    postFillAction: 'roll',
    sourceWalletId: parent.sourceWalletId,
    fiatAccountId: parent.fiatAccountId,
    parentOrderId: parent.orderId,
    paramsKey: `roll:${parent.orderId}`,
  });
  parent.childOrderId = child.orderId;
}

/** The standard minting product converts the remainder at par, without fee. */
function fallbackRemainder(ctx: EngineContext, o: Order, remainder: number): void {
  const { state } = ctx;
  const entity = mustEntity(state, o.entityId);
  if (o.orderType === 'BURN') {
    const wallet = state.wallets.get(o.sourceWalletId ?? '');
    const fiat = state.fiatAccounts.get(o.fiatAccountId ?? '');
    if (!wallet || !fiat) throw new Error(`BURN order ${o.orderId} lost its wallet or fiat account`);
    wallet.balanceCents -= remainder;
    state.issuer.stablecoinCents += remainder;
    state.issuer.usdCents -= remainder;
    fiat.balanceCents += remainder;
  } else {
    entity.cash.balanceCents -= remainder;
    state.issuer.usdCents += remainder;
    state.issuer.stablecoinCents -= remainder;
    entity.venueBalanceCents += remainder;
  }
  state.fallbacks.push({
    orderId: o.orderId,
    entityId: o.entityId,
    auctionId: o.auctionId,
    orderType: o.orderType,
    amount: usdMoney(remainder),
    routedAt: iso(ctx.time),
  });
}
