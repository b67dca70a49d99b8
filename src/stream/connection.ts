import { type RawData, WebSocket } from 'ws';
import type { Logger } from '../core/logger.js';
import type {
  StateChange,
  StreamHost,
  StreamOptions,
  StreamState,
  StreamStats,
  StreamSubscription,
  StreamSummary,
  VenueStream,
} from './api.js';
import { backoffDelay } from './backoff.js';
import { decodeSocketData } from '../contract/ws-codec.js';
import type { AccountEvent, MarketEvent, StreamEvent, StreamOrder, StreamResyncEvent } from './events.js';
import { isOrderLike, OrderTracker } from './order-tracker.js';
import {
  type Channel,
  type ClientFrame,
  type EventFrame,
  type ServerFrame,
  SUBPROTOCOL,
  type SubscribedFrame,
  TICKET_PROTOCOL_PREFIX,
  WS_PATH,
} from '../contract/ws-protocol.js';
import { EventQueue, type OverflowPolicy } from './queue.js';
import {
  learnOpenOrders,
  lookbackFrom,
  type OrderPage,
  type OrderQuery,
  readChangedOrders,
} from './reconcile.js';

interface ChannelState {
  name: Channel;
  subs: Set<EventQueue<StreamEvent>>;
  /** Last seq received; resubscribing sends it as `since`. */
  lastSeq: number | undefined;
  /** Server time of the last account event (or of the first subscribe): the resync watermark. */
  lastTs: string | undefined;
  /** The server has answered `subscribed` since the channel's first iterator subscribed. */
  live: boolean;
  /** `ready` promises of iterators waiting for that answer. */
  waiting: Array<(live: boolean) => void>;
}

/** Node's util.inspect hook, by its registry key: no node:util import on other runtimes. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

const noopLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A ticket request the venue refused for good (an HTTP 4xx other than 408 and 429, e.g. 401 or
 * 137010), as opposed to a network failure or a 5xx that a later attempt may get past.
 */
