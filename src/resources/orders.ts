import { orderIdFor } from '../contract/ids.js';
import { parseHundredths } from '../contract/money.js';
import { endpoints } from '../generated/endpoints.js';
import type { ClientCore } from '../core/api-client.js';
import { APIPromise, type WithResponse } from '../core/api-promise.js';
import {
  type APIError,
  APIUserAbortError,
  InvalidArgumentError,
  NotFoundError,
  type OutcomeUnknownError,
  ValidationError,
} from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import { type Absence, outcomeOf, type ResolveOptions, resolveUnknownKey } from '../core/resolve-unknown.js';
import { isUuid } from '../core/validation.js';
import { inSpan } from '../core/telemetry/index.js';
import { ErrorCode } from '../generated/errors.js';
import type {
  BurnOrder,
  CancelAllResult,
  CancelOrderResult,
  MintOrder,
  ModifyOrderResult,
  Order,
  OrderAmount,
  OrderFill,
  OrderLineage,
  OrderList,
  OrderStatus,
  OrderType,
  PlaceOrderResult,
  PostFillAction,
} from '../generated/models.js';
import {
  badOrderId,
  type ClientState,
  checkOutcomeOptions,
  loadOutcomeWait,
  type WaitForOutcomeOptions,
} from '../state/index.js';
import type {
  BurnOrderParams,
  CancelOrderParams,
  ListOrdersParams,
  MintOrderParams,
  ModifyOrderParams,
  PlaceOrderParams,
} from './order-params.js';

/** A Date filter as the query's ISO 8601 text; an invalid Date stays a Date, which validation names. */
function isoFilters(params: ListOrdersParams): Record<string, unknown> {
  const query: Record<string, unknown> = { ...params };
  for (const key of ['from', 'to'] as const) {
    const value = params[key];
    if (value instanceof Date && !Number.isNaN(value.getTime())) query[key] = value.toISOString();
  }
  return query;
}

// The spec types `sourceWalletId` as a plain string, not a UUID: the platform's wallet ids are
// numeric strings, the simulator's are UUIDs. So no format is imposed; only what no wallet id can
// be is refused before sending: a space or control character (a paste gone wrong), or something
// that starts like a UUID (8 letters or digits, a hyphen, 4, a hyphen) and is not one (a UUID cut
// short or mistyped).
const NOT_IN_AN_ID = /[\s\p{Cc}]/u;
const UUID_SHAPED = /^[0-9a-z]{8}-[0-9a-z]{4}-/i;

/** A BURN's malformed `sourceWalletId`, as the ValidationError to reject with; else undefined. */
function badWalletId(params: PlaceOrderParams): ValidationError | undefined {
  // No params, a MINT, a missing, empty or non-string id: the generated validator's to name.
  if (typeof params !== 'object' || params === null || params.orderType !== 'BURN') return undefined;
  const value: unknown = params.sourceWalletId;
  if (typeof value !== 'string' || value === '') return undefined;
  let rule: string | undefined;
  if (NOT_IN_AN_ID.test(value)) rule = 'must be a wallet id: no spaces or control characters';
  else if (UUID_SHAPED.test(value) && !isUuid(value))
    rule = 'is shaped like a UUID but is not one (8-4-4-4-12 hex digits)';
  if (rule === undefined) return undefined;
  return new ValidationError('orders.place params', [
    { path: 'sourceWalletId', rule, kind: 'invalid_format' },
  ]);
}

const ordersOf = (list: OrderList): Order[] => list.orders;

/** Whether two fee limits are the same limit (null: a market order); '5', '5.0' and '5.00' are. */
function sameFee(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  const x = parseHundredths(a);
  return x === undefined ? a === b : x === parseHundredths(b);
}

/** `venue.orders`: place, read, list, cancel and modify orders. */
export class Orders {
  /** The request pipeline this resource calls (held, so it is not part of the resource's API). */
  readonly #client: ClientCore;
  readonly #state: ClientState;

  /**
   * Made by MatchVenue.
   * @internal
   */
  constructor(client: ClientCore, state: ClientState) {
    this.#client = client;
    this.#state = state;
  }

