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
import { SequenceLog } from './replay-buffer.js';

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
}

interface Connection {
  ws: WebSocket;
  entityId: string;
  market: boolean;
  account: boolean;
  alive: boolean;
}

/** The event frame of `ev`, published at `at`, numbered `seq`. */
function eventFrame(ev: SimulatorEvent, at: number, seq: number): string {
  return encodeEvent(ev.channel, seq, ev.event, ev.data, at);
}

// Stands in for a frame too old to be replayed; always overwritten before `after` can return it.
const EXPIRED = () => '';

/**
 * A SequenceLog that serializes a frame only once a socket can receive or replay it. While no
 * socket is subscribed to the sequence, events wait unserialized (the event and its time, no
 * closure), at most `capacity` of them: the log replays only its last `capacity` frames, so an
 * older one could never be read and is only counted. `seq` counts every event; `after` first
 * writes the waiting ones into the log. So seq and replay are exactly as if each frame had been
 * serialized on arrival, and a 1,000,000-order clear with nobody listening serializes 1,024 frames
 * per sequence, not a million.
 */
class DeferredLog {
  private readonly log: SequenceLog;
  private readonly events: SimulatorEvent[] = [];
  private readonly times: number[] = [];
  // Ring over events/times once they hold `capacity`: index of the oldest.
  private head = 0;
  private expired = 0;

  constructor(private readonly capacity: number) {
    this.log = new SequenceLog(capacity);
  }

  get seq(): number {
    return this.log.seq + this.expired + this.events.length;
  }

  /** Assigns the next seq and returns its frame, built now (a socket is waiting for it). */
  append(ev: SimulatorEvent, at: number): string {
    this.flush();
    return this.log.append((seq) => eventFrame(ev, at, seq));
  }

  /** Assigns the next seq; its frame is built only if it is still replayable when asked for. */
  defer(ev: SimulatorEvent, at: number): void {
    if (this.events.length < this.capacity) {
      this.events.push(ev);
      this.times.push(at);
      return;
    }
    this.expired += 1;
    if (this.capacity <= 0) return;
    this.events[this.head] = ev;
    this.times[this.head] = at;
    this.head = (this.head + 1) % this.capacity;
  }

  after(since: number): string[] | undefined {
    this.flush();
    return this.log.after(since);
  }

  private flush(): void {
    for (; this.expired > 0; this.expired--) this.log.append(EXPIRED);
    const n = this.events.length;
    for (let i = 0; i < n; i++) {
      const k = (this.head + i) % n;
      const ev = this.events[k] as SimulatorEvent;
      const at = this.times[k] as number;
      this.log.append((seq) => eventFrame(ev, at, seq));
    }
    this.events.length = 0;
    this.times.length = 0;
    this.head = 0;
  }
}

/** Assigns seq per channel, keeps the replay buffers and fans events out to subscribed sockets. */
export class Hub {
  private market: DeferredLog;
  private readonly accounts = new Map<string, DeferredLog>();
  private readonly connections = new Set<Connection>();

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

  /** The entity's account seq now (0 before its first event). */
  accountSeq(entityId: string): number {
    return this.accounts.get(entityId)?.seq ?? 0;
  }

  publish(ev: SimulatorEvent): void {
    const at = this.opts.now();
    const market = ev.channel === 'market';
    const log = market ? this.market : this.accountLog(ev.entityId);
    let frame: string | undefined;
    for (const c of this.connections) {
      if (market ? !c.market : !c.account || c.entityId !== ev.entityId) continue;
      // Serialized once per event, however many sockets receive it.
      frame ??= log.append(ev, at);
      this.send(c, frame);
    }
    if (frame === undefined) log.defer(ev, at);
  }

  add(ws: WebSocket, entityId: string): void {
    const c: Connection = { ws, entityId, market: false, account: false, alive: true };
    this.connections.add(c);
    ws.on('pong', () => {
      c.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      c.alive = true;
      this.onMessage(c, isBinary ? undefined : data.toString());
    });
    ws.on('close', () => this.connections.delete(c));
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

  terminateAll(): void {
    for (const c of this.connections) c.ws.terminate();
    this.connections.clear();
  }

  /**
   * The simulator went back to its seeded state: what clients hold describes a world that no longer
   * exists. Drop every socket and start every sequence afresh, so a client coming back with `since`
   * is told the replay is unavailable and resyncs (fresh snapshot, orders re-read over REST).
   */
  restart(): void {
    this.terminateAll();
    this.market = new DeferredLog(this.opts.replayBufferSize);
    this.accounts.clear();
  }

  private accountLog(entityId: string): DeferredLog {
    let log = this.accounts.get(entityId);
    if (!log) {
      log = new DeferredLog(this.opts.replayBufferSize);
      this.accounts.set(entityId, log);
    }
    return log;
  }

  private send(c: Connection, frame: string): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if (c.ws.bufferedAmount > this.opts.maxBufferedBytes) {
      // Bounded server memory: the client resumes with `since` (or resyncs) on its next socket.
      c.ws.terminate();
      this.connections.delete(c);
      return;
    }
    c.ws.send(frame);
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
  }
}
