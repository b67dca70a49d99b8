import type { Channel } from '../contract/ws-protocol.js';
import type { Money } from '../core/money.js';
import type * as models from '../generated/models.js';

// Money is REST's: the socket carries money as integer cents, and the client decodes every money
// field back to it (src/contract/ws-codec.ts), so REST and the stream show the same values.

/**
 * The outcome of the last auction that cleared (the venue's `lastClear`), on the market snapshot
 * and on every `auction.*` event; null before the first clear.
 */
export interface LastClear {
  /** The auction that cleared. */
  auctionId: number;
  /** When it cleared. */
  clearedAt: string;
  /** The uniform clearing fee in bps; null when the clear matched nothing. */
  clearingFeeBps: string | null;
  /** Volume matched per side. */
  matchedVolume: Money;
  /** Orders that filled something. */
  fillsCount: number;
}

/** Public auction state. */
export interface AuctionState {
  /** The auction's number. */
  auctionId: number;
  /** `open`, `lock`, `clearing`, `settling` or `settled`. */
  phase: string;
  /** When it opened. */
  opensAt: string;
  /** When it locks. */
  locksAt: string;
  /** When it clears. */
  clearsAt: string;
  /** When it cleared; null before. */
  clearedAt: string | null;
  /** When it settled; null before. */
  settledAt: string | null;
  /** Clearing fee in bps once the auction cleared. */
  clearingFeeBps: string | null;
  /** Volume matched per side. */
  matchedVolume: Money;
  /** Orders that filled something. */
  fillsCount: number;
  /** Orders that entered the auction. */
  orderCount: number;
}

/** The data of every `auction.*` event: the auction the event is about, and the last clear. */
export interface AuctionEventData extends AuctionState {
  /** The last auction that cleared (this one, on `auction.cleared`); null before the first clear. */
  lastClear: LastClear | null;
}

/** The data of `auction.snapshot`, sent on subscribe. */
export interface MarketSnapshot {
  /** The auction open (or locked) now. */
  auction: AuctionState;
  /** The auction that cleared and has not settled yet, if any. */
  settling: AuctionState | null;
  /** The last auction that cleared; null before the first clear. */
  lastClear: LastClear | null;
}

/**
 * An Order as REST returns it: the contract's `Order` (src/generated/models.ts), so the socket and
 * REST cannot drift apart.
 */
export type StreamOrder = models.Order;

/** A withdrawal as `withdrawal.updated` carries it. */
export interface StreamWithdrawal {
  /** The withdrawal's id. */
  id: string;
  /** `pending`, then whatever the payout processor reports. */
  status: string;
  /** The simulator sends it (REST's Withdrawal shows it too); the spec does not show it. */
  amount?: Money;
  /** Fields this version does not know are kept. */
  [field: string]: unknown;
}

/** The account summary REST's GET /v1/match/account returns: the contract's `AccountSummary`. */
export type StreamAccountSummary = models.AccountSummary;

/** What every stream event carries: its channel, sequence number, name and data. */
export interface Envelope<C extends Channel, E extends string, D> {
  /** Always `event`. */
  type: 'event';
  /** `market` or `account`. */
  channel: C;
  /** Position in the channel's sequence (per entity for `account`). */
  seq: number;
  /** The event's name, e.g. `order.updated`. */
  event: E;
  /** The event's payload. */
  data: D;
  /** Server time the event was published. */
  ts: string;
}

/** Sent on subscribe; carries the `seq` it is consistent with and is not itself part of the sequence. */
export type AuctionSnapshotEvent = Envelope<'market', 'auction.snapshot', MarketSnapshot>;
/** A new auction opened. */
export type AuctionOpenedEvent = Envelope<'market', 'auction.opened', AuctionEventData>;
/** The auction entered its lock window. */
export type AuctionLockedEvent = Envelope<'market', 'auction.locked', AuctionEventData>;
/** The auction cleared: its fee and volume are known. */
export type AuctionClearedEvent = Envelope<'market', 'auction.cleared', AuctionEventData>;
/** The auction's fills settled. */
export type AuctionSettledEvent = Envelope<'market', 'auction.settled', AuctionEventData>;
/** Every market event kind this version knows. */
export type KnownMarketEvent =
  | AuctionSnapshotEvent
  | AuctionOpenedEvent
  | AuctionLockedEvent
  | AuctionClearedEvent
  | AuctionSettledEvent;