function isRefusal(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function endpoint(wsUrl: string): string {
  const url = new URL(wsUrl);
  if (!url.pathname.endsWith(WS_PATH)) url.pathname = `${url.pathname.replace(/\/$/, '')}${WS_PATH}`;
  return url.toString();
}

class StreamConnection implements VenueStream {
  private readonly log: Logger;
  private readonly bufferSize: number;
  private readonly policy: OverflowPolicy;
  private readonly random: () => number;
  private readonly channels: Record<Channel, ChannelState> = {
    market: {
      name: 'market',
      subs: new Set(),
      lastSeq: undefined,
      lastTs: undefined,
      live: false,
      waiting: [],
    },
    account: {
      name: 'account',
      subs: new Set(),
      lastSeq: undefined,
      lastTs: undefined,
      live: false,
      waiting: [],
    },
  };
  private readonly tracker = new OrderTracker();
  /** The open-orders read of a fresh account subscription, while it runs. */
  private seeding: Promise<void> | undefined;
  private readonly listOrders = (query: OrderQuery): AsyncIterable<OrderPage> => this.host.listOrders(query);
  /** Channels with at least one iterator, oldest subscription first. */
  private subscribeOrder: Channel[] = [];
  private readonly listeners = new Set<(change: StateChange) => void>();
  // Private (#), not merely `private`: the socket's handshake request carries the ticket in its
  // subprotocol header, and inspection or serialization of the stream must never reach it.
  #ws: WebSocket | undefined;
  private current: StreamState = 'connecting';
  private closed = false;
  private attempt = 0;
  private frameId = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** The pause between failed REST reconciliation attempts; close() cuts it short. */
  private reconcileWait: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  // Flow control: `blocked` while some iterator is full ('pause' policy); `reconciling` while a
  // REST resync runs. Meanwhile raw frames wait in `backlog`, decoded ones in `overflow`.
  private blocked = false;
  private reconciling = 0;
  private readonly backlog: string[] = [];
  private readonly overflow: { ch: ChannelState; ev: StreamEvent }[] = [];
  private roomWaiters: (() => void)[] = [];
  private closeWaiters: (() => void)[] = [];
  private counters = { reconnects: 0, duplicatesDropped: 0, resyncs: 0 };

  constructor(
    private readonly host: StreamHost,
    private readonly opts: StreamOptions,
  ) {
    // A fixed address is checked now, so a typo throws here rather than retrying forever.
    if (typeof host.wsUrl === 'string') endpoint(host.wsUrl);
    this.log = host.logger ?? noopLogger;
    this.bufferSize = opts.bufferSize ?? 1000;
    this.policy = opts.overflow ?? 'pause';
    this.random = opts.random ?? Math.random;
    if (!Number.isSafeInteger(this.bufferSize) || this.bufferSize < 1) {
      throw new RangeError('bufferSize must be an integer >= 1');
    }
    // Deferred so that listeners attached right after connectStream() see 'connecting'.
    queueMicrotask(() => void this.open());
  }

  get state(): StreamState {
    return this.current;
  }

  on(_event: 'state', listener: (change: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): StreamStats {
    return { state: this.current, ...this.counters, backlog: this.backlog.length };
  }

  /**
   * What util.inspect, console.log and JSON.stringify show of the stream: its state and counters.
   * The socket and the host stay out of it: the handshake request holds the ticket.
   */
  [INSPECT](): StreamSummary {
    return this.toJSON();
  }

  toJSON(): StreamSummary {
    return { ...this.stats(), channels: [...this.subscribeOrder] };
  }

  market(): StreamSubscription<MarketEvent> {
    return this.subscribe('market') as StreamSubscription<MarketEvent>;
  }

  account(): StreamSubscription<AccountEvent> {
    return this.subscribe('account') as StreamSubscription<AccountEvent>;
  }

  close(): Promise<void> {
    if (!this.closed) this.shutdown(undefined);
    const ws = this.#ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  // ---- connection lifecycle ----

  private setState(state: StreamState, reason?: string): void {
    this.current = state;
    const change: StateChange = { state, attempt: this.attempt };
    if (reason !== undefined) change.reason = reason;
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (err) {
        this.log.error('stream: state listener threw', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    this.setState(this.attempt === 0 && this.counters.reconnects === 0 ? 'connecting' : 'reconnecting');
    let url: string;
    try {
      const wsUrl = this.host.wsUrl;
      url = typeof wsUrl === 'string' ? endpoint(wsUrl) : endpoint(await wsUrl());
    } catch (err) {
      this.log.warn('stream: resolving the WebSocket URL failed', {
        error: err instanceof Error ? err.message : String(err),
      });
      this.retry('WebSocket URL unavailable');
      return;
    }
    if (this.closed) return;
    let ticket: string;
    try {
      // Never reuse a ticket: they are single-use and short-lived.
      ticket = (await this.host.ticket()).ticket;
    } catch (err) {
      this.log.warn('stream: ticket request failed', {
        error: err instanceof Error ? err.message : String(err),
      });
      if (isRefusal(err)) {
        // A bad key or an ineligible entity does not heal by retrying: end the stream with the error.
        this.shutdown(err);
        return;
      }
      this.retry('ticket request failed');
      return;
    }
    if (this.closed) return;
    const ws = new WebSocket(url, [SUBPROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`], {
      perMessageDeflate: false,
      handshakeTimeout: this.opts.connectTimeoutMs ?? 10_000,
    });
    this.#ws = ws;
    ws.on('open', () => this.onOpen(ws));
    ws.on('message', (data: RawData) => this.onRaw(ws, data));
    // The ws error text never contains the subprotocols, so the ticket cannot leak through it.
    ws.on('error', (err) => this.log.warn('stream: socket error', { error: err.message }));
    ws.on('close', (code) => this.onClose(ws, code));
  }

  private onOpen(ws: WebSocket): void {
    if (ws !== this.#ws || this.closed) return;
    if (ws.protocol !== SUBPROTOCOL) {
      ws.terminate();
      return;
    }
    this.attempt = 0;
    this.setState('open');
    if (this.isHeld()) ws.pause();
    // In the order the channels were first subscribed: the server answers frames in order.
    for (const name of this.subscribeOrder) this.sendSubscribe(this.channels[name]);
    this.startHeartbeat(ws);
  }

  private onClose(ws: WebSocket, code: number): void {
    if (ws === this.#ws) {
      this.stopHeartbeat();
      this.#ws = undefined;
      if (!this.closed) {
        this.counters.reconnects += 1;
        this.retry(`socket closed (${code})`);
      }
    }
    if (this.closed && !this.#ws) {
      const waiters = this.closeWaiters;
      this.closeWaiters = [];
      for (const w of waiters) w();
    }
  }

  private retry(reason: string): void {
    if (this.closed) return;
    this.attempt += 1;
    const max = this.opts.reconnect?.maxAttempts ?? Number.POSITIVE_INFINITY;
    if (this.attempt > max) {
      this.shutdown(new Error(`stream: gave up after ${max} failed connection attempts (${reason})`));
      return;
    }
    this.setState('reconnecting', reason);
    const delay = backoffDelay(this.attempt - 1, this.opts.reconnect ?? {}, this.random);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.open();
    }, delay);
  }

  private shutdown(error: Error | undefined): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.reconcileWait) {
      clearTimeout(this.reconcileWait.timer);
      this.reconcileWait.wake();
    }
    this.stopHeartbeat();
    this.#ws?.terminate();
    for (const ch of Object.values(this.channels)) {
      for (const resolve of ch.waiting.splice(0)) resolve(false);
      for (const q of ch.subs) {
        q.clear();
        q.end(error);
      }
      ch.subs.clear();
    }
    this.subscribeOrder = [];
    this.backlog.length = 0;
    this.overflow.length = 0;
    this.releaseRoomWaiters();
    this.setState('closed', error?.message);
  }

  private startHeartbeat(ws: WebSocket): void {
    const interval = this.opts.heartbeatIntervalMs ?? 15_000;
    const timeout = this.opts.heartbeatTimeoutMs ?? 10_000;
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => {
      // While the client itself is not reading, silence proves nothing.
      if (ws !== this.#ws || this.isHeld() || this.silenceTimer) return;
      this.send({ op: 'ping', id: ++this.frameId });
      this.silenceTimer = setTimeout(() => {
        this.silenceTimer = undefined;
        if (ws !== this.#ws || this.isHeld()) return;
        this.log.warn('stream: no answer to ping, replacing the connection');
        ws.terminate();
      }, timeout);
    }, interval);
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.heartbeatTimer = undefined;
    this.silenceTimer = undefined;
  }

  private send(frame: ClientFrame): void {
    const ws = this.#ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  }

  private sendSubscribe(ch: ChannelState): void {
    const frame: ClientFrame = { op: 'subscribe', channel: ch.name, id: ++this.frameId };
    if (ch.lastSeq !== undefined) frame.since = ch.lastSeq;
    this.send(frame);
  }

  // ---- iterators ----

  private subscribe(channel: Channel): StreamSubscription<StreamEvent> {
    const ch = this.channels[channel];
    const queue = new EventQueue<StreamEvent>(this.bufferSize, this.policy, () => this.onTake());
    const ready =
      this.closed || ch.live
        ? Promise.resolve(!this.closed)
        : new Promise<boolean>((resolve) => ch.waiting.push(resolve));
    if (this.closed) queue.end();
    else {
      ch.subs.add(queue);
      if (ch.subs.size === 1) {
        this.subscribeOrder.push(channel);
        this.sendSubscribe(ch);
      }
    }
    const leave = (): void => {
      if (!ch.subs.delete(queue)) return;
      queue.clear();
      queue.end();
      if (ch.subs.size === 0) {
        this.subscribeOrder = this.subscribeOrder.filter((c) => c !== channel);
        this.send({ op: 'unsubscribe', channel, id: ++this.frameId });
        // A later iterator starts from "now", not from where this one left.
        ch.lastSeq = undefined;
        ch.lastTs = undefined;
        ch.live = false;
        for (const resolve of ch.waiting.splice(0)) resolve(false);
      }
      this.onTake();
    };
    const sub: StreamSubscription<StreamEvent> = {
      channel,
      ready,
      get buffered() {
        return queue.length;
      },
      get maxBuffered() {
        return queue.maxBuffered;
      },
      get dropped() {
        return queue.dropped;
      },
      next: () => queue.next(),
      return: (): Promise<IteratorResult<StreamEvent>> => {
        leave();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return sub;
  }

  // ---- flow control ----

  private isHeld(): boolean {
    return this.blocked || this.reconciling > 0 || this.backlog.length > 0 || this.overflow.length > 0;
  }

  private onTake(): void {
    if (!this.blocked) return;
    const low = Math.floor(this.bufferSize / 2);
    for (const ch of Object.values(this.channels)) {
      for (const q of ch.subs) if (q.length > low) return;
    }
    this.blocked = false;
    this.drain();
  }

  private drain(): void {
    while (!this.blocked && this.overflow.length > 0) {
      const next = this.overflow.shift();
      if (next) this.pushToQueues(next.ch, next.ev);
    }
    while (!this.blocked && this.reconciling === 0 && this.backlog.length > 0) {
      this.handle(this.backlog.shift() as string);
    }
    if (!this.blocked) this.releaseRoomWaiters();
    if (!this.isHeld()) this.#ws?.resume();
  }

  private releaseRoomWaiters(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }

  private room(): Promise<void> {
    if (!this.blocked || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  private deliver(ch: ChannelState, ev: StreamEvent): void {
    if (this.blocked || this.overflow.length > 0) this.overflow.push({ ch, ev });
    else this.pushToQueues(ch, ev);
  }

  private pushToQueues(ch: ChannelState, ev: StreamEvent): void {
    for (const q of ch.subs) {
      q.push(ev);
      if (this.policy === 'pause' && q.full && !this.blocked) {
        this.blocked = true;
        this.#ws?.pause();
      }
    }
  }

  // ---- frames ----

  private onRaw(ws: WebSocket, data: RawData): void {
    if (ws !== this.#ws) return;
    if (this.silenceTimer) {
      clearTimeout(this.silenceTimer);
      this.silenceTimer = undefined;
    }
    const text = data.toString();
    if (this.isHeld()) {
      this.backlog.push(text);
      return;
    }
    this.handle(text);
  }

  private handle(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      this.log.warn('stream: ignoring a frame that is not JSON');
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    switch (frame.type) {
      case 'event':
        this.onEvent(frame, text);
        return;
      case 'subscribed':
        this.onSubscribed(frame);
        return;
      case 'error':
        this.log.warn('stream: server error frame', {
          code: frame.code,
          message: frame.message,
          id: frame.id,
        });
        return;
      default:
        return;
    }
  }

  private onEvent(frame: EventFrame, text: string): void {
    const ch = this.channels[frame.channel];
    // Before `subscribed` there is no subscription yet: such events belong to an earlier one.
    if (!ch || ch.subs.size === 0 || ch.lastSeq === undefined) return;
    const data = decodeSocketData(frame.data);
    // With the default codec the frame is passed on as parsed: no copy per event.
    const ev = (data === frame.data ? frame : { ...frame, data }) as StreamEvent;
    if (frame.event === 'auction.snapshot' || typeof frame.seq !== 'number') {
      this.deliver(ch, ev);
      return;
    }
    if (frame.seq <= ch.lastSeq) {
      this.counters.duplicatesDropped += 1;
      return;
    }
    if (frame.seq > ch.lastSeq + 1) {
      const resumedAt = frame.seq - 1;
      this.resync(ch, 'gap', resumedAt, frame.ts);
      if (this.reconciling > 0) {
        // Handle this frame after the REST reconciliation, in order.
        this.backlog.unshift(text);
        return;
      }
    }
    ch.lastSeq = frame.seq;
    if (ch.name === 'account') {
      ch.lastTs = frame.ts;
      if (isOrderLike(ev.data) && !this.tracker.acceptLive(ev.data, frame.seq)) {
        this.counters.duplicatesDropped += 1;
        return;
      }
    }
    this.deliver(ch, ev);
  }

  private onSubscribed(frame: SubscribedFrame): void {
    const ch = this.channels[frame.channel];
    if (!ch || ch.subs.size === 0) return;
    ch.live = true;
    for (const resolve of ch.waiting.splice(0)) resolve(true);
    if (frame.replay === 'unavailable') {
      this.resync(ch, 'replay-unavailable', frame.seq, frame.ts);
    } else if (frame.replay === undefined) {
      ch.lastSeq = frame.seq;
      ch.lastTs = frame.ts;
      if (ch.name === 'account') this.readOpenOrders();
    }
  }

  /**
   * A fresh account subscription: learns which orders are open now, the ones a later resync must
   * re-check besides those the stream sees change. Runs beside the live feed; a resync waits for it.
   */
  private readOpenOrders(): void {
    this.tracker.reset();
    const reconnects = this.counters.reconnects;
    const seeding = learnOpenOrders(this.tracker, this.listOrders, {
      closed: () => this.closed,
      socketDropped: () => this.counters.reconnects !== reconnects,
      log: this.log,
    }).finally(() => {
      if (this.seeding === seeding) this.seeding = undefined;
    });
    this.seeding = seeding;
  }

  /** Tells the consumer, then (account) reads every order change since the watermark over REST. */
  private resync(
    ch: ChannelState,
    reason: 'replay-unavailable' | 'gap',
    resumedAt: number,
    ts: string,
  ): void {
    this.counters.resyncs += 1;
    const marker: StreamResyncEvent = {
      type: 'event',
      channel: ch.name,
      seq: resumedAt,
      event: 'stream.resync',
      data: { reason, lastSeq: ch.lastSeq ?? null, resumedAtSeq: resumedAt },
      ts,
    };
    const watermark = ch.lastTs ?? ts;
    const lastSeen = ch.lastSeq;
    ch.lastSeq = resumedAt;
    this.deliver(ch, marker);
    if (ch.name === 'account') void this.reconcile(ch, watermark, lastSeen, resumedAt);
  }

  /**
   * Reads over REST what can have changed since the watermark and yields each order whose state
   * the consumer has not had, oldest change first, before any later live event.
   */
  private async reconcile(
    ch: ChannelState,
    watermark: string,
    lastSeen: number | undefined,
    seq: number,
  ): Promise<void> {
    // Synchronous up to the first await: later frames queue behind the reconciliation.
    this.reconciling += 1;
    this.#ws?.pause();
    const from = lookbackFrom(watermark, this.opts.reconcileLookbackMs ?? 0);
    try {
      if (this.seeding) await this.seeding;
      const full = !this.tracker.knowsOpenOrdersAt(lastSeen);
      for (let attempt = 0; !this.closed; attempt++) {
        try {
          this.tracker.startResync();
          const plan = { from, knownOpen: this.tracker.openOrders(), full };
          const read = await readChangedOrders(this.listOrders, plan, () => this.closed);
          if (this.closed) return;
          for (const orderId of read.missing) this.tracker.gone(orderId);
          const fresh = read.orders.filter((r) => this.tracker.acceptRest(r.order, r.readSeq, from));
          this.tracker.openOrdersKnown(undefined);
          for (const { order } of fresh) {
            await this.room();
            if (this.closed) return;
            this.deliver(ch, {
              type: 'event',
              channel: 'account',
              seq,
              event: 'order.updated',
              data: order as StreamOrder,
              ts: order.updatedAt,
              source: 'rest',
            });
          }
          return;
        } catch (err) {
          this.log.warn('stream: order reconciliation failed, retrying', {
            error: err instanceof Error ? err.message : String(err),
          });
          const delay = backoffDelay(attempt, this.opts.reconnect ?? {}, this.random);
          await new Promise<void>((resolve) => {
            const wake = (): void => {
              this.reconcileWait = undefined;
              resolve();
            };
            this.reconcileWait = { timer: setTimeout(wake, delay), wake };
          });
        }
      }
    } finally {
      this.reconciling -= 1;
      if (!this.closed) this.drain();
    }
  }
}

/** Opens the stream now; iterators created with `market()` / `account()` subscribe their channel. */
export function connectStream(host: StreamHost, options: StreamOptions = {}): VenueStream {
  return new StreamConnection(host, options);
}
