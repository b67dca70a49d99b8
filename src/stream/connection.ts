import { type BackoffPolicy, STREAM_BACKOFF } from '../contract/retry-policy.js';
import { decodeServerFrame, decodeSocketEvent } from '../contract/ws-codec.js';
import {
  type Channel,
  type EventFrame,
  isSubprotocolName,
  SUBPROTOCOL_RULE,
  type SubscribedFrame,
} from '../contract/ws-protocol.js';
import { InvalidArgumentError } from '../core/base-error.js';
import type { Logger } from '../core/logger.js';
import type {
  BackoffOptions,
  StateChange,
  StreamHost,
  StreamOptions,
  StreamState,
  StreamStats,
  StreamSubscription,
  StreamSummary,
  VenueStream,
} from './api.js';
import { type ChannelState, Channels, type Placement, type ResyncReason } from './channels.js';
import type { AccountEvent, MarketEvent, StreamEvent } from './events.js';
import { FlowControl } from './flow.js';
import { isOrderLike } from './order-tracker.js';
import { EventQueue, type OverflowPolicy } from './queue.js';
import { StreamObserver } from './observe.js';
import { Reconciler } from './reconcile.js';
import { Session } from './session.js';

// The stream's one orchestrator. Each part keeps its own state: the session (socket, ticket,
// heartbeat, reconnects), the channels (iterators, seq, subscribe frames), flow control (pause,
// backlog, overflow) and the reconciler (REST resync). This class wires them and routes each server
// frame: which part acts on it, in which order. None of the parts knows another's internals.

/** Node's util.inspect hook, by its registry key: no node:util import on other runtimes. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

const noopLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The `reconnect` option over the contract's stream schedule (reconnects and resync reads). */
function streamBackoff(options: BackoffOptions = {}): BackoffPolicy {
  return {
    initialDelayMs: options.initialDelayMs ?? STREAM_BACKOFF.initialDelayMs,
    maxDelayMs: options.maxDelayMs ?? STREAM_BACKOFF.maxDelayMs,
    factor: options.factor ?? STREAM_BACKOFF.factor ?? 2,
    jitter: STREAM_BACKOFF.jitter,
  };
}

class StreamConnection implements VenueStream {
  // All parts are private (#): the session holds the socket, whose handshake request carries the
  // ticket, and inspection or serialization of the stream must never reach it.
  readonly #log: Logger;
  readonly #bufferSize: number;
  readonly #policy: OverflowPolicy;
  readonly #session: Session;
  readonly #channels: Channels;
  readonly #flow: FlowControl;
  readonly #reconciler: Reconciler;
  readonly #observe: StreamObserver;
  #duplicatesDropped = 0;
  #resyncs = 0;

