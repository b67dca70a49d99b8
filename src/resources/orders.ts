import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import {
  type APIUserAbortError,
  InvalidArgumentError,
  NotFoundError,
  OutcomeUnknownError,
  ValidationError,
} from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import { path } from '../core/path.js';
import { APIResource, newIdempotencyKey } from '../core/resource.js';
import { isUuid, validate } from '../core/validation.js';
import {
  type BurnOrder,
  CancelAllResult,
  CancelOrderRequest,
  CancelOrderResult,
  ListOrdersQuery,
  type MintOrder,
  ModifyOrderRequest,
  ModifyOrderResult,
  Order,
  OrderList,
  PlaceOrderRequest,
  PlaceOrderResult,
} from '../generated/schemas.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Body of a new order (BURN or MINT); `idempotencyKey` is generated when omitted. */
export type PlaceOrderParams = DistributiveOmit<PlaceOrderRequest, 'idempotencyKey'> & {
  idempotencyKey?: string;
};

/** Filters of a list call; `page` defaults to 1 and `pageSize` (1..100) to 20. */
export type ListOrdersParams = Omit<ListOrdersQuery, 'page' | 'pageSize'> & {
  page?: number;
  pageSize?: number;
};

/** Checks a path id before sending: an order id is a UUID (the `path` tag still encodes it). */
function orderIdOf(value: unknown, context: string): string {
  if (typeof value === 'string' && isUuid(value)) return value;
  throw new ValidationError(context, [
    {
      path: 'orderId',
      rule: typeof value === 'string' && value !== '' ? 'must be a UUID' : 'is required',
      kind: typeof value === 'string' ? 'invalid_format' : 'invalid_type',
    },
  ]);
}

export class Orders extends APIResource {
  /**
   * Places a BURN or MINT order in the current auction. The idempotency key (which becomes the
   * orderId) is made once per call and reused on every retry, so a retry never makes two orders.
   * When every attempt failed after the request may have reached the venue the call rejects with
   * OutcomeUnknownError; settle it with `resolveUnknown`.
   */
  place(params: PlaceOrderParams, options?: RequestOptions): APIPromise<PlaceOrderResult> {
    return this.client.call(() => {
      const idempotencyKey = params.idempotencyKey ?? newIdempotencyKey();
      const body = validate(PlaceOrderRequest, { ...params, idempotencyKey }, 'orders.place params');
      return {
        ...options,
        method: 'POST',
        path: '/v1/match/orders',
        body,
        idempotencyKey,
        outcome: 'placeOrder',
        responseSchema: PlaceOrderResult,
      };
    });
  }

  /** One order, with its lineage and fill. */
  retrieve(orderId: string, options?: RequestOptions): APIPromise<Order> {
    return this.client.call(() => ({
      ...options,
      method: 'GET',
      path: path`/v1/match/orders/${orderIdOf(orderId, 'orders.retrieve orderId')}`,
      responseSchema: Order,
    }));
  }

  /**
   * Await for one page (`items`, `pagination`, `hasNextPage()`, `getNextPage()`), or
   * `for await (const order of venue.orders.list(...))` for every order across pages. Filtering
   * on `orderType` narrows the item type.
   */
  list(params: ListOrdersParams & { orderType: 'BURN' }, options?: RequestOptions): PagePromise<BurnOrder>;
  list(params: ListOrdersParams & { orderType: 'MINT' }, options?: RequestOptions): PagePromise<MintOrder>;
  list(params?: ListOrdersParams, options?: RequestOptions): PagePromise<Order>;
  list(params: ListOrdersParams = {}, options?: RequestOptions): PagePromise<Order> {
    return this.client.callPage(
      () => ({
        ...options,
        method: 'GET',
        path: '/v1/match/orders',
        query: validate(ListOrdersQuery, params, 'orders.list params'),
        responseSchema: OrderList,
      }),
      (body) => body.orders,
    );
  }

  /** Cancels one resting order (rejected in the lock window, 136001, or while settling, 136002). */
  cancel(params: CancelOrderRequest, options?: RequestOptions): APIPromise<CancelOrderResult> {
    return this.client.call(() => ({
      ...options,
      method: 'POST',
      path: '/v1/match/orders/cancel',
      body: validate(CancelOrderRequest, params, 'orders.cancel params'),
      responseSchema: CancelOrderResult,
    }));
  }

  /** Cancels every resting order of the caller in the current auction. */
  cancelAll(options?: RequestOptions): APIPromise<CancelAllResult> {
    return this.client.call(() => ({
      ...options,
      method: 'POST',
      path: '/v1/match/orders/cancel-all',
      responseSchema: CancelAllResult,
    }));
  }

  /** Changes the fee limit of a resting order; `feeBps: null` makes it a market order. */
  modify(params: ModifyOrderRequest, options?: RequestOptions): APIPromise<ModifyOrderResult> {
    return this.client.call(() => ({
      ...options,
      method: 'POST',
      path: '/v1/match/orders/modify',
      body: validate(ModifyOrderRequest, params, 'orders.modify params'),
      responseSchema: ModifyOrderResult,
    }));
  }

  /**
   * Settles an uncertain `place`: an OutcomeUnknownError, an APIUserAbortError of a place call
   * (aborted while the request was in flight), or the idempotency key itself. Looks the order up
   * by its id (the key). Resolves to the Order when it exists, or null when the venue has no such
   * order now. An earlier attempt can still be in flight, so after null place again with
   * `idempotencyKey: <the key>` rather than with a new key: a key never makes two orders.
   */
  async resolveUnknown(
    error: OutcomeUnknownError | APIUserAbortError | string,
    options?: RequestOptions,
  ): Promise<Order | null> {
    if (error instanceof OutcomeUnknownError && error.operation !== 'placeOrder') {
      throw new InvalidArgumentError(
        `orders.resolveUnknown expects a placeOrder outcome, got ${error.operation}`,
      );
    }
    const key = typeof error === 'string' ? error : error.idempotencyKey;
    if (!key) throw new InvalidArgumentError('orders.resolveUnknown: the error carries no idempotency key');
    try {
      return await this.retrieve(key, options);
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }
}