  /**
   * Places a BURN or MINT order in the current auction. The idempotency key (which becomes the
   * orderId) is made once per call and reused on every retry, so a retry never makes two orders.
   * Bad params reject with ValidationError (kind `MV_VALIDATION`) naming each field, before
   * anything is sent (a `sourceWalletId` with a space or control character, or shaped like a UUID
   * but not one, included); the venue's refusals are APIErrors with the venue's `code` (137001
   * insufficient balance, 137008 auction full, 137006 self-match, ...). When every attempt failed
   * after the request may have reached the venue the call rejects with OutcomeUnknownError (kind
   * `MV_OUTCOME_UNKNOWN`); settle it with {@link Orders.resolveUnknown}.
   *
   * @example
   * ```ts
   * const { orderId, auctionId } = await venue.orders.place({
   *   orderType: 'BURN',
   *   amount: usd('1000'), // { amount: '1000.00', currency: 'USD' }
   *   feeBps: '5', // pay at most 5 bps; null or omitted: a market order
   *   postFillAction: 'roll', // carry a remainder into the next auction
   *   sourceWalletId,
   *   fiatAccountId,
   * });
   * ```
   */
  place(params: PlaceOrderParams, options?: RequestOptions): APIPromise<PlaceOrderResult> {
    const bad = badWalletId(params);
    if (bad) return APIPromise.rejected(bad);
    return this.#client.endpoint(
      endpoints.placeOrder,
      { context: 'orders.place params', body: params },
      options,
    );
  }

  /**
   * One order, with its lineage and fill. A malformed id rejects with ValidationError before
   * sending; an unknown one with NotFoundError.
   */
  retrieve(orderId: string, options?: RequestOptions): APIPromise<Order> {
    const bad = badOrderId(orderId, 'orders.retrieve orderId');
    if (bad) return APIPromise.rejected(bad);
    return this.#client.endpoint(endpoints.getOrder, { params: { id: orderId } }, options);
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
    const call = { context: 'orders.list params', query: isoFilters(params) };
    return this.#client.endpointPage(endpoints.listOrders, call, ordersOf, options);
  }

  /**
   * Cancels one resting order (rejected in the lock window, 136001, or while settling, 136002).
   * Safe to retry: when a retry is refused after an earlier attempt may have reached the venue, the
   * order is read, and an order already cancelled means that attempt landed: the call resolves.
   */
  cancel(params: CancelOrderParams, options?: RequestOptions): APIPromise<CancelOrderResult> {
    const settleRefusal = () => this.#cancelLanded(params, options);
    return this.#client.endpoint(
      endpoints.cancelOrder,
      { context: 'orders.cancel params', body: params, settleRefusal },
      options,
    );
  }

  /** The answer of a cancel whose earlier attempt landed, read from the order; else the refusal stands. */
  async #cancelLanded(
    params: CancelOrderParams,
    options: RequestOptions | undefined,
  ): Promise<WithResponse<CancelOrderResult> | undefined> {
    const { data: order, response } = await this.retrieve(params.orderId, options).withResponse();
    if (order.auctionId !== params.auctionId || order.status !== 'cancelled') return undefined;
    return { data: { auctionId: order.auctionId, orderId: order.orderId, status: 'cancelled' }, response };
  }

  /** Cancels every resting order of the caller in the current auction. */
  cancelAll(options?: RequestOptions): APIPromise<CancelAllResult> {
    return this.#client.endpoint(endpoints.cancelAllOrders, {}, options);
  }

  /**
   * Changes the fee limit of a resting order; `feeBps: null` makes it a market order. In the lock
   * window the new fee must be more competitive (BURN lower, MINT higher), else 137005. Safe to
   * retry: when a retry is refused with 137005 after an earlier attempt may have reached the venue
   * (a timeout, a dropped connection, a 5xx), the order is read, and an order already at the
   * requested fee means that attempt landed: the call resolves as the modify did.
   */
  modify(params: ModifyOrderParams, options?: RequestOptions): APIPromise<ModifyOrderResult> {
    const settleRefusal = (refusal: APIError) => this.#modifyLanded(params, refusal, options);
    return this.#client.endpoint(
      endpoints.modifyOrder,
      { context: 'orders.modify params', body: params, settleRefusal },
      options,
    );
  }

  /**
   * The answer of a modify whose earlier attempt landed, read from the order: a retry of a change
   * that already happened meets an unchanged fee, which the lock window refuses (137005). Any
   * other refusal, or an order at another fee, is left standing.
   */
  async #modifyLanded(
    params: ModifyOrderParams,
    refusal: APIError,
    options: RequestOptions | undefined,
  ): Promise<WithResponse<ModifyOrderResult> | undefined> {
    if (refusal.venueCode !== ErrorCode.FeeChangeNotMoreCompetitive) return undefined;
    const { data: order, response } = await this.retrieve(params.orderId, options).withResponse();
    if (order.auctionId !== params.auctionId || !sameFee(order.feeBps ?? null, params.feeBps))
      return undefined;
    // What the modify answered when it landed; the order may have moved on since (cleared, say).
    return { data: { auctionId: params.auctionId, orderId: order.orderId, status: 'pending' }, response };
  }

  /**
   * Resolves with the order once it is final (`filled`, `partial_fill`, `unfilled`, `cancelled`,
   * `failed`). Listens on `options.stream`, else on the client's open mirror or stream, and reads
   * the order over REST too (with backoff alone, every `pollIntervalMs` beside a stream), so a
   * missed event never leaves it hanging. A `roll` remainder's child id (`lineage.childOrderId`)
   * is awaited for `childGraceMs` (default 2 s) after the final status. A malformed id rejects
   * with ValidationError before sending; `timeout` with WaitTimeoutError (kind `MV_WAIT_TIMEOUT`,
   * `lastSeen` the last state read); the signal with APIUserAbortError; an unknown order with
   * NotFoundError.
   *
   * @example
   * ```ts
   * const { orderId } = await venue.orders.place(params);
   * const order = await venue.orders.waitForOutcome(orderId, { timeout: 60_000 });
   * if (order.status === 'partial_fill') console.log('rolled into', order.lineage.childOrderId);
   * ```
   */
  waitForOutcome(orderId: string, options?: WaitForOutcomeOptions): Promise<Order> {
    const bad = badOrderId(orderId, 'orders.waitForOutcome orderId');
    if (bad) return Promise.reject(bad);
    try {
      checkOutcomeOptions(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const host = {
      retrieveOrder: (id: string, signal: AbortSignal) => this.retrieve(id, { signal }),
      shared: () => this.#state.shared(),
      logger: this.#client.logger,
    };
    return inSpan(
      'orders.waitForOutcome',
      { 'match_venue.order_id': orderId },
      () => loadOutcomeWait().then(({ waitForOutcome }) => waitForOutcome(host, orderId, options)),
      (span, order) => span.setAttribute('match_venue.order.status', order.status),
    );
  }

  /**
   * Settles an uncertain `place` (an OutcomeUnknownError, an APIUserAbortError of a place aborted
   * in flight, or the idempotency key itself): looks the order
   * up by its id (the key). Resolves to `{ status: 'found', order }`, `{ status: 'absent', final:
   * true }` once no attempt can land any more (the settle window has passed since the last one), or
   * `{ status: 'absent', final: false, settlesAt }` while one still can. With `{ wait: true }` it
   * waits out the window and answers found or final. After a final absence, placing again is a new,
   * definite call; placing again earlier with the same `idempotencyKey` is safe too (a key never
   * makes two orders, and a refusal then stays an OutcomeUnknownError until the window has passed).
   */
  async resolveUnknown(
    error: OutcomeUnknownError | APIUserAbortError | string,
    options?: ResolveOptions,
  ): Promise<OrderResolution> {
    const outcome =
      typeof error === 'string' || error instanceof APIUserAbortError
        ? undefined
        : outcomeOf(error, 'placeOrder', 'orders.resolveUnknown');
    const key = typeof error === 'string' ? error : error.idempotencyKey;
    if (key === undefined)
      throw new InvalidArgumentError('orders.resolveUnknown: the error carries no idempotency key');
    const bad = badOrderId(key, 'orders.resolveUnknown idempotencyKey');
    if (bad) throw bad;
    const look = async () => {
      try {
        return await this.retrieve(orderIdFor(key), options);
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    };
    const target = { key, operation: 'placeOrder', settlesAt: outcome?.settlesAt, request: outcome?.request };
    const answer = await resolveUnknownKey(this.#client, target, look, options);
    return answer.status === 'found' ? { status: 'found', order: answer.value } : answer;
  }
}

/** What {@link Orders.resolveUnknown} found: the order, or an absence (final or for now). */
export type OrderResolution =
  | {
      /** The order exists. */
      status: 'found';
      /** The order the uncertain call placed. */
      order: Order;
    }
  | Absence;

// The API's data of this resource and what its calls take, reached as `Orders.Order`,
// `Orders.PlaceOrderParams`, ... (one namespace per resource, merged with the class: the main entry
// exports the resource, not each of its types).
export declare namespace Orders {
  export type {
    BurnOrder,
    BurnOrderParams,
    CancelAllResult,
    CancelOrderParams,
    CancelOrderResult,
    ListOrdersParams,
    MintOrder,
    MintOrderParams,
    ModifyOrderParams,
    ModifyOrderResult,
    Order,
    OrderAmount,
    OrderFill,
    OrderLineage,
    OrderResolution,
    OrderStatus,
    OrderType,
    PlaceOrderParams,
    PlaceOrderResult,
    PostFillAction,
    WaitForOutcomeOptions,
  };
}
