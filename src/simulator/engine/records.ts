import type { Auction, Fill, Order } from './types.js';

/** What a new order is made of; the rest (status, times, lineage, fill) starts the same for all. */
export type NewOrder = Pick<
  Order,
  | 'orderId'
  | 'entityId'
  | 'orderType'
  | 'amountCents'
  | 'feeBps'
  | 'limitCentiBps'
  | 'postFillAction'
  | 'sourceWalletId'
  | 'fiatAccountId'
  | 'parentOrderId'
>;

/** Every Order is made here, by one object literal, so that all of them share one hidden class. */
export function orderRecord(fields: NewOrder, auctionId: number, time: number): Order {
  return {
    orderId: fields.orderId,
    entityId: fields.entityId,
    auctionId,
    orderType: fields.orderType,
    amountCents: fields.amountCents,
    feeBps: fields.feeBps,
    limitCentiBps: fields.limitCentiBps,
    postFillAction: fields.postFillAction,
    status: 'pending',
    createdAt: time,
    updatedAt: time,
    sourceWalletId: fields.sourceWalletId,
    fiatAccountId: fields.fiatAccountId,
    parentOrderId: fields.parentOrderId,
    childOrderId: null,
    clearedIn: null,
    filledCents: 0,
    feeCents: 0,
    placedLimitCentiBps: fields.limitCentiBps,
  };
}

/**
 * The order's fill, once its auction cleared and matched some of it: the fee and the time are the
 * auction's. An order that matched nothing has none, whatever its status: the spec's `fill` is
 * "Null until the order is matched" and the owner's docs say it "appears once matched".
 */
export function fillOf(
  o: Pick<Order, 'amountCents' | 'filledCents' | 'feeCents'>,
  clearedIn: Auction | null,
): Fill | null {
  if (clearedIn === null || o.filledCents === 0) return null;
  return {
    filledCents: o.filledCents,
    unfilledCents: o.amountCents - o.filledCents,
    clearingFeeCentiBps: clearedIn.clearingFeeCentiBps ?? 0,
    matchedAt: clearedIn.clearedAt ?? 0,
    feeCents: o.feeCents,
  };
}

// V8 gives each field the representation of the first values it sees (a small integer, a double,
// anything) and, when a later object brings another kind, moves every object made so far to a new
// hidden class, one at a time on its next use. Amounts parsed from a request are small integers;
// a roll child's amount is computed from the clearing's doubles; so the first roll child of a
// 1,000,000-order settlement used to migrate the million orders before it (seconds, measured by
// bench/clearing.ts). Records made here, before any real one, settle every field's representation
// from the start: amounts and fees see a double and a non-number ("tagged": a small integer then
// sits in the object itself); the times, rewritten at every status change, see only doubles (a
// double field keeps one box per order, updated in place, where a tagged one would get a new
// number allocated at every write).
const NOT_A_NUMBER = null as unknown as number;
for (const n of [0.5, NOT_A_NUMBER]) {
  const text = n === NOT_A_NUMBER ? null : '';
  const order = orderRecord(
    {
      orderId: '',
      entityId: '',
      orderType: 'BURN',
      amountCents: n,
      feeBps: text,
      limitCentiBps: n,
      postFillAction: 'roll',
      sourceWalletId: text,
      fiatAccountId: text,
      parentOrderId: text,
    },
    n,
    0.5,
  );
  order.status = 'settling';
  order.updatedAt = 1.5;
  order.feeBps = text;
  order.limitCentiBps = n;
  order.childOrderId = '';
  order.filledCents = n;
  order.feeCents = n;
}
