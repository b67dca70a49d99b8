import { formatCentiBps, usdMoney } from './money.js';
import type { Auction, Order } from './types.js';

/** An Order exactly as REST returns it (key order fixed, so serialisations are byte-stable). */
export function toWireOrder(o: Order) {
  return {
    orderId: o.orderId,
    auctionId: o.auctionId,
    lineage: { parentOrderId: o.parentOrderId, childOrderId: o.childOrderId },
    orderType: o.orderType,
    amount: usdMoney(o.amountCents),
    feeBps: o.feeBps,
    postFillAction: o.postFillAction,
    status: o.status,
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
    fill: o.fill
      ? {
          filledAmount: usdMoney(o.fill.filledCents),
          unfilledAmount: usdMoney(o.fill.unfilledCents),
          clearingFeeBps: formatCentiBps(o.fill.clearingFeeCentiBps),
          matchedAt: iso(o.fill.matchedAt),
        }
      : null,
    sourceWalletId: o.sourceWalletId,
    fiatAccountId: o.fiatAccountId,
  };
}
export type WireOrder = ReturnType<typeof toWireOrder>;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
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
    orderCount: a.orderIds.length,
  };
}
export type WireAuction = ReturnType<typeof toWireAuction>;
