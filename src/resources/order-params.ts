import type { BurnOrderRequest, ListOrdersQuery, MintOrderRequest } from '../generated/models.js';

// What callers hand `orders.place` and `orders.list`: the wire shapes with the parts the client
// fills in (the idempotency key, Date filters) made optional or friendlier.

/** Body of a new order (BURN or MINT); `idempotencyKey` is generated when omitted. */
export type PlaceOrderParams =
  | (Omit<BurnOrderRequest, 'idempotencyKey'> & {
      /** UUID v4 that becomes the orderId; sending it again returns the same order. Default: a new one. */
      idempotencyKey?: string;
    })
  | (Omit<MintOrderRequest, 'idempotencyKey'> & {
      /** UUID v4 that becomes the orderId; sending it again returns the same order. Default: a new one. */
      idempotencyKey?: string;
    });

/** Filters of a list call; `page` defaults to 1 and `pageSize` (1..100) to 20. */
export type ListOrdersParams = Omit<ListOrdersQuery, 'page' | 'pageSize' | 'from' | 'to'> & {
  /** Orders created at or after this instant: a Date or an ISO 8601 date-time. */
  from?: Date | string;
  /** Orders created at or before this instant: a Date or an ISO 8601 date-time. */
  to?: Date | string;
  /** Page number, 1-based. Default 1. */
  page?: number;
  /** Results per page, 1 to 100. Default 20. */
  pageSize?: number;
};
