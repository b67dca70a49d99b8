/**
 * Placement: a request's text read into integers (placeOrder), then the venue's rules on those
 * integers (placeParsed). The background market enters at placeParsed with integers it drew: it
 * used to format cents and centi-bps to strings for placeOrder to parse back, about a tenth of a
 * simulated day's CPU (parseHundredths and its regex, formatCents, the input objects: 0.6 s of
 * 7.3 s at 300 auctions of bench/day.ts).
 */
import { orderIdFor } from '../../contract/ids.js';
import { isVenueCurrency, VENUE_CURRENCY_RULE } from '../../contract/money.js';
import { invalidField, venueError } from './errors.js';
import { formatCents, isOversizeAmount, parseCentiBps, parseCents } from './money.js';
import { admitOrder, FEE_RULE, pendingCount, requireEligible, venueAvailableCents } from './orders.js';
import { currentAuction, type EngineContext, mustEntity } from './state.js';
import type { Entity, FiatAccount, Order, OrderType, PlaceResult, PostFillAction, Wallet } from './types.js';

/** A place request as the HTTP layer validated it (shape and field rules already checked). */
export interface PlaceInput {
  idempotencyKey: string;
  orderType: OrderType;
  amount: { amount: string; currency: string };
  feeBps?: string | null;
  postFillAction: PostFillAction;
  sourceWalletId?: string | null;
  fiatAccountId?: string | null;
}

/**
 * A placement read into the engine's units: what placeOrder checks the venue's rules on. The
 * amount is a safe integer of cents, or undefined when the text was a well-formed amount too large
 * for exact cents (137009, not a format error); the limit a non-negative safe integer of
 * centi-bps written as `feeBps` (formatCentiBps(limitCentiBps)), or null with it for a market order.
 */
export interface ParsedPlacement {
  idempotencyKey: string;
  orderType: OrderType;
  amountCents: number | undefined;
  feeBps: string | null;
  limitCentiBps: number | null;
  postFillAction: PostFillAction;
  /** The BURN order's wallet and fiat account; null on MINT (which names neither). */
  sourceWalletId: string | null;
  fiatAccountId: string | null;
}

/**
 * Placement. Checks run in a fixed order so that one request always meets the same error:
 * eligibility, amount, currency, fee (these three are the text's, here), then placeParsed's:
 * idempotency, amount/limit, per-auction cap, wallet, fiat account, self-match, balance.
 * Orders placed during the lock window join the current auction.
 */
export function placeOrder(ctx: EngineContext, entityId: string, input: PlaceInput): PlaceResult {
  const entity = mustEntity(ctx.state, entityId);
  requireEligible(entity);
  const amountCents = parseCents(input.amount.amount);
  const oversize = amountCents === undefined && isOversizeAmount(input.amount.amount);
  if (amountCents === undefined && !oversize)
    throw invalidField('amount.amount', 'must be a decimal with at most 2 decimals', input.amount.amount);
  if (!isVenueCurrency(input.amount.currency))
    throw invalidField('amount.currency', VENUE_CURRENCY_RULE, input.amount.currency);
  const feeBps = input.feeBps ?? null;
  const limitCentiBps = feeBps === null ? null : parseCentiBps(feeBps);
  if (limitCentiBps === undefined) throw invalidField('feeBps', FEE_RULE, feeBps ?? '');
  const isBurn = input.orderType === 'BURN';
  return placeParsed(ctx, entity, {
    idempotencyKey: input.idempotencyKey,
    orderType: input.orderType,
    amountCents,
    feeBps,
    limitCentiBps,
    postFillAction: input.postFillAction,
    sourceWalletId: isBurn ? (input.sourceWalletId ?? null) : null,
    fiatAccountId: isBurn ? (input.fiatAccountId ?? null) : null,
  });
}

/**
 * The venue's rules on a placement already in its units (see ParsedPlacement), in placeOrder's
 * order from idempotency on; the caller has checked the entity's eligibility. Answers as
 * placeOrder does: the order it admitted, or the one already placed under the key (a replay).
 */
