// The client's memory of idempotency keys whose outcome is unknown. An attempt that may have
// reached the venue (a timeout, a dropped connection, a 5xx) can still land after the call ended,
// even after a later call with the same key was refused: a request held by a proxy or a load
// balancer is processed when it arrives. So a refusal is definite only once every attempt that may
// still arrive cannot any more. Each key is remembered from its last ambiguous attempt until an
// answer about the key settles it (the created object, its replay, 409 137004) or the settle
// window has passed since that attempt ended.

/** A key whose outcome is unknown, as the client remembers it. */
export interface UnknownKey {
  /** The idempotency key. */
  readonly key: string;
  /** The operation of the endpoint table that carried it (`placeOrder`, `createWithdrawal`). */
  readonly operation: string;
  /** The request body sent with it (no credentials). */
  readonly request: unknown;
  /** When the last attempt that may have reached the venue ended (ms since the epoch). */
  readonly lastAttemptAt: number;
  /** When an absence of the key becomes final: `lastAttemptAt` plus the settle window. */
  readonly settlesAt: number;
}

/** Called when a key becomes unknown (`entry`), or is settled by an answer or forgotten (`undefined`). */
export type UnknownKeyListener = (key: string, entry: UnknownKey | undefined) => void;

export interface UnknownKeysOptions {
  /** How long after an ambiguous attempt its key's absence becomes final (the client's `settleWindowMs`). */
  settleWindowMs: number;
  /** Most unsettled keys kept; the oldest is forgotten past it (the client's `maxUnknownKeys`). */
  maxKeys: number;
  /** Wall clock, ms. */
  now: () => number;
  /** Told when an unsettled key is forgotten because the ledger is full. */
  onEvict?: (entry: UnknownKey) => void;
}

/**
 * The ledger of unknown keys, one per client, bounded. A Map keeps insertion order, and a key is
 * re-inserted on every ambiguous attempt, so the entries are (nearly: `remember` inserts another
 * client's deadline) ordered by `settlesAt`: expired ones are dropped from the front, and every
 * read checks its own entry's deadline.
 */
export class UnknownKeys {
  readonly settleWindowMs: number;
  readonly #entries = new Map<string, UnknownKey>();
  readonly #listeners = new Set<UnknownKeyListener>();
  readonly #options: UnknownKeysOptions;

  constructor(options: UnknownKeysOptions) {
    this.#options = options;
    this.settleWindowMs = options.settleWindowMs;
  }

  /** The client's clock, ms since the epoch. */
  now(): number {
    return this.#options.now();
  }

  /**
   * When an attempt that may have reached the venue and ends now stops being able to land: the
   * one place this deadline is computed, for a key remembered here and for a call without a key.
   */
  settlesAt(endedAt: number = this.#options.now()): number {
    return endedAt + this.settleWindowMs;
  }

  /** An attempt carrying `key` ended and may have reached the venue. */
  markAmbiguous(key: string, operation: string, request: unknown): UnknownKey {
    const now = this.#options.now();
    return this.#put({ key, operation, request, lastAttemptAt: now, settlesAt: this.settlesAt(now) });
  }

  /**
   * A key another client (or an earlier process) left unknown until `settlesAt`: this client treats
   * it as unknown until then too, so a refusal it meets before is not taken as definite.
   */
  remember(key: string, operation: string, request: unknown, settlesAt: number): UnknownKey | undefined {
    const known = this.get(key);
    if (known && known.settlesAt >= settlesAt) return known;
    if (settlesAt <= this.#options.now()) return undefined;
    return this.#put({ key, operation, request, lastAttemptAt: settlesAt - this.settleWindowMs, settlesAt });
  }

  #put(entry: UnknownKey): UnknownKey {
    const { key } = entry;
    this.#purge(this.#options.now());
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.#options.maxKeys) {
      const [oldest] = this.#entries.values();
      if (!oldest) break;
      this.#entries.delete(oldest.key);
      this.#options.onEvict?.(oldest);
      this.#emit(oldest.key, undefined);
    }
    this.#emit(key, entry);
    return entry;
  }

  /** An answer about `key` arrived (the object, its replay, 409 137004): its outcome is known. */
  settle(key: string): void {
    if (this.#entries.delete(key)) this.#emit(key, undefined);
  }

  /** The entry of `key` while its outcome is unknown; undefined once settled or past its window. */
  get(key: string): UnknownKey | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.settlesAt <= this.#options.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Every key whose outcome is unknown now, in the order they last became so. */
  list(): UnknownKey[] {
    const now = this.#options.now();
    this.#purge(now);
    return [...this.#entries.values()].filter((entry) => entry.settlesAt > now);
  }

  /** Listens to keys becoming unknown or settled; returns the unsubscribe function. */
  onChange(listener: UnknownKeyListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Drops the entries whose window has passed (their absence is final; nobody needs telling). */
  #purge(now: number): void {
    for (const entry of this.#entries.values()) {
      if (entry.settlesAt > now) break;
      this.#entries.delete(entry.key);
    }
  }

  #emit(key: string, entry: UnknownKey | undefined): void {
    for (const listener of this.#listeners) listener(key, entry);
  }
}
