import type { Fill, Order } from './types.js';

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
    fill: null,
    placedLimitCentiBps: fields.limitCentiBps,
  };
}

export function fillRecord(
  filledCents: number,
  unfilledCents: number,
  clearingFeeCentiBps: number,
  matchedAt: number,
  feeCents: number,
): Fill {
  return { filledCents, unfilledCents, clearingFeeCentiBps, matchedAt, feeCents };
}

// V8 gives each field the representation of the first values it sees (a small integer, a double,
// null) and, when a later object brings another kind, moves every object made so far to a new
// hidden class, one at a time on its next use. Amounts parsed from a request are small integers;
// a roll child's amount is computed from the clearing's doubles; so the first roll child of a
// 1,000,000-order settlement used to migrate the million orders before it (seconds, measured by
// bench/clearing.ts). Records made here, before any real one, with a double and a null in every
// numeric field, and every later change made once, give the fields their most general
// representation from the start.
for (const sample of [0.5, null, 1.5]) {
  const n = sample ?? 0.5;
  const order = orderRecord(
    {
      orderId: '',
      entityId: '',
      orderType: 'BURN',
      amountCents: n,
      feeBps: sample === null ? null : '',
      limitCentiBps: sample,
      postFillAction: 'roll',
      sourceWalletId: sample === null ? null : '',
      fiatAccountId: sample === null ? null : '',
      parentOrderId: sample === null ? null : '',
    },
    n,
    n,
  );
  order.status = 'settling';
  order.updatedAt = n;
  order.feeBps = null;
  order.limitCentiBps = n;
  order.childOrderId = '';
  order.fill = fillRecord(n, n, n, n, n);
}
