/**
 * The REST shapes the engine answers with (orders, auctions, the last clear), built from its
 * records. "Wire" in these names is the wire format, not a bank wire (bank-wires.ts).
 */
import type * as models from '../../generated/models.js';
import { formatCentiBps, usdMoney } from './money.js';
import { fillOf } from './records.js';
import type { Auction, Order } from './types.js';

/** The fields of an Order that change after it is admitted (an event keeps them as they were). */
export type OrderMoment = Pick<Order, 'status' | 'updatedAt' | 'childOrderId' | 'feeBps' | 'clearedIn'>;

/**
 * An Order exactly as REST returns it (key order fixed, so serialisations are byte-stable); `at`
 * gives the changing fields as of an earlier moment (an event built after the order moved on).
 */
export function toWireOrder(o: Order, at: OrderMoment = o): WireOrder {
  const fill = fillOf(o, at.clearedIn);
  const order = {
    /** Equals the idempotency key of the place request. */
    orderId: o.orderId,
    /** The auction the order entered. */
    auctionId: o.auctionId,
    /** The orders this one rolled from and into. */
    lineage: {
      /** The order this one rolled from; null for an original order. */
      parentOrderId: o.parentOrderId,
      /** The order this one rolled into; null if not (yet) rolled. */
      childOrderId: at.childOrderId,
    },
    /** `BURN` or `MINT`. */
    orderType: o.orderType,
    /** The order's amount in USD. */
    amount: usdMoney(o.amountCents),
    /** The fee limit in bps; null for a market order. */
    feeBps: at.feeBps,
    /** What happens to an unfilled remainder. */
    postFillAction: o.postFillAction,
    /** Where the order is in its lifecycle. */
    status: at.status,
    /** When the order was accepted. */
    createdAt: iso(o.createdAt),
    /** When it last changed. */
    updatedAt: iso(at.updatedAt),
    /** Null until the order's auction cleared. */
    fill: fill
      ? {
          /** The matched part. */
          filledAmount: usdMoney(fill.filledCents),
          /** The part left unmatched. */
          unfilledAmount: usdMoney(fill.unfilledCents),
          /** The uniform clearing fee in bps. */
          clearingFeeBps: formatCentiBps(fill.clearingFeeCentiBps),
          /** When the auction cleared. */
          matchedAt: iso(fill.matchedAt),
        }
      : null,
    /** BURN: the wallet that funded it; MINT: null. */
    sourceWalletId: o.sourceWalletId,
    /** BURN: the fiat account paid on settlement; MINT: null. */
    fiatAccountId: o.fiatAccountId,
  };
  // One engine record holds both sides; placeOrder admits a MINT only with both BURN-only ids null,
  // which is the contract's BurnOrder | MintOrder split.
  return order as WireOrder;
}
/** An order exactly as REST returns it: the contract's `Order` (src/generated/models.ts). */
export type WireOrder = models.Order;

// A listing or a burst of events formats the same few instants over and over (an auction's orders
// share its clearing time, a manual clock's placements one instant): a small cache keyed by the
// low bits of the time formats each one once.
const ISO_SLOTS = 64;
const isoMs = new Float64Array(ISO_SLOTS).fill(Number.NaN);
const isoText: string[] = new Array<string>(ISO_SLOTS).fill('');

export function iso(ms: number): string {
  const slot = ms & (ISO_SLOTS - 1);
  if (isoMs[slot] === ms) return isoText[slot] as string;
  const text = new Date(ms).toISOString();
  isoMs[slot] = ms;
  isoText[slot] = text;
  return text;
}

/** Public auction state: the data of market events and of `auction.snapshot`. */
export function toWireAuction(a: Auction) {
  return {
    /** The auction's number, counting from 1. */
    auctionId: a.auctionId,
    /** Where the auction is in its cycle. */
    phase: a.phase,
    /** When it opened. */
    opensAt: iso(a.opensAt),
    /** When it locks (cancels and less competitive fees refused from then on). */
    locksAt: iso(a.locksAt),
    /** When it clears. */
    clearsAt: iso(a.clearsAt),
    /** When it cleared; null before. */
    clearedAt: a.clearedAt === null ? null : iso(a.clearedAt),
    /** When it settled; null before. */
    settledAt: a.settledAt === null ? null : iso(a.settledAt),
    /** The uniform clearing fee in bps once it cleared; null before, or when nothing matched. */
    clearingFeeBps: a.clearingFeeCentiBps === null ? null : formatCentiBps(a.clearingFeeCentiBps),
    /** Volume matched per side. */
    matchedVolume: usdMoney(a.matchedCents),
    /** Orders that filled something. */
    fillsCount: a.fillsCount,
    /** Orders that entered the auction. */
    orderCount: a.orders.length,
  };
}
/** An auction as market events and `clearAuction()` show it. */
export type WireAuction = ReturnType<typeof toWireAuction>;

/**
 * `lastClear` of the market snapshot and of every `auction.*` event (the venue's field): the last
 * auction that cleared, as its clear decided it; null before the first clear.
 */
export function toWireLastClear(a: Auction | undefined) {
  if (a === undefined || a.clearedAt === null) return null;
  return {
    /** The auction that cleared. */
    auctionId: a.auctionId,
    /** When it cleared. */
    clearedAt: iso(a.clearedAt),
    /** Its uniform clearing fee in bps (2 decimals); null when the clear matched nothing. */
    clearingFeeBps: a.clearingFeeCentiBps === null ? null : formatCentiBps(a.clearingFeeCentiBps),
    /** Volume matched per side (integer cents on the socket). */
    matchedVolume: usdMoney(a.matchedCents),
    /** Orders that filled something. */
    fillsCount: a.fillsCount,
  };
}
export type WireLastClear = ReturnType<typeof toWireLastClear>;
