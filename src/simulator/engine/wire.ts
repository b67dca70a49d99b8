import { formatCentiBps, usdMoney } from './money.js';
import { fillOf } from './records.js';
import type { Auction, Order } from './types.js';

/** The fields of an Order that change after it is admitted (an event keeps them as they were). */
export type OrderMoment = Pick<Order, 'status' | 'updatedAt' | 'childOrderId' | 'feeBps' | 'clearedIn'>;

/**
 * An Order exactly as REST returns it (key order fixed, so serialisations are byte-stable); `at`
 * gives the changing fields as of an earlier moment (an event built after the order moved on).
 */
export function toWireOrder(o: Order, at: OrderMoment = o) {
  const fill = fillOf(o, at.clearedIn);
  return {
    orderId: o.orderId,
    auctionId: o.auctionId,
    lineage: { parentOrderId: o.parentOrderId, childOrderId: at.childOrderId },
    orderType: o.orderType,
    amount: usdMoney(o.amountCents),
    feeBps: at.feeBps,
    postFillAction: o.postFillAction,
    status: at.status,
    createdAt: iso(o.createdAt),
    updatedAt: iso(at.updatedAt),
    fill: fill
      ? {
          filledAmount: usdMoney(fill.filledCents),
          unfilledAmount: usdMoney(fill.unfilledCents),
          clearingFeeBps: formatCentiBps(fill.clearingFeeCentiBps),
          matchedAt: iso(fill.matchedAt),
        }
      : null,
    sourceWalletId: o.sourceWalletId,
    fiatAccountId: o.fiatAccountId,
  };
}
export type WireOrder = ReturnType<typeof toWireOrder>;

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
    auctionId: a.auctionId,
    phase: a.phase,
    opensAt: iso(a.opensAt),
    locksAt: iso(a.locksAt),
    clearsAt: iso(a.clearsAt),
    clearedAt: a.clearedAt === null ? null : iso(a.clearedAt),
    settledAt: a.settledAt === null ? null : iso(a.settledAt),
    clearingFeeBps: a.clearingFeeCentiBps === null ? null : formatCentiBps(a.clearingFeeCentiBps),
    matchedVolume: usdMoney(a.matchedCents),
    fillsCount: a.fillsCount,
    orderCount: a.orders.length,
  };
}
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
