import type { ClientCore } from '../core/api-client.js';
import { endpoints } from '../generated/endpoints.js';
import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { ConfigurationError } from '../core/error.js';
import { validate } from '../core/validation.js';
import type { WsTicket } from '../generated/models.js';
import { OrderStatus } from '../generated/validators.js';
import type { ClientState } from '../state/index.js';
import {
  connectStream,
  type OrderPage,
  type OrderQuery,
  type StreamHost,
  type StreamOptions,
  type VenueStream,
} from '../stream/index.js';
import type {
  AccountEvent,
  AuctionClearedEvent,
  AuctionEventData,
  AuctionLockedEvent,
  AuctionOpenedEvent,
  AuctionSettledEvent,
  AuctionSnapshotEvent,
  AuctionState,
  BackoffOptions,
  BalanceUpdatedEvent,
  Channel,
  Envelope,
  KnownAccountEvent,
  KnownEvent,
  KnownEventName,
  KnownMarketEvent,
  LastClear,
  MarketEvent,
  MarketSnapshot,
  OrderAcceptedEvent,
  OrderUpdatedEvent,
  OverflowPolicy,
  StateChange,
  StreamAccountSummary,
  StreamEvent,
  StreamOrder,
  StreamResyncEvent,
  StreamState,
  StreamStats,
  StreamSubscription,
  StreamWithdrawal,
  UnknownStreamEvent,
  WithdrawalUpdatedEvent,
} from '../stream/index.js';
import type { Orders } from './orders.js';

/** The simulator's `x-account-seq` list header; a venue that does not send it gets undefined. */
function accountSeqOf(headers: Readonly<Record<string, string>>): number | undefined {
  const raw = headers['x-account-seq'];
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) return undefined;
  return Number(raw);
}

/** A WebSocket base URL, or a function giving it before each (re)connect (mock mode starts lazily). */
export type WsUrlSource = StreamHost['wsUrl'];

/** `venue.stream`: the venue's WebSocket, as async iterators of market and account events. */
export class Stream {
  /** The request pipeline this resource calls (held, so it is not part of the resource's API). */
  readonly #client: ClientCore;
  readonly #orders: Orders;
  readonly #wsUrl: () => WsUrlSource | undefined;
  readonly #subprotocol: string | undefined;
  readonly #state: ClientState | undefined;

  /**
   * Made by MatchVenue.
   * @internal
   */
  constructor(
    client: ClientCore,
    orders: Orders,
    wsUrl: () => WsUrlSource | undefined,
    subprotocol?: string,
    state?: ClientState,
  ) {
    this.#client = client;
    this.#orders = orders;
    this.#wsUrl = wsUrl;
    this.#subprotocol = subprotocol;
    this.#state = state;
  }

  /** A short-lived, single-use WebSocket ticket. It is a secret: never log it. */
  ticket(options?: RequestOptions): APIPromise<WsTicket> {
    return this.#client.endpoint(endpoints.createWsTicket, {}, options);
  }

  /**
   * Opens the WebSocket (market and account channels). A fresh ticket is fetched before every
   * (re)connect; after a gap the stream resyncs account state over REST. Throws ConfigurationError
   * (kind `MV_INVALID_CONFIG`) when the client has no WebSocket URL; a stream that cannot connect
   * ends its iterators with StreamGaveUpError (kind `MV_STREAM_GAVE_UP`).
   *
   * @example
   * ```ts
   * const stream = venue.stream.connect();
   * const account = stream.account();
   * await account.ready; // subscribed: no event of an order placed from here on is missed
   * for await (const ev of account) {
   *   if (isEvent(ev, 'order.updated')) console.log(ev.data.orderId, ev.data.status);
   * }
   * await stream.close();
   * ```
   */
  connect(options?: StreamOptions): VenueStream {
    const wsUrl = this.#wsUrl();
    if (wsUrl === undefined) {
      throw new ConfigurationError(
        'Streaming needs a WebSocket URL: pass wsUrl. A client served by a plain in-process handler has no ' +
          "socket to stream on: use a client of createMockVenue() from 'match-venue/testing', which streams from its simulator.",
      );
    }
    const stream = connectStream(
      {
        wsUrl,
        subprotocol: this.#subprotocol,
        ticket: () => this.ticket(),
        listOrders: (query) => this.orderPages(query),
        logger: this.#client.logger,
        recorder: this.#client.recorder,
      },
      options,
    );
    // Waits of this client (orders.waitForOutcome) listen on it while it is open.
    this.#state?.addStream(stream);
    return stream;
  }

  /**
   * Every page of one order query, each with the account seq the server read it at.
   * @internal
   */
  async *orderPages(query: OrderQuery): AsyncGenerator<OrderPage, void, undefined> {
    let next = this.#orders.list({
      pageSize: 100,
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.orderId === undefined ? {} : { orderId: query.orderId }),
      ...(query.status === undefined
        ? {}
        : { status: validate(OrderStatus, query.status, 'stream reconcile status') }),
    });
    for (;;) {
      const { data: page, response } = await next.withResponse();
      const accountSeq = accountSeqOf(response.headers);
      yield accountSeq === undefined ? { orders: page.items } : { orders: page.items, accountSeq };
      if (!page.hasNextPage()) return;
      next = page.getNextPage();
    }
  }
}

// The stream's events and options and the API's data of this resource, reached as
// `Stream.StreamEvent`, `Stream.StreamOptions`, ... (one namespace per resource, merged with the
// class: the main entry exports the resource, not each of its types).
export declare namespace Stream {
  export type {
    AccountEvent,
    AuctionClearedEvent,
    AuctionEventData,
    AuctionLockedEvent,
    AuctionOpenedEvent,
    AuctionSettledEvent,
    AuctionSnapshotEvent,
    AuctionState,
    BackoffOptions,
    BalanceUpdatedEvent,
    Channel,
    Envelope,
    KnownAccountEvent,
    KnownEvent,
    KnownEventName,
    KnownMarketEvent,
    LastClear,
    MarketEvent,
    MarketSnapshot,
    OrderAcceptedEvent,
    OrderUpdatedEvent,
    OverflowPolicy,
    StateChange,
    StreamAccountSummary,
    StreamEvent,
    StreamOptions,
    StreamOrder,
    StreamResyncEvent,
    StreamState,
    StreamStats,
    StreamSubscription,
    StreamWithdrawal,
    UnknownStreamEvent,
    VenueStream,
    WithdrawalUpdatedEvent,
    WsTicket,
  };
}
