import type {
  BurnOrderRequest,
  CancelOrderRequest,
  ListOrdersQuery,
  MintOrderRequest,
  ModifyOrderRequest,
} from '../generated/models.js';

// What callers hand the order calls: the wire shapes with the parts the client fills in (the
// idempotency key, Date filters) made optional or friendlier. The wire types stay inside (the
// generated models): users write these names. Each is an interface extending its wire type, so the
// API reference lists the fields here (a type alias of an unexported type would show only its name).

/** Body of a new BURN order (stablecoin to USD); `idempotencyKey` is generated when omitted. */
export interface BurnOrderParams extends Omit<BurnOrderRequest, 'idempotencyKey'> {
  /** UUID v4 that becomes the orderId; sending it again returns the same order. Default: a new one. */
  idempotencyKey?: string;
}

/** Body of a new MINT order (USD to stablecoin); `idempotencyKey` is generated when omitted. */
export interface MintOrderParams extends Omit<MintOrderRequest, 'idempotencyKey'> {
  /** UUID v4 that becomes the orderId; sending it again returns the same order. Default: a new one. */
  idempotencyKey?: string;
}

/** Body of a new order (BURN or MINT), what `orders.place` takes. */
export type PlaceOrderParams = BurnOrderParams | MintOrderParams;

/** Filters of a list call; `page` defaults to 1 and `pageSize` (1..100) to 20. */
export interface ListOrdersParams extends Omit<ListOrdersQuery, 'page' | 'pageSize' | 'from' | 'to'> {
  /** Orders created at or after this instant: a Date or an ISO 8601 date-time. */
  from?: Date | string;
  /** Orders created at or before this instant: a Date or an ISO 8601 date-time. */
  to?: Date | string;
  /** Page number, 1-based. Default 1. */
  page?: number;
  /** Results per page, 1 to 100. Default 20. */
  pageSize?: number;
}

/** Parameters of `orders.cancel`: the order to cancel. */
export interface CancelOrderParams extends CancelOrderRequest {}

/** Parameters of `orders.modify`: the order and its new fee limit or post-fill action. */
export interface ModifyOrderParams extends ModifyOrderRequest {}
