import { EventQueue } from '../stream/queue.js';
import type { MirrorChange } from './api.js';
import type { PendingChange } from './mirror-view.js';

// Numbers the mirror's changes and hands each, once and in order, to every `changes()` iterator and
// internal listener (the waits). Iterators are bounded: when one is full the mirror stops reading
// the stream (see room()), which pauses the socket, so a slow reader costs no unbounded memory.

export class ChangeFeed {
  readonly #queues = new Set<EventQueue<MirrorChange>>();
  readonly #listeners = new Set<(change: MirrorChange) => void>();
  #roomWaiters: (() => void)[] = [];
  #seq = 0;
  #ended = false;

  constructor(private readonly bufferSize: number) {}

  emit(change: PendingChange | undefined): void {
    if (change === undefined || this.#ended) return;
    const numbered = { ...change, seq: ++this.#seq } as MirrorChange;
    for (const queue of this.#queues) queue.push(numbered);
    for (const listener of [...this.#listeners]) listener(numbered);
  }

  /** Calls `listener` on every change from now on; returns the unsubscribe function. */
  listen(listener: (change: MirrorChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A new iterator of the changes from now on. */
  iterator(): AsyncIterableIterator<MirrorChange> {
    const queue = new EventQueue<MirrorChange>(this.bufferSize, 'pause', () => this.#taken());
    if (this.#ended) queue.end();
    else this.#queues.add(queue);
    const leave = (): IteratorResult<MirrorChange> => {
      this.#queues.delete(queue);
      queue.clear();
      queue.end();
      this.#taken();
      return { value: undefined, done: true };
    };
    return {
      next: () => queue.next(),
      return: () => Promise.resolve(leave()),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Resolves when no iterator is full: the mirror waits on it before reading the next event. */
  room(): Promise<void> {
    if (![...this.#queues].some((q) => q.full)) return Promise.resolve();
    return new Promise((resolve) => this.#roomWaiters.push(resolve));
  }

  /** Ends every iterator (buffered changes are still read first; `error` after them, if any). */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const queue of this.#queues) queue.end(error);
    this.#queues.clear();
    this.#listeners.clear();
    this.#release();
  }

  #taken(): void {
    if (this.#roomWaiters.length === 0) return;
    // Resume at half, as the stream does, so the mirror does not stop and start per change.
    if ([...this.#queues].some((q) => q.length > q.bufferSize / 2)) return;
    this.#release();
  }

  #release(): void {
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
