import type { AccountSummary, Order, OrderStatus, OrderType, Withdrawal } from '../generated/models.js';
import type { StreamOptions, VenueStream } from '../stream/api.js';

// The public surface of the state layer: the account mirror and the waits. account-mirror.ts
// implements the mirror, order-outcome.ts `orders.waitForOutcome`; docs/STATE.md has the rules.

/** How long a final order or withdrawal stays in a mirror's view by default: 10 minutes. */
export const DEFAULT_RETENTION_MS = 600_000;

/** `MirrorOptions.settlementHoldMs`'s default. */
export const DEFAULT_SETTLEMENT_HOLD_MS = 500;

/** Options of `venue.account.mirror()`; every one has a default. */
export interface MirrorOptions {
  /**
   * An open stream to follow instead of opening one. The mirror adds its own account iterator to
   * it and never closes it. Default: the mirror opens a stream and closes it on `close()`.
   */
  stream?: VenueStream;
  /** Options of the stream the mirror opens (ignored with `stream`). */
  streamOptions?: StreamOptions;
  /**
   * How long a final order (or withdrawal) stays in view after the mirror saw it become final, in
   * ms; then it leaves (an `order.removed` / `withdrawal.removed` change), so memory follows the
   * open orders, not the account's history. Default {@link DEFAULT_RETENTION_MS} (10 minutes).
   */
  retentionMs?: number;
  /**
   * Changes buffered per `changes()` iterator. When one is full the mirror stops reading the
   * stream until it drains to half (nothing is lost): read every iterator you open. Default 10000.
   */
  changesBufferSize?: number;
  /**
   * How long the mirror waits, after an order turns final, for the `balance.updated` that includes
   * its settlement before it reads the summary over REST instead, in ms. Until one of the two is
   * applied, that order's change (and every change after it) is held back from the view and the
   * change feed, so the mirror never shows an order final beside the balance from before it.
   * Default 500 (the venue sends the balance event right behind the order's, so the read is the
   * exception).
   */
  settlementHoldMs?: number;
}

/** Filters of `mirror.orders()`; all given ones must match. */
export interface MirrorOrderFilter {
  /** One status, or any of several. */
  status?: OrderStatus | readonly OrderStatus[];
  /** `BURN` or `MINT`. */
  orderType?: OrderType;
  /** The auction the order entered. */
  auctionId?: number;
  /** true: only `pending` and `settling` orders; false: only final ones. */
  open?: boolean;
}

/** A withdrawal as the mirror knows it. */
export interface MirrorWithdrawal {
  /** The last state seen: the create answer, or the latest `withdrawal.updated`. */
  withdrawal: Withdrawal;
  /**
   * True after a resync that may have hidden a `withdrawal.updated` (the venue has no GET for
   * withdrawals, so the mirror cannot re-read it); false again at the next event about it.
   */
  stale: boolean;
}

/** Where an idempotency key with an unknown outcome stands in the mirror. */
export type UnknownEntryState = 'unknown' | 'found' | 'absent' | 'unverified';

/** A key whose call may or may not have created something (the client's unknown-key ledger). */
export interface UnknownEntry {
  /** The idempotency key (= the orderId of a placed order, the id of a withdrawal). */
  key: string;
  /** `placeOrder`, `createWithdrawal`, ... */
  operation: string;
  /** When the last attempt that may have reached the venue ended (ms since the epoch). */
  lastAttemptAt: number;
  /** When an absence becomes final. */
  settlesAt: number;
  /**
   * `unknown` while open; `found` once the order (or withdrawal) showed up; `absent` once
   * `settlesAt` passed without it (final: the key never made anything); `unverified` for a
   * withdrawal whose absence cannot be shown (a resync may have hidden its event, and there is no
   * GET): settle it with `withdrawals.resolveUnknown`.
   */
  state: UnknownEntryState;
}

/** Where a change came from: a socket event, a REST read, or this client's create call. */
export type ChangeSource = 'stream' | 'rest' | 'create';

/** An order entered the view or changed. */
export interface OrderChange {
  /** Discriminant. */
  kind: 'order';
  /** Position in the mirror's sequence of changes, from 1. */
  seq: number;
  /** The order's new state. */
  order: Order;
  /** Its state before; undefined when it entered the view. */
  previous: Order | undefined;
  /** Where it came from. */
  source: ChangeSource;
}

/** A final order left the view after the retention window. */
export interface OrderRemovedChange {
  /** Discriminant. */
  kind: 'order.removed';
  /** Position in the mirror's sequence of changes, from 1. */
  seq: number;
  /** Its last state. */
  order: Order;
}

/** The account summary was read or changed. */
export interface SummaryChange {
  /** Discriminant. */
  kind: 'summary';
  /** Position in the mirror's sequence of changes, from 1. */
  seq: number;
  /** The new summary. */
  summary: AccountSummary;
  /** The one before; undefined for the first. */
  previous: AccountSummary | undefined;
  /** Where it came from. */
  source: ChangeSource;
}