  constructor(host: StreamHost, opts: StreamOptions) {
    checkOptions(host, opts);
    this.#log = host.logger ?? noopLogger;
    const random = opts.random ?? Math.random;
    const backoff = streamBackoff(opts.reconnect);
    this.#session = new Session(
      host,
      opts,
      { log: this.#log, backoff, random },
      {
        opened: () => this.#channels.resubscribe(),
        message: (text) => this.#flow.receive(text),
        held: () => this.#flow.held,
        failed: (error) => this.#shutdown(error),
      },
    );
    this.#bufferSize = opts.bufferSize ?? 1000;
    this.#policy = opts.overflow ?? 'pause';
    if (!Number.isSafeInteger(this.#bufferSize) || this.#bufferSize < 1) {
      throw new InvalidArgumentError('bufferSize must be an integer >= 1');
    }
    this.#channels = new Channels(this.#session);
    this.#flow = new FlowControl(this.#bufferSize, this.#policy, {
      pause: () => this.#session.pause(),
      resume: () => this.#session.resume(),
      handle: (text) => this.#handle(text),
      queues: () => this.#channels.queues(),
    });
    this.#reconciler = new Reconciler({
      listOrders: (query) => host.listOrders(query),
      log: this.#log,
      backoff,
      random,
      lookbackMs: opts.reconcileLookbackMs ?? 0,
      flow: this.#flow,
      closed: () => this.#session.closed,
      reconnects: () => this.#session.reconnects,
    });
    this.#observe = new StreamObserver(() => this.#depths());
    this.#session.onState((change) => this.#observe.state(change));
    this.#session.start();
  }

  /** Events waiting per channel (the iterators' buffers), and frames read but not yet decoded. */
  *#depths(): Iterable<[string, number]> {
    for (const name of ['market', 'account'] as const) {
      let depth = 0;
      for (const queue of this.#channels.get(name)?.subs ?? []) depth += queue.length;
      yield [name, depth];
    }
    yield ['undecoded', this.#flow.backlogSize];
  }

  get state(): StreamState {
    return this.#session.state;
  }

  on(_event: 'state', listener: (change: StateChange) => void): () => void {
    return this.#session.onState(listener);
  }

  stats(): StreamStats {
    return {
      state: this.#session.state,
      reconnects: this.#session.reconnects,
      duplicatesDropped: this.#duplicatesDropped,
      resyncs: this.#resyncs,
      backlog: this.#flow.backlogSize,
    };
  }

  /**
   * What util.inspect, console.log and JSON.stringify show of the stream: its state and counters.
   * The socket and the host stay out of it: the handshake request holds the ticket.
   */
  [INSPECT](): StreamSummary {
    return this.toJSON();
  }

  toJSON(): StreamSummary {
    return { ...this.stats(), channels: this.#channels.subscribed() };
  }

  market(): StreamSubscription<MarketEvent> {
    return this.#subscribe('market') as StreamSubscription<MarketEvent>;
  }

  account(): StreamSubscription<AccountEvent> {
    return this.#subscribe('account') as StreamSubscription<AccountEvent>;
  }

  close(): Promise<void> {
    if (!this.#session.closed) this.#shutdown(undefined);
    return this.#session.socketGone();
  }

  #subscribe(channel: Channel): StreamSubscription<StreamEvent> {
    const queue = new EventQueue<StreamEvent>(this.#bufferSize, this.#policy, () => this.#flow.taken());
    return this.#channels.join(channel, queue, this.#session.closed, () => this.#flow.taken());
  }

  /** Ends the stream: the socket, then every iterator (with `error`, if any), then tells listeners. */
  #shutdown(error: Error | undefined): void {
    this.#session.stop();
    this.#reconciler.stop();
    this.#channels.end(error);
    this.#flow.stop();
    this.#session.announce('closed', error?.message);
  }

  #handle(text: string): void {
    const decoded = decodeServerFrame(text);
    if (!decoded.ok) {
      // JSON that is not an object is ignored as silently as an unknown frame type.
      if (decoded.error.code === 'invalid_json') this.#log.warn('stream: ignoring a frame that is not JSON');
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'event':
        this.#onEvent(frame, text);
        return;
      case 'subscribed':
        this.#onSubscribed(frame);
        return;
      case 'error':
        this.#log.warn('stream: server error frame', {
          code: frame.code,
          message: frame.message,
          id: frame.id,
        });
        return;
      default:
        return;
    }
  }

  #onEvent(frame: EventFrame, text: string): void {
    const ch = this.#channels.get(frame.channel);
    if (!ch) return;
    const placed = this.#channels.place(ch, frame);
    if (placed === 'stale') return;
    if (placed === 'duplicate') {
      this.#duplicatesDropped += 1;
      return;
    }
    try {
      // In place: the frame is this client's own fresh parse.
      decodeSocketEvent(frame.event, frame.data);
    } catch (err) {
      this.#refuse(ch, frame, placed, err instanceof Error ? err.message : String(err));
      return;
    }
    const ev = frame as StreamEvent;
    if (placed === 'unsequenced') {
      this.#flow.deliver(ch.subs, ev);
      return;
    }
    if (placed === 'gap') {
      this.#resync(ch, 'gap', frame.seq - 1, frame.ts);
      if (this.#flow.reconciliationRunning) {
        // Handle this frame after the REST reconciliation, in order.
        this.#flow.putBack(text);
        return;
      }
    }
    this.#channels.advance(ch, frame);
    if (
      ch.name === 'account' &&
      isOrderLike(ev.data) &&
      !this.#reconciler.tracker.acceptLive(ev.data, frame.seq)
    ) {
      this.#duplicatesDropped += 1;
      return;
    }
    this.#observe.event(frame.ts);
    this.#flow.deliver(ch.subs, ev);
  }

  #onSubscribed(frame: SubscribedFrame): void {
    const ch = this.#channels.get(frame.channel);
    if (!ch || ch.subs.size === 0) return;
    this.#channels.confirm(ch, frame);
    if (frame.replay === 'unavailable') this.#resync(ch, 'replay-unavailable', frame.seq, frame.ts);
    else if (frame.replay === undefined && ch.name === 'account') this.#reconciler.learnOpenOrders();
  }

  /**
   * An event the codec cannot decode (a money field that is not integer cents). Not dropped in
   * silence: the consumer gets a `stream.resync` naming it, and for `account` the REST
   * reconciliation re-reads every order change since the last event delivered, this one's included.
   * Its seq is consumed, so a resubscribe does not ask for it again.
   */
  #refuse(ch: ChannelState, frame: EventFrame, placed: Placement, error: string): void {
    this.#log.warn('stream: refusing an event that cannot be decoded', {
      channel: ch.name,
      event: frame.event,
      seq: frame.seq,
      error,
    });
    // The snapshot is outside the sequence: the channel stays where it is.
    const resumedAt = placed === 'unsequenced' ? (ch.lastSeq ?? frame.seq) : frame.seq;
    this.#resync(ch, 'undecodable', resumedAt, frame.ts, { event: frame.event, error });
  }

  /** Tells the consumer, then (account) reads every order change since the watermark over REST. */
  #resync(
    ch: ChannelState,
    reason: ResyncReason,
    resumedAt: number,
    ts: string,
    refused?: { event: string; error: string },
  ): void {
    this.#resyncs += 1;
    const { marker, watermark, lastSeen } = this.#channels.jump(ch, reason, resumedAt, ts, refused);
    this.#flow.deliver(ch.subs, marker);
    const reconcile =
      ch.name === 'account'
        ? () => this.#reconciler.reconcile(ch.subs, watermark, lastSeen, resumedAt)
        : undefined;
    // Runs `reconcile` at once (frames that follow must queue behind it), inside the resync's span.
    this.#observe.resync(ch.name, reason, lastSeen ?? null, resumedAt, reconcile);
  }
}

function checkOptions(host: StreamHost, opts: StreamOptions): void {
  const wait = opts.helloTimeoutMs;
  if (wait !== undefined && !(Number.isFinite(wait) && wait >= 0)) {
    throw new InvalidArgumentError(
      `helloTimeoutMs must be a non-negative number of milliseconds, got ${wait}`,
    );
  }
  if (host.subprotocol !== undefined && !isSubprotocolName(host.subprotocol)) {
    throw new InvalidArgumentError(
      `subprotocol ${SUBPROTOCOL_RULE}, got ${JSON.stringify(host.subprotocol)}`,
    );
  }
}

/** Opens the stream now; iterators created with `market()` / `account()` subscribe their channel. */
export function connectStream(host: StreamHost, options: StreamOptions = {}): VenueStream {
  return new StreamConnection(host, options);
}
