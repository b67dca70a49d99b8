import { endpoints } from '../generated/endpoints.js';
import type { ClientCore } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import type { AccountSummary } from '../generated/models.js';
import type {
  ChangeSource,
  MirrorChange,
  MirrorOrderFilter,
  MirrorWaitOptions,
  MirrorWithdrawal,
  OrderChange,
  OrderRemovedChange,
  SummaryChange,
  UnknownEntry,
  UnknownEntryState,
  UnknownKeyChange,
  WithdrawalChange,
  WithdrawalRemovedChange,
} from '../state/index.js';
import { type AccountMirror, type ClientState, MirrorHandle, type MirrorOptions } from '../state/index.js';
import type { Orders } from './orders.js';
import type { Stream } from './stream.js';

/** `venue.account`: the caller's venue account. */
export class Account {
  /** The request pipeline this resource calls (held, so it is not part of the resource's API). */
  readonly #client: ClientCore;
  readonly #orders: Orders;
  readonly #stream: Stream;
  readonly #state: ClientState;

  /**
   * Made by MatchVenue.
   * @internal
   */
  constructor(client: ClientCore, deps: { orders: Orders; stream: Stream; state: ClientState }) {
    this.#client = client;
    this.#orders = deps.orders;
    this.#stream = deps.stream;
    this.#state = deps.state;
  }

  /**
   * Best-effort balance, exposure and activity summary of the caller's venue account. Rejects with
   * NotFoundError (code 138003) when the entity has no venue account.
   */
  retrieve(options?: RequestOptions): APIPromise<AccountSummary> {
    return this.#client.endpoint(endpoints.getAccount, {}, options);
  }

  /**
   * A live local view of the account: every open order and every order that changed since it
   * started, the summary and the withdrawals, kept exact by the account stream plus REST reads
   * after every reconnect or resync (docs/STATE.md). Opens its own stream unless given one; bad
   * options throw InvalidArgumentError (kind `MV_INVALID_ARGUMENT`) naming the option, a client
   * without a WebSocket URL ConfigurationError.
   *
   * @example
   * ```ts
   * const mirror = venue.account.mirror();
   * await mirror.ready;
   * console.log(mirror.summary?.stablecoin.available, mirror.orders({ open: true }).length);
   * for await (const change of mirror.changes()) {
   *   if (change.kind === 'order') console.log(change.order.orderId, change.order.status);
   * }
   * ```
   */
  mirror(options?: MirrorOptions): AccountMirror {
    const stream = this.#stream;
    const orders = this.#orders;
    return new MirrorHandle(
      {
        connect: (streamOptions) => stream.connect(streamOptions),
        listOrders: (query) => stream.orderPages(query),
        retrieveAccount: (signal) => this.retrieve({ signal }),
        retrieveOrder: (orderId, signal) => orders.retrieve(orderId, { signal }),
        unknownKeys: this.#client.unknownKeys,
        state: this.#state,
        logger: this.#client.logger,
      },
      options,
    );
  }
}

// The API's data of this resource and what its calls take, reached as `Account.AccountSummary`,
// `Account.MirrorOptions`, ...; the account mirror (`venue.account.mirror()`) is this resource's
// (one namespace per resource, merged with the class: the main entry exports the resource, not each
// of its types).
export declare namespace Account {
  export type {
    AccountMirror,
    AccountSummary,
    ChangeSource,
    MirrorChange,
    MirrorOptions,
    MirrorOrderFilter,
    MirrorWaitOptions,
    MirrorWithdrawal,
    OrderChange,
    OrderRemovedChange,
    SummaryChange,
    UnknownEntry,
    UnknownEntryState,
    UnknownKeyChange,
    WithdrawalChange,
    WithdrawalRemovedChange,
  };
}
