import { APIUserAbortError, WaitTimeoutError } from '../core/error.js';
import type { Order } from '../generated/models.js';

// What every wait for an order shares: one outcome, a timeout naming the last state seen, the
// caller's abort, and cleanup that leaves no timer or listener behind whichever way it ends.

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WaitSettings {
  orderId: string;
  timeout?: number | undefined;
  signal?: AbortSignal | undefined;
  /** What ends the wait on timeout instead of WaitTimeoutError (a final order already seen). */
  onTimeout?: () => Order | undefined;
}

/** One wait's outcome and its cleanup. `promise` settles once; later calls are ignored. */
export class WaitControl {
  readonly promise: Promise<Order>;
  /** Aborted when the wait ends: pass it to reads and sleeps the wait started. */
  readonly ended = new AbortController();
  /** The last state of the order seen. */
  last: Order | undefined;
  #resolve!: (order: Order) => void;
  #reject!: (error: unknown) => void;
  #cleanups: (() => void)[] = [];
  #done = false;

  constructor(private readonly settings: WaitSettings) {
    this.promise = new Promise<Order>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const { signal, timeout } = settings;
    if (signal?.aborted) {
      this.abort(signal.reason);
      return;
    }
    if (signal) {
      const onAbort = () => this.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.cleanup(() => signal.removeEventListener('abort', onAbort));
    }
    if (timeout !== undefined) {
      const timer = setTimeout(() => this.#timedOut(timeout), Math.min(timeout, MAX_TIMER_MS));
      this.cleanup(() => clearTimeout(timer));
    }
  }

  get done(): boolean {
    return this.#done;
  }

  /** Runs when the wait ends, however it ends. */
  cleanup(fn: () => void): void {
    if (this.#done) fn();
    else this.#cleanups.push(fn);
  }

  resolve(order: Order): void {
    if (this.#finish()) this.#resolve(order);
  }

  reject(error: unknown): void {
    if (this.#finish()) this.#reject(error);
  }

  abort(cause?: unknown): void {
    this.reject(new APIUserAbortError(`The wait for order ${this.settings.orderId} was aborted.`, { cause }));
  }

  #timedOut(timeout: number): void {
    const final = this.settings.onTimeout?.();
    if (final) this.resolve(final);
    else this.reject(new WaitTimeoutError(this.settings.orderId, timeout, this.last));
  }

  #finish(): boolean {
    if (this.#done) return false;
    this.#done = true;
    this.ended.abort();
    for (const fn of this.#cleanups.splice(0)) fn();
    return true;
  }
}