/** A withdrawal entered the view, changed, or became stale after a resync. */
export interface WithdrawalChange {
  /** Discriminant. */
  kind: 'withdrawal';
  /** Position in the mirror's sequence of changes, from 1. */
  seq: number;
  /** The new state. */
  withdrawal: MirrorWithdrawal;
  /** The state before; undefined when it entered the view. */
  previous: MirrorWithdrawal | undefined;
  /** Where it came from (`rest` marks a resync making it stale). */
  source: ChangeSource;
}

/** A final withdrawal left the view after the retention window. */
export interface WithdrawalRemovedChange {
  /** Discriminant. */
  kind: 'withdrawal.removed';
  /** Position in the mirror's sequence of changes, from 1. */
  seq: number;
  /** Its last state. */
  withdrawal: MirrorWithdrawal;
}

/** A key became unknown, or its outcome became known (`entry.state`). */
export interface UnknownKeyChange {
  /** Discriminant. */
  kind: 'unknown';
  /** Position in the mirror's sequence of changes, from 1. */
  seq: number;
  /** The entry as it stands now. */
  entry: UnknownEntry;
}

/** What `mirror.changes()` yields: `switch (change.kind)` narrows it. */
export type MirrorChange =
  | OrderChange
  | OrderRemovedChange
  | SummaryChange
  | WithdrawalChange
  | WithdrawalRemovedChange
  | UnknownKeyChange;

/** Options of `mirror.waitFor()`. */
export interface MirrorWaitOptions {
  /** Give up after this many ms with WaitTimeoutError (kind `MV_WAIT_TIMEOUT`). Default: no limit. */
  timeout?: number;
  /** Abort the wait -> APIUserAbortError (kind `MV_ABORTED`). */
  signal?: AbortSignal;
}

/**
 * A live local view of the caller's account: every non-final order, every order that changed since
 * the mirror started (until the retention window after it became final), the account summary and
 * the withdrawals, kept exact by the account stream plus REST reads after every reconnect or resync.
 * Made by `venue.account.mirror()`.
 */
export interface AccountMirror {
  /**
   * Resolves once the view is consistent (subscribed, the open orders and the summary read, the
   * events meanwhile applied). Rejects if the stream ends or the first reads fail first, or with
   * APIUserAbortError when `close()` came first.
   */
  readonly ready: Promise<void>;
  /** The order in view; undefined when the mirror does not hold it (never seen, or retired). */
  order(orderId: string): Order | undefined;
  /** The orders in view that match `filter`, oldest first (createdAt, then orderId). */
  orders(filter?: MirrorOrderFilter): Order[];
  /** The account summary; undefined before `ready`. */
  readonly summary: AccountSummary | undefined;
  /** The withdrawals in view, oldest first. */
  withdrawals(): MirrorWithdrawal[];
  /** One withdrawal in view. */
  withdrawal(id: string): MirrorWithdrawal | undefined;
  /** Keys whose outcome is still unknown, oldest attempt first. */
  unknown(): UnknownEntry[];
  /**
   * Every change from now on, each once and in order, as an async iterator. Leave the loop (break)
   * or `close()` the mirror to end it.
   */
  changes(): AsyncIterableIterator<MirrorChange>;
  /**
   * Resolves with the order once `predicate` holds for it (checked at once, then on every change).
   * An order not in view is read over REST (a retired one answers from there). Rejects with
   * OrderFinalError (kind `MV_ORDER_FINAL`) when the order is final and refused, NotFoundError
   * when the venue has no such order, WaitTimeoutError, or APIUserAbortError.
   */
  waitFor(orderId: string, predicate: (order: Order) => boolean, options?: MirrorWaitOptions): Promise<Order>;
  /** Stops following: ends every `changes()` iterator and closes the stream the mirror opened. */
  close(): Promise<void>;
}

/** Options of `venue.orders.waitForOutcome()`. */
export interface WaitForOutcomeOptions {
  /** Give up after this many ms with WaitTimeoutError (kind `MV_WAIT_TIMEOUT`). Default: no limit. */
  timeout?: number;
  /** Abort the wait -> APIUserAbortError (kind `MV_ABORTED`). */
  signal?: AbortSignal;
  /**
   * Listen here for the order's changes: an open stream or mirror. Default: the client's most
   * recent open mirror, else its most recent open stream, else REST alone.
   */
  stream?: VenueStream | AccountMirror;
  /**
   * The longest gap between two REST reads of the order, in ms: REST alone polls with backoff
   * from 250 ms up to it; beside a stream it reads at this interval, so a missed event never
   * leaves the wait hanging. Default 5000.
   */
  pollIntervalMs?: number;
  /**
   * A `roll` order that ends `partial_fill` or `unfilled` may show its child (`lineage.childOrderId`)
   * a moment after the final status: the wait keeps reading it this long for the child, then
   * resolves with or without it (no child is made when the roll was dropped). 0: do not wait.
   * Default 2000.
   */
  childGraceMs?: number;
}
