import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  decodeClientFrame,
  encodeError,
  encodeEvent,
  encodeHello,
  encodePong,
  encodeSubscribed,
  encodeUnsubscribed,
} from '../../contract/ws-codec.js';
import type { Channel, FrameId } from '../../contract/ws-protocol.js';
import type { SimulatorEvent } from '../engine/types.js';
import type { EventInterest } from '../events/event-fanout.js';
import { DeferredLog } from './replay-buffer.js';

export interface HubOptions {
  /** Frames kept per sequence for `since` replay. */
  replayBufferSize: number;
  /** A socket whose unsent data passes this is dropped as a slow consumer (it resumes with `since`). */
  maxBufferedBytes: number;
  now: () => number;
  marketSnapshot: () => unknown;
  /** The subprotocol the server selected, announced in `hello`. */
  protocol: string;
  /** The server's ping interval, announced in `hello`; 0 when it sends none. */
  heartbeatMs: number;
  /** Observes every well-formed client frame (tests and diagnostics). */
  onClientFrame?: (entityId: string, frame: { op: string; channel?: Channel }) => void;
  /**
   * An event lost in transit (the `fill-event-lost` preset): its seq is consumed and it is kept for
   * `since` replay, as a frame the server believes it sent, but no socket receives it.
   */
  lost?: (ev: SimulatorEvent) => boolean;
}

interface Connection {
  ws: WebSocket;
  /** The socket under `ws`, corked while frames of one synchronous run gather (see `send`). */
  stream: Duplex | undefined;
  corked: boolean;
  entityId: string;
  market: boolean;
  account: boolean;
  alive: boolean;
}

// Past this many unsent bytes a corked socket is written out at once rather than at the run's end.
const CORK_FLUSH_BYTES = 64 * 1024;

/**
 * Assigns seq per channel, keeps the replay buffers and fans events out to subscribed sockets.
 *
 * A sequence nobody has seen a seq of (no socket subscribed to it, no `accountSeq` read) since this
 * server life began cannot be asked for with `since` (the last seq a client saw): its events are
 * only counted (`skip`), never built, until someone looks. From then on it keeps its events as
 * before, subscribed or not, so a client coming back with `since` is replayed what it missed.
 */
export class Hub implements EventInterest {
  private market: DeferredLog;
  private marketSeen = false;
  private readonly accounts = new Map<string, DeferredLog>();
  private readonly accountsSeen = new Set<string>();
  private readonly connections = new Set<Connection>();
  // The sockets subscribed to each sequence: an event visits its readers, not every socket.
  private readonly marketSockets = new Set<Connection>();
  private readonly accountSockets = new Map<string, Set<Connection>>();
  private readonly corked: Connection[] = [];

  constructor(private readonly opts: HubOptions) {
    this.market = new DeferredLog(opts.replayBufferSize);
  }

  stats(): { connections: number; market: number; account: number } {
    let market = 0;
    let account = 0;
    for (const c of this.connections) {
      if (c.market) market += 1;
      if (c.account) account += 1;
    }
    return { connections: this.connections.size, market, account };
  }

  /** The entity's account seq now (0 before its first event); its sequence is seen from now on. */
  accountSeq(entityId: string): number {
    this.accountsSeen.add(entityId);
    return this.accounts.get(entityId)?.seq ?? 0;
  }

  /** EventInterest: the events of a sequence someone has seen; the others are counted by `skip`. */
  wants(entityId: string | undefined): boolean {
    return entityId === undefined ? this.marketSeen : this.accountsSeen.has(entityId);
  }

  skip(entityId: string | undefined): void {
    (entityId === undefined ? this.market : this.accountLog(entityId)).skip();
  }

  publish(ev: SimulatorEvent): void {
    const at = this.opts.now();
    const market = ev.channel === 'market';
    const log = market ? this.market : this.accountLog(ev.entityId);
    const sockets = market ? this.marketSockets : this.accountSockets.get(ev.entityId);
    let frame: Buffer | undefined;
    if (sockets && !this.opts.lost?.(ev))
      for (const c of sockets) {
        // Serialized and UTF-8 encoded once per event, however many sockets receive it.
        frame ??= Buffer.from(log.append(ev, at));
        this.send(c, frame);
      }
    if (frame === undefined) log.defer(ev, at);
  }

  /** `stream`: the socket under `ws`, when the caller has it (the server does), to batch writes. */
  add(ws: WebSocket, entityId: string, stream?: Duplex): void {
    const c: Connection = {
      ws,
      stream,
      corked: false,
      entityId,
      market: false,
      account: false,
      alive: true,
    };
    this.connections.add(c);
    ws.on('pong', () => {
      c.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      c.alive = true;
      this.onMessage(c, isBinary ? undefined : data.toString());
    });
    ws.on('close', () => this.forget(c));
    ws.on('error', () => ws.terminate());
    // The venue greets first and expects subscriptions after; nothing can precede this frame.
    this.send(c, encodeHello(this.opts.protocol, this.opts.now(), this.opts.heartbeatMs));
  }

