import { recordActivity } from './account.js';
import { bpsAmountCents, type ClearingColumns, clearColumns } from './clearing.js';
import { MARKET } from './clearing-checks.js';
import { emitMarket as market } from './events.js';
import { rollChildOrderId } from './ids.js';
import { admitOrder, pendingCount, releaseReservation, setStatus } from './orders.js';
import {
  currentAuction,
  type EngineContext,
  type EngineState,
  mustEntity,
  newAuction,
  primaryWallet,
} from './state.js';
import type { Auction, Ledger, Order } from './types.js';

/**
 * What the clearing rule sees of a book of orders, as columns: filled straight from the orders,
 * with no object per order (a 1,000,000-order clear used to make a million of them).
 */
export class BookColumns {
  private readonly isBurn: Uint8Array;
  private readonly amountCents: Float64Array;
  private readonly limitCentiBps: Float64Array;
  private readonly createdAt: Float64Array;
  private readonly orderId: string[];
  private size = 0;

  constructor(capacity: number) {
    // Sized once, like the typed columns: pushing a million ids grew (and copied) the array ~20 times.
    this.orderId = new Array<string>(capacity);
    this.isBurn = new Uint8Array(capacity);
    this.amountCents = new Float64Array(capacity);
    this.limitCentiBps = new Float64Array(capacity);
    this.createdAt = new Float64Array(capacity);
  }

  /** Adds the order, for `amountCents` (default: its amount). Up to the capacity given. */
  add(o: Order, amountCents = o.amountCents): void {
    const i = this.size++;
    this.isBurn[i] = o.orderType === 'BURN' ? 1 : 0;
    this.amountCents[i] = amountCents;
    this.limitCentiBps[i] = o.limitCentiBps ?? MARKET;
    this.createdAt[i] = o.createdAt;
    this.orderId[i] = o.orderId;
  }

  clear(referenceFeeCentiBps: number) {
    const n = this.size;
    const columns: ClearingColumns = {
      isBurn: this.isBurn.subarray(0, n),
      amountCents: this.amountCents.subarray(0, n),
      limitCentiBps: this.limitCentiBps.subarray(0, n),
      createdAt: this.createdAt.subarray(0, n),
      orderId: this.orderId,
    };
    return clearColumns(columns, { referenceFeeCentiBps });
  }
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
  // At most every order of the auction: sized once (growing it by push copied it ~20 times at 1M).
  const pending: Order[] = new Array<Order>(auction.orders.length);
  let count = 0;
  const book = new BookColumns(auction.orders.length);
  for (const o of auction.orders) {
    if (o.status !== 'pending') continue;
    pending[count++] = o;
    book.add(o);
  }
  const result = book.clear(config.referenceFeeCentiBps);
  const fee = result.clearingFeeCentiBps;
  auction.clearingFeeCentiBps = fee;
  auction.matchedCents = result.matchedCents;
  auction.clearedAt = ctx.time;
  auction.clearsAt = ctx.time;
  auction.phase = 'settling';
  // settlement-slow: at the next clear, which settles this one first (one auction settles at a time).
  const settleDelay = ctx.faults.slow ? config.cycleMs : config.settleMs;
  auction.settleAt = scheduleSettlement ? ctx.time + settleDelay : Number.POSITIVE_INFINITY;
  let fills = 0;
  for (let i = 0; i < count; i++) {
    const o = pending[i] as Order;
    const filled = result.filledCents[i] ?? 0;
    if (filled > 0) fills++;
    o.clearedIn = auction;
    o.filledCents = filled;
    o.feeCents = filled > 0 ? bpsAmountCents(filled, fee) : 0;
    setStatus(ctx, o, 'settling');
  }
  // Nothing rests here any more: every pending order is now settling.
  auction.pending.clear();
  auction.fillsCount = fills;
  state.settlingAuctionId = auction.auctionId;
  state.lastClearedAuctionId = auction.auctionId;
  market(ctx, 'auction.cleared', auction);
  // Ids count elapsed cycles, also those this auction was held open across (clock.ts).
  const next = newAuction(auction.auctionId + 1 + auction.cyclesHeld, ctx.time, config);
  state.auctions.set(next.auctionId, next);
  state.currentAuctionId = next.auctionId;
  market(ctx, 'auction.opened', next);
  ctx.opened?.(ctx, next);
  return auction;
}

