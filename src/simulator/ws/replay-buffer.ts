import { encodeEvent } from '../../contract/ws-codec.js';
import type { SimulatorEvent } from '../engine/types.js';

/**
 * One event sequence (the market, or one entity's account): assigns `seq` and keeps the last
 * `capacity` serialized frames so a reconnecting client can be replayed what it missed.
 */
export class SequenceLog {
  private current = 0;
  private readonly frames: string[] = [];
  // Index in `frames` of the oldest kept frame; the array is used as a ring once full.
  private head = 0;

  constructor(private readonly capacity: number) {}

  get seq(): number {
    return this.current;
  }

  /** Assigns the next seq, stores the frame `build` makes for it, and returns that frame. */
  append(build: (seq: number) => string): string {
    this.current += 1;
    const frame = build(this.current);
    if (this.capacity <= 0) return frame;
    if (this.frames.length < this.capacity) {
      this.frames.push(frame);
    } else {
      this.frames[this.head] = frame;
      this.head = (this.head + 1) % this.capacity;
    }
    return frame;
  }

  /**
   * Assigns the next `n` seqs to events that are not kept: every frame held so far is older than
   * them, so no `since` can be replayed from those any more, and they are dropped.
   */
  skip(n: number): void {
    this.current += n;
    this.frames.length = 0;
    this.head = 0;
  }

  /**
   * Frames with seq > since, oldest first, or undefined when they are no longer all held
   * (or `since` is ahead of this log, i.e. from another server life).
   */
  after(since: number): string[] | undefined {
    if (!Number.isSafeInteger(since) || since < 0 || since > this.current) return undefined;
    const missing = this.current - since;
    if (missing === 0) return [];
    if (missing > this.frames.length) return undefined;
    const out: string[] = [];
    const n = this.frames.length;
    const oldest = this.frames.length < this.capacity ? 0 : this.head;
    for (let i = n - missing; i < n; i++) {
      out.push(this.frames[(oldest + i) % n] as string);
    }
    return out;
  }
}

/** The event frame of `ev`, published at `at`, numbered `seq`. */
function eventFrame(ev: SimulatorEvent, at: number, seq: number): string {
  return encodeEvent(ev.channel, seq, ev.event, ev.data, at);
}

/**
 * A SequenceLog that serializes a frame only once a socket can receive or replay it. While no
 * socket is subscribed to the sequence, events wait unserialized (the event and its time, no
 * closure), at most `capacity` of them: the log replays only its last `capacity` frames, so an
 * older one could never be read and is only counted. `seq` counts every event; `after` first
 * writes the waiting ones into the log. So seq and replay are exactly as if each frame had been
 * serialized on arrival, and a 1,000,000-order clear with nobody listening serializes 1,024 frames
 * per sequence, not a million.
 */
export class DeferredLog {
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

  /**
   * Assigns the next seq to an event that was never built (nobody could ever ask for it): like an
   * expired one it cannot be replayed, and it makes every older event unreplayable too.
   */
  skip(): void {
    this.expired += 1;
    // Resizing an array is a runtime call: only when something waits (once per run of skips).
    if (this.events.length === 0) return;
    this.expired += this.events.length;
    this.events.length = 0;
    this.times.length = 0;
    this.head = 0;
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
    if (this.expired > 0) this.log.skip(this.expired);
    this.expired = 0;
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