/** One of the caller's orders was accepted. */
export type OrderAcceptedEvent = Envelope<'account', 'order.accepted', StreamOrder>;
/** One of the caller's orders changed (status, fee, fill, lineage). */
export interface OrderUpdatedEvent extends Envelope<'account', 'order.updated', StreamOrder> {
  /** 'rest' when the client synthesized it from GET /v1/match/orders during a resync. */
  source?: 'rest';
}
/** One of the caller's withdrawals changed status. */
export type WithdrawalUpdatedEvent = Envelope<'account', 'withdrawal.updated', StreamWithdrawal>;
/** The caller's balances changed. */
export type BalanceUpdatedEvent = Envelope<'account', 'balance.updated', StreamAccountSummary>;
/** Every account event kind this version knows. */
export type KnownAccountEvent =
  | OrderAcceptedEvent
  | OrderUpdatedEvent
  | WithdrawalUpdatedEvent
  | BalanceUpdatedEvent;

/**
 * The client could not resume the channel exactly: the server's replay buffer no longer held the
 * missed events, a seq gap appeared, or an event could not be decoded (`undecodable`: a money
 * field that is not integer cents; `event` and `error` say which and why). For `account`, the
 * `order.updated` events that follow with `source: 'rest'` are every order change since the last
 * event seen; other kinds of missed account events (balance, withdrawal) are not replayed: re-read
 * them over REST if needed.
 */
export type StreamResyncEvent<C extends Channel = Channel> = Envelope<
  C,
  'stream.resync',
  {
    /** Why the channel could not resume exactly. */
    reason: 'replay-unavailable' | 'gap' | 'undecodable';
    /** The last seq delivered before; null when none was. */
    lastSeq: number | null;
    /** The seq the channel goes on from. */
    resumedAtSeq: number;
    /** `undecodable`: the refused event's kind. */
    event?: string;
    /** `undecodable`: why it was refused. */
    error?: string;
  }
>;

/** An event kind this client version does not know, passed through untouched. */
export type UnknownStreamEvent<C extends Channel = Channel> = Envelope<C, string, unknown>;

/** What `stream.market()` yields. */
export type MarketEvent = KnownMarketEvent | StreamResyncEvent<'market'> | UnknownStreamEvent<'market'>;
/** What `stream.account()` yields. */
export type AccountEvent = KnownAccountEvent | StreamResyncEvent<'account'> | UnknownStreamEvent<'account'>;
/** Any stream event. */
export type StreamEvent = MarketEvent | AccountEvent;

/** The names {@link isEvent} narrows on. */
export type KnownEventName = KnownMarketEvent['event'] | KnownAccountEvent['event'] | 'stream.resync';

const KNOWN_EVENT_NAMES: ReadonlySet<string> = new Set<KnownEventName>([
  'auction.snapshot',
  'auction.opened',
  'auction.locked',
  'auction.cleared',
  'auction.settled',
  'order.accepted',
  'order.updated',
  'withdrawal.updated',
  'balance.updated',
  'stream.resync',
]);

/** The events of `E` whose kind this version knows: what a `switch (ev.event)` can narrow. */
export type KnownEvent<E extends StreamEvent = StreamEvent> = Extract<
  E,
  {
    /** A known event name. */
    event: KnownEventName;
  }
>;

/**
 * True for an event kind this client version knows. After it, `switch (ev.event)` narrows `data`
 * per case; the events it turns away are kinds a newer venue added, passed through untouched.
 *
 * @example
 * ```ts
 * for await (const ev of venue.stream.account()) {
 *   if (!isKnownEvent(ev)) continue; // a kind this version does not know yet
 *   switch (ev.event) {
 *     case 'order.updated': console.log(ev.data.status); break;
 *     case 'balance.updated': console.log(ev.data.stablecoin.available); break;
 *   }
 * }
 * ```
 */
export function isKnownEvent<E extends StreamEvent>(ev: E): ev is KnownEvent<E> {
  return KNOWN_EVENT_NAMES.has(ev.event);
}

/**
 * Narrows an event by name. (A plain `ev.event === 'x'` check cannot narrow `data` on its own,
 * because the pass-through type for unknown kinds has `event: string`; {@link isKnownEvent} first
 * makes a `switch` narrow.)
 */
export function isEvent<
  E extends StreamEvent,
  N extends Extract<
    E,
    {
      /** A known event name. */
      event: KnownEventName;
    }
  >['event'],
>(
  ev: E,
  name: N,
): ev is Extract<
  E,
  {
    /** The name asked for. */
    event: N;
  }
> {
  return ev.event === name;
}
