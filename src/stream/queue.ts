import { InvalidArgumentError } from '../core/base-error.js';

/** What a full iterator buffer does with the next event. */
export type OverflowPolicy = 'pause' | 'drop-oldest';

/**
 * A bounded FIFO between the socket and one `for await` loop. With 'pause' the owner stops
 * reading the socket when `full` is true (so nothing is lost and nothing is dropped here);
 * with 'drop-oldest' the oldest buffered event makes room and `dropped` counts it.
 */
export class EventQueue<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private failWaiter: ((err: unknown) => void) | undefined;
  private ended = false;
  private failure: unknown;
  dropped = 0;
  maxBuffered = 0;

  constructor(
    readonly bufferSize: number,
    readonly policy: OverflowPolicy,
    private readonly onTake: () => void,
  ) {
    if (!Number.isSafeInteger(bufferSize) || bufferSize < 1)
      throw new InvalidArgumentError('bufferSize must be an integer >= 1');
  }

  get length(): number {
    return this.items.length - this.head;
  }

  get full(): boolean {
    return this.length >= this.bufferSize;
  }

  get done(): boolean {
    return this.ended;
  }

  push(item: T): void {
    if (this.ended) return;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      this.failWaiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    if (this.length >= this.bufferSize && this.policy === 'drop-oldest') {
      this.head += 1;
      this.dropped += 1;
    }
    this.items.push(item);
    const n = this.length;
    if (n > this.maxBuffered) this.maxBuffered = n;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.length > 0) {
      const value = this.items[this.head] as T;
      this.items[this.head] = undefined as T;
      this.head += 1;
      // Compact now and then instead of shift(), which is O(n) per call.
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      this.onTake();
      return Promise.resolve({ value, done: false });
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  /** Ends the iterator: buffered events are still delivered, then `done` (or the error). */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) this.failure = error;
    if (this.waiter) {
      const w = this.waiter;
      const f = this.failWaiter;
      this.waiter = undefined;
      this.failWaiter = undefined;
      if (error !== undefined) f?.(error);
      else w({ value: undefined, done: true });
    }
  }

  /** Drops whatever is buffered (the consumer left). */
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
