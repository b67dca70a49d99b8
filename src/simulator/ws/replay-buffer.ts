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
