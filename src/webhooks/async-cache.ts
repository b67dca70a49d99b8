/**
 * A keyed cache of asynchronous loads: concurrent requests for one key share one load (in-flight
 * de-duplication), a successful result is kept, and a failure is forgotten so the next request
 * retries. Past `maxEntries` the oldest entry is dropped.
 */
export class AsyncCache<V> {
  readonly #entries = new Map<string, Promise<V>>();
  readonly #load: (key: string) => Promise<V>;
  readonly #maxEntries: number;

  constructor(load: (key: string) => Promise<V>, maxEntries = Number.POSITIVE_INFINITY) {
    this.#load = load;
    this.#maxEntries = maxEntries;
  }

  get(key: string): Promise<V> {
    const cached = this.#entries.get(key);
    if (cached) return cached;
    const pending = this.#load(key);
    this.#entries.set(key, pending);
    pending.catch(() => {
      if (this.#entries.get(key) === pending) this.#entries.delete(key);
    });
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }
}