  /** Server heartbeat: a socket that did not answer the previous ping is dead. */
  heartbeat(): void {
    for (const c of this.connections) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  /** Closes every socket with `code` (a close frame after what is queued: nothing sent is cut off). */
  closeAll(code: number, reason: string): void {
    for (const c of this.connections) c.ws.close(code, reason);
  }

  /**
   * Resolves once every frame sent so far to the entity's account sockets has been handed to the
   * kernel (their corked writes flushed, a full buffer drained), then one macrotask later: what the
   * `ack-after-event` preset holds a REST answer for.
   */
  async accountWritten(entityId: string): Promise<void> {
    const sockets = [...(this.accountSockets.get(entityId) ?? [])];
    if (sockets.length === 0) return;
    // The uncork is a microtask (send): by the next macrotask the frames were written or queued.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await Promise.all(sockets.map((c) => drained(c.stream)));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  terminateAll(): void {
    for (const c of this.connections) c.ws.terminate();
    this.connections.clear();
    this.marketSockets.clear();
    this.accountSockets.clear();
  }

  /**
   * The simulator went back to its seeded state: what clients hold describes a world that no longer
   * exists. Drop every socket and start every sequence afresh, so a client coming back with `since`
   * is told the replay is unavailable and resyncs (fresh snapshot, orders re-read over REST).
   */
  restart(): void {
    this.terminateAll();
    this.market = new DeferredLog(this.opts.replayBufferSize);
    this.marketSeen = false;
    this.accounts.clear();
    this.accountsSeen.clear();
  }

  private socketsOf(channel: Channel, entityId: string): Set<Connection> {
    if (channel === 'market') return this.marketSockets;
    let set = this.accountSockets.get(entityId);
    if (!set) {
      set = new Set();
      this.accountSockets.set(entityId, set);
    }
    return set;
  }

  private forget(c: Connection): void {
    this.connections.delete(c);
    this.marketSockets.delete(c);
    const account = this.accountSockets.get(c.entityId);
    if (account?.delete(c) && account.size === 0) this.accountSockets.delete(c.entityId);
  }

  private accountLog(entityId: string): DeferredLog {
    let log = this.accounts.get(entityId);
    if (!log) {
      log = new DeferredLog(this.opts.replayBufferSize);
      this.accounts.set(entityId, log);
    }
    return log;
  }

  /**
   * Frames sent in one synchronous run (a clear publishes locked, cleared, settled and the next
   * auction's opened to every market socket) leave each socket in one write at the run's end, not
   * one system call per frame: the socket is corked at its first frame and uncorked by a microtask,
   * or at once when CORK_FLUSH_BYTES are waiting. Order and content are as sent one by one.
   */
  private send(c: Connection, frame: string | Buffer): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if (c.ws.bufferedAmount > this.opts.maxBufferedBytes) {
      // Bounded server memory: the client resumes with `since` (or resyncs) on its next socket.
      c.ws.terminate();
      this.forget(c);
      return;
    }
    const stream = c.stream;
    if (stream && !c.corked) {
      stream.cork();
      c.corked = true;
      if (this.corked.push(c) === 1) queueMicrotask(() => this.uncorkAll());
    }
    c.ws.send(frame, { binary: false });
    if (c.corked && stream && stream.writableLength > CORK_FLUSH_BYTES) {
      c.corked = false;
      stream.uncork();
    }
  }

  private uncorkAll(): void {
    const corked = this.corked.splice(0);
    for (const c of corked) {
      if (!c.corked) continue;
      c.corked = false;
      c.stream?.uncork();
    }
  }

  /** Frame parsing is the codec's (decodeClientFrame); the hub only acts on what it decoded. */
  private onMessage(c: Connection, text: string | undefined): void {
    const decoded = decodeClientFrame(text);
    if (!decoded.ok) {
      this.send(c, encodeError(decoded.error));
      return;
    }
    const frame = decoded.frame;
    if (frame.op === 'ping') {
      this.opts.onClientFrame?.(c.entityId, { op: frame.op });
      this.send(c, encodePong(frame.id, this.opts.now()));
      return;
    }
    this.opts.onClientFrame?.(c.entityId, { op: frame.op, channel: frame.channel });
    if (frame.op === 'unsubscribe') {
      c[frame.channel] = false;
      this.socketsOf(frame.channel, c.entityId).delete(c);
      this.send(c, encodeUnsubscribed(frame.channel, frame.id));
      return;
    }
    this.subscribe(c, frame.channel, frame.id, frame.since);
  }

  private subscribe(
    c: Connection,
    channel: Channel,
    id: FrameId | undefined,
    since: number | undefined,
  ): void {
    if (channel === 'market') this.marketSeen = true;
    else this.accountsSeen.add(c.entityId);
    const log = channel === 'market' ? this.market : this.accountLog(c.entityId);
    const at = this.opts.now();
    const replay = since === undefined ? undefined : log.after(since);
    const replayed = since === undefined ? undefined : replay === undefined ? 'unavailable' : 'ok';
    // Everything below runs in one tick: no live event can slip between the replay and the live feed.
    this.send(c, encodeSubscribed({ channel, id, seq: log.seq, at, since, replay: replayed }));
    if (replay) for (const frame of replay) this.send(c, frame);
    if (channel === 'market') {
      // Outside the sequence: it carries the seq it is consistent with and is never replayed.
      this.send(c, encodeEvent('market', log.seq, 'auction.snapshot', this.opts.marketSnapshot(), at));
    }
    c[channel] = true;
    this.socketsOf(channel, c.entityId).add(c);
  }
}

/** Resolves when the stream holds no unwritten bytes, or is gone. */
function drained(stream: Duplex | undefined): Promise<void> {
  if (!stream || stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
