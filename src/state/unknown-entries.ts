import { NotFoundError } from '../core/error.js';
import type { UnknownKey } from '../core/unknown-keys.js';
import type { UnknownEntry, UnknownEntryState } from './api.js';
import type { PendingChange } from './mirror-view.js';

// The mirror's side of the client's unknown-key ledger (src/core/unknown-keys.ts). The ledger
// forgets a key silently once its window passes; the mirror must instead say what became of it,
// so it keeps its own entry per key and a timer at `settlesAt`, when it decides: an order shows
// up under its key (orderId = idempotency key) or a GET answers 404, and the absence is final.

/** What the entries need of the mirror. */
export interface UnknownContext {
  emit(change: PendingChange): void;
  now(): number;
  hasOrder(key: string): boolean;
  hasWithdrawal(key: string): boolean;
  /** GET /v1/match/orders/{key}, put in view; rejects with NotFoundError on 404. */
  readOrder(key: string): Promise<void>;
  /** Resyncs so far: a resync may have hidden a withdrawal's event. */
  resyncs(): number;
  /** The mirror is ready and following the stream. */
  following(): boolean;
  closed(): boolean;
}

const RETRY_MS = 1_000;

export class UnknownEntries {
  readonly #open = new Map<string, UnknownEntry>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Keys that became unknown while the mirror followed, with the resync count then. */
  readonly #witnessed = new Map<string, number>();

  constructor(private readonly ctx: UnknownContext) {}

  /** Open entries, oldest attempt first. */
  list(): UnknownEntry[] {
    return [...this.#open.values()].sort((a, b) => a.lastAttemptAt - b.lastAttemptAt);
  }

  has(key: string): boolean {
    return this.#open.has(key);
  }

  /** The ledger's listener: a key became unknown (`entry`), or an answer settled it (undefined). */
  onLedger(key: string, entry: UnknownKey | undefined): void {
    if (this.ctx.closed()) return;
    if (entry) this.add(entry);
    else {
      const open = this.#open.get(key);
      if (open) void this.#decide(open);
    }
  }

  /** The ledger says `key` is unknown (again, after a later ambiguous attempt). */
  add(key: UnknownKey): void {
    const entry: UnknownEntry = {
      key: key.key,
      operation: key.operation,
      lastAttemptAt: key.lastAttemptAt,
      settlesAt: key.settlesAt,
      state: 'unknown',
    };
    // Only a key that became unknown while the mirror followed can be shown absent by silence.
    if (this.ctx.following() && !this.#witnessed.has(entry.key))
      this.#witnessed.set(entry.key, this.ctx.resyncs());
    this.#open.set(entry.key, entry);
    this.#arm(entry, Math.max(0, entry.settlesAt - this.ctx.now()));
    this.ctx.emit({ kind: 'unknown', entry });
    const found =
      entry.operation === 'placeOrder' ? this.ctx.hasOrder(entry.key) : this.ctx.hasWithdrawal(entry.key);
    if (found) this.#resolve(entry.key, 'found');
  }

  /** An order (or withdrawal) entered the view: the key that made it is known now. */
  seen(operation: 'placeOrder' | 'createWithdrawal', id: string): void {
    if (this.#open.get(id)?.operation === operation) this.#resolve(id, 'found');
  }

  close(): void {
    for (const key of [...this.#timers.keys()]) this.#clear(key);
    this.#open.clear();
    this.#witnessed.clear();
  }

  /** The key's window passed (or the ledger settled it): says what became of it. */
  async #decide(entry: UnknownEntry): Promise<void> {
    const { key } = entry;
    if (entry.operation === 'placeOrder') {
      if (this.ctx.hasOrder(key)) return this.#resolve(key, 'found');
      try {
        await this.ctx.readOrder(key);
        if (!this.ctx.closed()) this.#resolve(key, 'found');
      } catch (error) {
        if (this.ctx.closed()) return;
        if (error instanceof NotFoundError) this.#resolve(key, 'absent');
        else this.#arm(entry, RETRY_MS);
      }
      return;
    }
    if (this.ctx.hasWithdrawal(key)) return this.#resolve(key, 'found');
    // No GET for withdrawals: silence proves absence only if every account event since the key
    // became unknown was seen (no resync since). Otherwise withdrawals.resolveUnknown settles it.
    const followed =
      entry.operation === 'createWithdrawal' && this.#witnessed.get(key) === this.ctx.resyncs();
    this.#resolve(key, followed ? 'absent' : 'unverified');
  }

  /** The outcome is known: the entry leaves with a last change saying which. */
  #resolve(key: string, state: Exclude<UnknownEntryState, 'unknown'>): void {
    const entry = this.#open.get(key);
    if (!entry) return;
    this.#open.delete(key);
    this.#witnessed.delete(key);
    this.#clear(key);
    this.ctx.emit({ kind: 'unknown', entry: { ...entry, state } });
  }

  #arm(entry: UnknownEntry, ms: number): void {
    this.#clear(entry.key);
    const timer = setTimeout(() => {
      this.#timers.delete(entry.key);
      if (this.#open.get(entry.key) === entry && !this.ctx.closed()) void this.#decide(entry);
    }, ms);
    // A bot's process may end while keys are open: the timer must not keep it alive.
    (timer as { unref?: () => void }).unref?.();
    this.#timers.set(entry.key, timer);
  }

  #clear(key: string): void {
    const timer = this.#timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(key);
  }
}