export function placeParsed(ctx: EngineContext, entity: Entity, p: ParsedPlacement): PlaceResult {
  const { state, config } = ctx;
  const entityId = entity.id;
  const { amountCents, limitCentiBps, sourceWalletId, fiatAccountId } = p;
  const isBurn = p.orderType === 'BURN';
  // The order is named by its placement's key (the contract's orderId = idempotencyKey), whether
  // the order under it is in memory or went to a store's archive.
  const orderId = orderIdFor(p.idempotencyKey);
  const existing = state.orders.get(orderId) ?? ctx.archive?.find(orderId);
  if (existing) {
    // The same parameters: same entity, type, amount (by value), placed limit, election, wallet and
    // fiat account. A roll child's id was never placed, so a placement under it is always a reuse.
    const same =
      existing.parentOrderId === null &&
      existing.entityId === entityId &&
      existing.orderType === p.orderType &&
      existing.amountCents === amountCents &&
      existing.placedLimitCentiBps === limitCentiBps &&
      existing.postFillAction === p.postFillAction &&
      existing.sourceWalletId === sourceWalletId &&
      existing.fiatAccountId === fiatAccountId;
    if (!same) throw venueError.IdempotencyKeyReused(p.idempotencyKey);
    return placeResult(existing);
  }
  if (amountCents === undefined || amountCents > config.transactionLimitCents)
    throw venueError.TransactionLimitExceeded(formatCents(config.transactionLimitCents));
  const auction = currentAuction(state);
  const placedHere = auction.placed.get(entityId) ?? 0;
  if (placedHere >= config.maxOrdersPerAuction)
    throw venueError.MaxOrdersPerAuction(config.maxOrdersPerAuction, auction.auctionId);

  let wallet: Wallet | undefined;
  let fiat: FiatAccount | undefined;
  if (isBurn) {
    if (sourceWalletId === null || fiatAccountId === null)
      throw invalidField(
        sourceWalletId === null ? 'sourceWalletId' : 'fiatAccountId',
        'is required on a BURN order',
      );
    wallet = state.wallets.get(sourceWalletId);
    if (!wallet) throw venueError.WalletNotFound(sourceWalletId);
    if (wallet.entityId !== entityId || wallet.currency !== 'USD')
      throw venueError.InvalidWallet(sourceWalletId);
    fiat = state.fiatAccounts.get(fiatAccountId);
    if (!fiat || fiat.entityId !== entityId) throw venueError.InvalidFiatAccount(fiatAccountId);
  }
  const opposite: OrderType = isBurn ? 'MINT' : 'BURN';
  if (pendingCount(auction, entityId, opposite) > 0) throw venueError.SelfMatch(auction.auctionId, opposite);
  if (wallet) {
    const available = wallet.balanceCents - wallet.reservedCents;
    if (available < amountCents)
      throw venueError.InsufficientBalance(`Wallet ${wallet.id} has ${formatCents(available)} available`);
    wallet.reservedCents += amountCents;
  } else {
    const available = venueAvailableCents(entity);
    if (available < amountCents)
      throw venueError.InsufficientBalance(
        `Venue-only balance has ${formatCents(available)} USD available for MINT orders; prefund it by wire`,
      );
    entity.venueReservedCents += amountCents;
  }
  auction.placed.set(entityId, placedHere + 1);
  const order = admitOrder(ctx, {
    orderId,
    entityId,
    orderType: p.orderType,
    amountCents,
    feeBps: p.feeBps,
    limitCentiBps,
    postFillAction: p.postFillAction,
    // The wallet's and the fiat account's own id strings (equal to the request's): settlement
    // looks them up once per order, and the same string object is the quickest key.
    sourceWalletId: wallet?.id ?? null,
    fiatAccountId: fiat?.id ?? null,
    parentOrderId: null,
  });
  return placeResult(order);
}

/** The 202 answer, also replayed for the same key and parameters: nothing in it ever changes. */
function placeResult(order: Order): PlaceResult {
  return { auctionId: order.auctionId, orderId: order.orderId, status: 'pending' };
}
