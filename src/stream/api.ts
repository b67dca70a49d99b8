import type { Channel } from '../contract/ws-protocol.js';
import type { Logger } from '../core/logger.js';
import type { Recorder } from '../core/recorder.js';
import type { AccountEvent, MarketEvent } from './events.js';
import type { OrderPage, OrderQuery } from './order-reads.js';
import type { OverflowPolicy } from './queue.js';

// The stream's public surface; src/stream/connection.ts implements it.

/** What the stream needs from its owner (the REST client, or anything else). */
export interface StreamHost {
  /**
   * `{ws_url}` or the full `{ws_url}/v1/match/ws`. A function is called before every (re)connect,
   * so an address that only exists later (mock mode starting a loopback server) or that moves
   * can be resolved lazily; its failure counts as a failed connection attempt.
   */
  wsUrl: string | (() => string | Promise<string>);
  /**
   * POST /v1/match/ws/ticket; called right before every (re)connect. `expiresAt` is not needed:
   * the venue's published ticket answers show only `ticket`.
   */
  ticket(): Promise<{ ticket: string; expiresAt?: string | undefined }>;
  /**
   * The subprotocol name offered beside `ticket.<jwt>` and required of the server's selection.
   * Default our spec's `service-match.v1` (the client option `wsSubprotocol`).
   */
  subprotocol?: string | undefined;
  /**
   * GET /v1/match/orders with these filters, every page (with the page's `x-account-seq` header
   * when present). Read when the account channel is subscribed (the open orders) and when the
   * server cannot replay (what can have changed since).
   */
  listOrders(query: OrderQuery): AsyncIterable<OrderPage>;
  logger?: Logger;
  /** Where the owner's exchanges are recorded (its `record` option): each socket's too. */
  recorder?: Recorder | undefined;
}

/** The stream's reconnect schedule; unset fields keep the defaults (src/contract/retry-policy.ts). */
export interface BackoffOptions {
  /** First retry delay. Default 250 ms. */
  initialDelayMs?: number;
  /** Cap. Default 10 s. */
  maxDelayMs?: number;
  /** Growth per failed attempt. Default 2. */
  factor?: number;
}

/** Options of `venue.stream.connect()`; every one has a default. */
export interface StreamOptions {
  /** Events buffered per iterator. Default 1000. */
  bufferSize?: number;
  /**
   * 'pause' (default): when an iterator's buffer is full, stop reading the socket until it
   * drains to half; nothing is lost. 'drop-oldest': never stop reading; the oldest buffered
   * event is discarded and counted in `dropped`.
   */
  overflow?: OverflowPolicy;
  /** Client ping interval. Default 15 s. */
  heartbeatIntervalMs?: number;
  /** A socket silent this long after a ping is replaced. Default 10 s. */
  heartbeatTimeoutMs?: number;
  /** Opening handshake limit. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * How long to wait, once a socket opens, for the server's `hello` before subscribing anyway (a
   * server that sends none). Subscriptions asked for meanwhile wait too; none is lost. Default 1 s.
   */
  helloTimeoutMs?: number;
  /**
   * Reconnect backoff (also between failed resync reads), with "equal jitter": half of each delay
   * fixed, half random. `maxAttempts` consecutive failures end the stream with a StreamGaveUpError
   * (default: never). A ticket request refused with a 4xx (other than 408 and 429) ends the stream
   * at once with that error.
   */
  reconnect?: BackoffOptions & {
    /** Consecutive failed attempts before the stream gives up. Default: never. */
    maxAttempts?: number;
  };
  /**
   * Slack for a venue whose order timestamps may trail its event times: a resync also re-reads
   * orders created, and accepts orders changed, this long before the last account event seen.
   * Default 0.
   */
  reconcileLookbackMs?: number;
  /** Jitter source, for tests. */
  random?: () => number;
}

/** Where the stream's connection is. */
export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** What a `state` listener hears. */
export interface StateChange {
  /** The new state. */
  state: StreamState;
  /** Consecutive failed attempts so far (0 once open). */
  attempt: number;
  /** Why the connection closed or failed, when it did. */
  reason?: string;
}

/**
 * One channel's events as an async iterator (`for await`); each iterator has its own buffer.
 * Ending the loop (break, return) unsubscribes it.
 */
export interface StreamSubscription<T> extends AsyncIterableIterator<T> {
  /** `market` or `account`. */
  readonly channel: Channel;
  /**
   * Resolves `true` once the server has confirmed the channel's subscription: from then on every
   * event of the channel reaches this iterator (await it before placing orders you want to see
   * accepted). Resolves `false` if the stream closes first; it never rejects.
   */
  readonly ready: Promise<boolean>;
  /** Events waiting in this iterator's buffer. */
  readonly buffered: number;
  /** Highest `buffered` ever reached. */
  readonly maxBuffered: number;
  /** Events discarded by the 'drop-oldest' policy. */
  readonly dropped: number;
}

/** Counters of a stream's life so far. */
export interface StreamStats {
  /** Where the connection is. */
  state: StreamState;
  /** Reconnections after the first connect. */
  reconnects: number;
  /** Events that arrived again (a replay overlapping what was delivered) and were dropped. */
  duplicatesDropped: number;
  /** `stream.resync` events emitted. */
  resyncs: number;
  /** Frames read from the socket but not yet decoded, while paused. */
  backlog: number;
}

/** An open stream (`venue.stream.connect()`): iterators per channel, its state, and close(). */
export interface VenueStream {
  /** A new iterator of market events (auction snapshot first, then the auction cycle). */
  market(): StreamSubscription<MarketEvent>;
  /** A new iterator of the caller's account events (orders, withdrawals, balances). */
  account(): StreamSubscription<AccountEvent>;
  /** Where the connection is now. */
  readonly state: StreamState;
  /** Calls `listener` on every state change; returns the unsubscribe function. */
  on(event: 'state', listener: (change: StateChange) => void): () => void;
  /** Counters so far. */
  stats(): StreamStats;
  /** Closes the socket and ends every iterator. */
  close(): Promise<void>;
}

/** What inspection and JSON.stringify show of a stream. */
export interface StreamSummary extends StreamStats {
  /** Channels with at least one iterator. */
  channels: Channel[];
}
