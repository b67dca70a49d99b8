import type { StreamEvent } from './events.js';
import type { EventQueue, OverflowPolicy } from './queue.js';

// Flow control between the socket and the iterators. Two things hold the socket: a full iterator
// (the 'pause' policy: `blocked` until every iterator drains to half) and a REST reconciliation
// (its events must come before any later live one). Meanwhile raw frames wait in `backlog`,
// undecoded, and events already decoded wait in `overflow`; nothing is lost and order is kept.

/**
 * The iterators of one channel: the channel's own set, so an event that waited in `overflow` goes
 * to the iterators listening when it is pushed.
 */
export type Queues = ReadonlySet<EventQueue<StreamEvent>>;

/** What flow control drives: the socket, the frame handler, and every iterator. */
export interface FlowHooks {
  /** Stop reading the socket; `resume` reads again. */
  pause(): void;
  resume(): void;
  /** Decode and dispatch one frame's text. */
  handle(text: string): void;
  queues(): Iterable<EventQueue<StreamEvent>>;
}

export class FlowControl {
  private blocked = false;
  private reconciling = 0;
  private stopped = false;
  private readonly backlog: string[] = [];
  private readonly overflow: { to: Queues; ev: StreamEvent }[] = [];
  private roomWaiters: (() => void)[] = [];

  constructor(
    private readonly bufferSize: number,
    private readonly policy: OverflowPolicy,
    private readonly hooks: FlowHooks,
  ) {}

  /** The socket's frames must wait (and the heartbeat cannot judge a silent socket). */
  get held(): boolean {
    return this.blocked || this.reconciling > 0 || this.backlog.length > 0 || this.overflow.length > 0;
  }

  /** Frames read but not yet decoded. */
  get backlogSize(): number {
    return this.backlog.length;
  }

  get reconciliationRunning(): boolean {
    return this.reconciling > 0;
  }

  /** A frame's text from the socket: handled now, or after what is already waiting. */
  receive(text: string): void {
    if (this.held) this.backlog.push(text);
    else this.hooks.handle(text);
  }

  /** A frame to handle again first, once the reconciliation just started is done. */
  putBack(text: string): void {
    this.backlog.unshift(text);
  }

  deliver(to: Queues, ev: StreamEvent): void {
    if (this.blocked || this.overflow.length > 0) this.overflow.push({ to, ev });
    else this.push(to, ev);
  }

  /** An iterator took an event (or left): once all are at half or less, reading goes on. */
  taken(): void {
    if (!this.blocked) return;
    const low = Math.floor(this.bufferSize / 2);
    for (const q of this.hooks.queues()) if (q.length > low) return;
    this.blocked = false;
    this.drain();
  }

  /** Resolves when iterators have room (at once when not blocked or stopped). */
  room(): Promise<void> {
    if (!this.blocked || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /**
   * A reconciliation starts: live frames wait behind it. Synchronous, so a frame being handled
   * right now can see it and wait too.
   */
  hold(): void {
    this.reconciling += 1;
    this.hooks.pause();
  }

  /** A reconciliation ended: what waited is handled. */
  release(): void {
    this.reconciling -= 1;
    if (!this.stopped) this.drain();
  }

  /** The stream closed: nothing waits any more. */
  stop(): void {
    this.stopped = true;
    this.backlog.length = 0;
    this.overflow.length = 0;
    this.releaseRoomWaiters();
  }

  private drain(): void {
    while (!this.blocked && this.overflow.length > 0) {
      const next = this.overflow.shift();
      if (next) this.push(next.to, next.ev);
    }
    while (!this.blocked && this.reconciling === 0 && this.backlog.length > 0) {
      this.hooks.handle(this.backlog.shift() as string);
    }
    if (!this.blocked) this.releaseRoomWaiters();
    if (!this.held) this.hooks.resume();
  }

  private push(to: Queues, ev: StreamEvent): void {
    for (const q of to) {
      q.push(ev);
      if (this.policy === 'pause' && q.full && !this.blocked) {
        this.blocked = true;
        this.hooks.pause();
      }
    }
  }

  private releaseRoomWaiters(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }
}
