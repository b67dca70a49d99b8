import type { Channel } from '../contract/ws-protocol.js';

/**
 * REST's Money. The socket carries money as integer cents; the client decodes every money field
 * back to this (src/contract/ws-codec.ts), so REST and the stream show the same values.
 */
export interface Money {
  amount: string;
  currency: string;
}

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
  auctionId: number;
  phase: string;
  opensAt: string;
  locksAt: string;
  clearsAt: string;
  clearedAt: string | null;
  settledAt: string | null;
  /** Clearing fee in bps once the auction cleared. */
  clearingFeeBps: string | null;
  /** Volume matched per side. */
  matchedVolume: Money;
  fillsCount: number;
  orderCount: number;
}

/** The data of every `auction.*` event: the auction the event is about, and the last clear. */
export interface AuctionEventData extends AuctionState {
  /** The last auction that cleared (this one, on `auction.cleared`); null before the first clear. */
  lastClear: LastClear | null;
}

export interface MarketSnapshot {
  /** The auction open (or locked) now. */
  auction: AuctionState;
  /** The auction that cleared and has not settled yet, if any. */
  settling: AuctionState | null;
  /** The last auction that cleared; null before the first clear. */
  lastClear: LastClear | null;
}

/** An Order as REST returns it. */
export interface StreamOrder {
  orderId: string;
  auctionId: number | null;
  lineage: { parentOrderId: string | null; childOrderId: string | null };
  orderType: 'BURN' | 'MINT';
  amount: Money;
  feeBps: string | null;
  postFillAction: 'roll' | 'fallback' | 'cancel';
  status: 'pending' | 'settling' | 'filled' | 'partial_fill' | 'unfilled' | 'cancelled' | 'failed';
  createdAt: string;
  updatedAt: string;
  fill: { filledAmount: Money; unfilledAmount: Money; clearingFeeBps: string; matchedAt: string } | null;
  sourceWalletId: string | null;
  fiatAccountId: string | null;
}

export interface StreamWithdrawal {
  id: string;
  status: string;
  /** The simulator sends it (REST's Withdrawal shows it too); the spec does not show it. */
  amount?: Money;
  [field: string]: unknown;
}

/** The account summary REST's GET /v1/match/account returns. */
export interface StreamAccountSummary {
  accountId: string;
  stablecoin: { available: Money; reserved: Money; total: Money };
  exposure: { activeOrderCount: number; mintOrderCount: number; burnOrderCount: number };
  activity: { from: string; to: string; totalMatched: Money; rebatesEarned: Money; feesPaid: Money };
}

interface Envelope<C extends Channel, E extends string, D> {
  type: 'event';
  channel: C;
  /** Position in the channel's sequence (per entity for `account`). */
  seq: number;
  event: E;
  data: D;
  /** Server time the event was published. */
  ts: string;
}

/** Sent on subscribe; carries the `seq` it is consistent with and is not itself part of the sequence. */
export type AuctionSnapshotEvent = Envelope<'market', 'auction.snapshot', MarketSnapshot>;
export type AuctionOpenedEvent = Envelope<'market', 'auction.opened', AuctionEventData>;
export type AuctionLockedEvent = Envelope<'market', 'auction.locked', AuctionEventData>;
export type AuctionClearedEvent = Envelope<'market', 'auction.cleared', AuctionEventData>;
export type AuctionSettledEvent = Envelope<'market', 'auction.settled', AuctionEventData>;
export type KnownMarketEvent =
  | AuctionSnapshotEvent
  | AuctionOpenedEvent
  | AuctionLockedEvent
  | AuctionClearedEvent
  | AuctionSettledEvent;

export type OrderAcceptedEvent = Envelope<'account', 'order.accepted', StreamOrder>;
export interface OrderUpdatedEvent extends Envelope<'account', 'order.updated', StreamOrder> {
  /** 'rest' when the client synthesized it from GET /v1/match/orders during a resync. */
  source?: 'rest';
}
export type WithdrawalUpdatedEvent = Envelope<'account', 'withdrawal.updated', StreamWithdrawal>;
export type BalanceUpdatedEvent = Envelope<'account', 'balance.updated', StreamAccountSummary>;
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

export type MarketEvent = KnownMarketEvent | StreamResyncEvent<'market'> | UnknownStreamEvent<'market'>;
export type AccountEvent = KnownAccountEvent | StreamResyncEvent<'account'> | UnknownStreamEvent<'account'>;
export type StreamEvent = MarketEvent | AccountEvent;

export type KnownEventName = KnownMarketEvent['event'] | KnownAccountEvent['event'] | 'stream.resync';

/**
 * Narrows an event by name. (A plain `ev.event === 'x'` check cannot narrow `data`, because the
 * pass-through type for unknown kinds has `event: string`.)
 */
export function isEvent<E extends StreamEvent, N extends Extract<E, { event: KnownEventName }>['event']>(
  ev: E,
  name: N,
): ev is Extract<E, { event: N }> {
  return ev.event === name;
}
