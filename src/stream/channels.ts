import type { Channel, ClientFrame, EventFrame, SubscribedFrame } from '../contract/ws-protocol.js';
import type { StreamSubscription } from './api.js';
import type { StreamEvent, StreamResyncEvent } from './events.js';
import type { EventQueue } from './queue.js';

// The two channels: who listens to each, where each stands in its sequence, and the subscribe and
// unsubscribe frames that follow from both. What to do with an event once placed is not here.

export interface ChannelState {
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

/** Where an event frame falls in its channel's sequence. */
export type Placement =
  /** No subscription yet (no `subscribed` answer): it belongs to an earlier one. */
  | 'stale'
  /** Outside the sequence (the snapshot, or no seq): delivered as it comes. */
  | 'unsequenced'
  /** At or before the last seq: already delivered. */
  | 'duplicate'
  /** Past the next seq: events were missed. */
  | 'gap'
  | 'next';

/** Why a channel could not resume exactly (`stream.resync`'s `reason`). */
export type ResyncReason = StreamResyncEvent['data']['reason'];

/** How channels reach the socket: the session. */
export interface FrameSender {
  send(frame: ClientFrame): void;
  nextFrameId(): number;
}

function channel(name: Channel): ChannelState {
  return { name, subs: new Set(), lastSeq: undefined, lastTs: undefined, live: false, waiting: [] };
}

export class Channels {
  private readonly byName: Record<Channel, ChannelState> = {
    market: channel('market'),
    account: channel('account'),
  };
  /** Channels with at least one iterator, oldest subscription first. */
  private order: Channel[] = [];

  constructor(private readonly sender: FrameSender) {}

  /** The channel a server frame names; undefined for one this client does not know. */
  get(name: string): ChannelState | undefined {
    return name === 'market' || name === 'account' ? this.byName[name] : undefined;
  }

  subscribed(): Channel[] {
    return [...this.order];
  }

  *queues(): Iterable<EventQueue<StreamEvent>> {
    for (const ch of Object.values(this.byName)) yield* ch.subs;
  }

  /** A new socket: in the order the channels were first subscribed, as the server answers in order. */
  resubscribe(): void {
    for (const name of this.order) this.sendSubscribe(this.byName[name]);
  }

  /**
   * Adds `queue` to the channel as an iterator; the channel's first one subscribes it. `closed`: the
   * stream has ended, so the iterator is born done. `left` runs after the iterator leaves.
   */
  join(
    name: Channel,
    queue: EventQueue<StreamEvent>,
    closed: boolean,
    left: () => void,
  ): StreamSubscription<StreamEvent> {
    const ch = this.byName[name];
    const ready =
      closed || ch.live
        ? Promise.resolve(!closed)
        : new Promise<boolean>((resolve) => ch.waiting.push(resolve));
    if (closed) queue.end();
    else {
      ch.subs.add(queue);
      if (ch.subs.size === 1) {
        this.order.push(name);
        this.sendSubscribe(ch);
      }
    }
    const leave = (): void => {
      if (!ch.subs.delete(queue)) return;
      queue.clear();
      queue.end();
      if (ch.subs.size === 0) {
        this.order = this.order.filter((c) => c !== name);
        this.sender.send({ op: 'unsubscribe', channel: name, id: this.sender.nextFrameId() });
        // A later iterator starts from "now", not from where this one left.
        ch.lastSeq = undefined;
        ch.lastTs = undefined;
        ch.live = false;
        for (const resolve of ch.waiting.splice(0)) resolve(false);
      }
      left();
    };
    return {
      channel: name,
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
  }

  /** The server confirmed the subscription: waiting `ready` promises resolve true. */
  confirm(ch: ChannelState, frame: SubscribedFrame): void {
    ch.live = true;
    for (const resolve of ch.waiting.splice(0)) resolve(true);
    // Without `since` the sequence starts at the server's current seq.
    if (frame.replay === undefined) {
      ch.lastSeq = frame.seq;
      ch.lastTs = frame.ts;
    }
  }

  place(ch: ChannelState, frame: EventFrame): Placement {
    if (ch.subs.size === 0 || ch.lastSeq === undefined) return 'stale';
    if (frame.event === 'auction.snapshot' || typeof frame.seq !== 'number') return 'unsequenced';
    if (frame.seq <= ch.lastSeq) return 'duplicate';
    if (frame.seq > ch.lastSeq + 1) return 'gap';
    return 'next';
  }

  /** The channel moves on to `frame` (placed 'next'); account events also move the watermark. */
  advance(ch: ChannelState, frame: EventFrame): void {
    ch.lastSeq = frame.seq;
    if (ch.name === 'account') ch.lastTs = frame.ts;
  }

  /**
   * The channel cannot resume exactly and goes on from `resumedAt`: the marker that tells the
   * consumer, and the watermark and last seq seen from which the missed changes are read.
   */
  jump(
    ch: ChannelState,
    reason: ResyncReason,
    resumedAt: number,
    ts: string,
    refused?: { event: string; error: string },
  ): { marker: StreamResyncEvent; watermark: string; lastSeen: number | undefined } {
    const marker: StreamResyncEvent = {
      type: 'event',
      channel: ch.name,
      seq: resumedAt,
      event: 'stream.resync',
      data: { reason, lastSeq: ch.lastSeq ?? null, resumedAtSeq: resumedAt, ...refused },
      ts,
    };
    const watermark = ch.lastTs ?? ts;
    const lastSeen = ch.lastSeq;
    ch.lastSeq = resumedAt;
    return { marker, watermark, lastSeen };
  }

  /** The stream closed: `ready` resolves false and every iterator ends (with `error`, if any). */
  end(error: Error | undefined): void {
    for (const ch of Object.values(this.byName)) {
      for (const resolve of ch.waiting.splice(0)) resolve(false);
      for (const q of ch.subs) {
        q.clear();
        q.end(error);
      }
      ch.subs.clear();
    }
    this.order = [];
  }

  private sendSubscribe(ch: ChannelState): void {
    const frame: ClientFrame = { op: 'subscribe', channel: ch.name, id: this.sender.nextFrameId() };
    if (ch.lastSeq !== undefined) frame.since = ch.lastSeq;
    this.sender.send(frame);
  }
}