function shouldFail(ctx: EngineContext, failIds: ReadonlySet<string> | undefined, orderId: string): boolean {
  if (failIds?.has(orderId)) return true;
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
  // A Set once per auction: a list of named failures is not searched once per order.
  const named = ctx.faults.failOrderIds;
  const failIds = named && named.length > 0 ? new Set(named) : undefined;
  for (const o of auction.orders) if (o.status === 'settling') settleOrder(ctx, o, failIds);
  auction.phase = 'settled';
  auction.settledAt = ctx.time;
  auction.settleAt = ctx.time;
  market(ctx, 'auction.settled', auction);
  return auction;
}

/**
 * Money moves through the house: a BURN fill F delivers F stablecoin to the house and the house
 * pays F - fee USD to the order's fiat account; a MINT fill F takes F from the minter's venue-only
 * balance (retired at the issuer, which hands the house the F USD the prefunding wire left with
 * it) and the house pays F + rebate ordinary stablecoin into the minter's primary wallet. So the
 * house keeps the fees in USD and pays the rebates in stablecoin. A failed order moves nothing and
 * its reservation is released; the house covers its counterparties.
 */
function settleOrder(ctx: EngineContext, o: Order, failIds: ReadonlySet<string> | undefined): void {
  const { state } = ctx;
  const auction = o.clearedIn;
  if (auction === null) return;
  ctx.dirty.add(o.entityId);
  releaseReservation(state, o);
  if (shouldFail(ctx, failIds, o.orderId)) {
    setStatus(ctx, o, 'failed');
    return;
  }
  const F = o.filledCents;
  const fee = o.feeCents;
  exchange(state, o, state.house, F, o.orderType === 'BURN' ? F - fee : F + fee);
  if (F > 0) recordActivity(state, o.entityId, auction.clearedAt ?? ctx.time, o.orderType, F, fee);
  const remainder = o.amountCents - F;
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
  if (pendingCount(currentAuction(state), parent.entityId, opposite) > 0) return;
  if (parent.orderType === 'BURN') {
    const wallet = state.wallets.get(parent.sourceWalletId ?? '');
    if (wallet) wallet.reservedCents += remainder;
  } else {
    mustEntity(state, parent.entityId).venueReservedCents += remainder;
  }
  // The id is derived, so a caller could have placed an order under it already (in memory or in
  // a store's archive): derive again.
  let childId = rollChildOrderId(parent.orderId);
  while (state.orders.placed(childId) || ctx.archive?.placed(childId)) childId = rollChildOrderId(childId);
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
  });
  parent.childOrderId = child.orderId;
}

/**
 * The standard minting product converts the remainder at par, without fee: a BURN remainder is
 * redeemed to USD, a MINT remainder leaves the venue-only balance as ordinary stablecoin.
 */
function fallbackRemainder(ctx: EngineContext, o: Order, remainder: number): void {
  const { state } = ctx;
  exchange(state, o, state.issuer, remainder, remainder);
  state.fallbacks.push(o);
}

/**
 * One exchange of an order with a counterparty (the house at settlement, the issuer for a
 * fallback). BURN: the order's wallet gives `give` stablecoin, its fiat account gets `get` USD.
 * MINT: the entity's venue-only balance gives `give`, retired at the issuer for the USD behind it,
 * which goes to the counterparty; its primary wallet gets `get` ordinary stablecoin.
 */
function exchange(state: EngineState, o: Order, counterparty: Ledger, give: number, get: number): void {
  // An unfilled order moves nothing: at a large clear most of them are.
  if (give === 0 && get === 0) return;
  if (o.orderType === 'BURN') {
    const wallet = state.wallets.get(o.sourceWalletId ?? '');
    const fiat = state.fiatAccounts.get(o.fiatAccountId ?? '');
    if (!wallet || !fiat) throw new Error(`BURN order ${o.orderId} lost its wallet or fiat account`);
    wallet.balanceCents -= give;
    counterparty.stablecoinCents += give;
    counterparty.usdCents -= get;
    fiat.balanceCents += get;
  } else {
    const entity = mustEntity(state, o.entityId);
    const wallet = primaryWallet(state, entity);
    entity.venueBalanceCents -= give;
    state.issuer.stablecoinCents += give;
    state.issuer.usdCents -= give;
    counterparty.usdCents += give;
    counterparty.stablecoinCents -= get;
    wallet.balanceCents += get;
  }
}
