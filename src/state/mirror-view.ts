import type { AccountSummary, Order, Withdrawal } from '../generated/models.js';
import { compareInstants } from '../stream/instant.js';
import { isOpenStatus, orderFingerprint } from '../stream/order-tracker.js';
import type { ChangeSource, MirrorChange, MirrorOrderFilter, MirrorWithdrawal } from './api.js';

// The mirror's data and the rules for changing it. Every method that changes the view returns the
// change to publish (or nothing when the input restates what the view holds), so the caller
// decides when it is published, in order with the rest.

/** A change before the feed numbers it. */
export type Unnumbered<C> = C extends MirrorChange ? Omit<C, 'seq'> : never;
export type PendingChange = Unnumbered<MirrorChange>;

/** Statuses a withdrawal does not leave. The spec does not list them; the simulator ends at `completed`. */
const FINAL_WITHDRAWAL = new Set(['completed', 'complete', 'failed', 'cancelled', 'canceled', 'returned']);

interface Held<T> {
  value: T;
  /** When the mirror saw it become final (its clock); undefined while open. */
  finalAt: number | undefined;
}

/** Strictly earlier; an unreadable timestamp never counts as older. */
function isBefore(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return (compareInstants(a, b) ?? 0) < 0;
}

/** Where a status lies along the one way an order goes: pending, settling, final. */
function stage(status: string): number {
  return status === 'pending' ? 0 : status === 'settling' ? 1 : 2;
}

export class MirrorView {
  readonly #orders = new Map<string, Held<Order>>();
  readonly #withdrawals = new Map<string, Held<MirrorWithdrawal>>();
  /** Final entries by the time they became final (insertion order = that order): what retention drops first. */
  readonly #finalOrders = new Map<string, number>();
  readonly #finalWithdrawals = new Map<string, number>();
  #summary: AccountSummary | undefined;

  constructor(
    private readonly retentionMs: number,
    private readonly now: () => number,
  ) {}

  get summary(): AccountSummary | undefined {
    return this.#summary;
  }

  order(orderId: string): Order | undefined {
    return this.#orders.get(orderId)?.value;
  }

  orders(filter: MirrorOrderFilter = {}): Order[] {
    const statuses = filter.status === undefined ? undefined : new Set<string>([filter.status].flat());
    const out: Order[] = [];
    for (const { value: o } of this.#orders.values()) {
      if (statuses && !statuses.has(o.status)) continue;
      if (filter.orderType !== undefined && o.orderType !== filter.orderType) continue;
      if (filter.auctionId !== undefined && o.auctionId !== filter.auctionId) continue;
      if (filter.open !== undefined && isOpenStatus(o.status) !== filter.open) continue;
      out.push(o);
    }
    return out.sort(
      (a, b) => (compareInstants(a.createdAt, b.createdAt) ?? 0) || a.orderId.localeCompare(b.orderId),
    );
  }

  withdrawal(id: string): MirrorWithdrawal | undefined {
    return this.#withdrawals.get(id)?.value;
  }

  withdrawals(): MirrorWithdrawal[] {
    return [...this.#withdrawals.values()].map((h) => h.value);
  }

  /**
   * An order state from the stream or a REST read. Nothing changes when it restates the held state
   * (same content: the venue's timestamps have ms resolution, so content tells states apart) or is
   * older than it.
   */
  applyOrder(order: Order, source: ChangeSource): PendingChange | undefined {
    const held = this.#orders.get(order.orderId);
    const previous = held?.value;
    if (previous) {
      if (orderFingerprint(previous) === orderFingerprint(order)) return undefined;
      if (isBefore(order.updatedAt, previous.updatedAt)) return undefined;
      // Timestamps have ms resolution and a clear and its settlement can share one: an order never
      // goes back along pending -> settling -> final, so a state behind the held one is older.
      if (stage(order.status) < stage(previous.status)) return undefined;
    }
    this.#orders.set(order.orderId, {
      value: order,
      finalAt: this.#finalAt(held, isOpenStatus(order.status)),
    });
    this.#track(this.#finalOrders, order.orderId, !isOpenStatus(order.status));
    return { kind: 'order', order, previous, source };
  }

  /** A summary read or event; nothing changes when it equals the held one. */
  applySummary(summary: AccountSummary, source: ChangeSource): PendingChange | undefined {
    const previous = this.#summary;
    if (previous && JSON.stringify(previous) === JSON.stringify(summary)) return undefined;
    this.#summary = summary;
    return { kind: 'summary', summary, previous, source };
  }

  /**
   * A withdrawal from an event (`stream`) or from this client's create call (`create`). A create
   * answer is the venue's frozen creation body (a keyed re-send answers it again, even after the
   * payout moved on), so it only adds a withdrawal the view does not hold yet.
   */
  applyWithdrawal(withdrawal: Withdrawal, source: ChangeSource): PendingChange | undefined {
    const held = this.#withdrawals.get(withdrawal.id);
    const previous = held?.value;
    if (previous && source === 'create') return undefined;
    if (previous && !previous.stale) {
      if (JSON.stringify(previous.withdrawal) === JSON.stringify(withdrawal)) return undefined;
      if (isBefore(withdrawal.updatedAt, previous.withdrawal.updatedAt)) return undefined;
    }
    const value: MirrorWithdrawal = { withdrawal, stale: false };
    const open = !FINAL_WITHDRAWAL.has(withdrawal.status);
    this.#withdrawals.set(withdrawal.id, { value, finalAt: this.#finalAt(held, open) });
    this.#track(this.#finalWithdrawals, withdrawal.id, !open);
    return { kind: 'withdrawal', withdrawal: value, previous, source };
  }

  /** After a resync: each open withdrawal may have moved on unseen. */
  markWithdrawalsStale(): PendingChange[] {
    const out: PendingChange[] = [];
    for (const [id, held] of this.#withdrawals) {
      if (held.finalAt !== undefined || held.value.stale) continue;
      const value = { withdrawal: held.value.withdrawal, stale: true };
      this.#withdrawals.set(id, { value, finalAt: undefined });
      out.push({ kind: 'withdrawal', withdrawal: value, previous: held.value, source: 'rest' });
    }
    return out;
  }

  /** Drops final entries whose retention window has passed; returns the removals to publish. */
  sweep(): PendingChange[] {
    const limit = this.now() - this.retentionMs;
    const out: PendingChange[] = [];
    for (const [id, at] of this.#finalOrders) {
      if (at > limit) break;
      this.#finalOrders.delete(id);
      const held = this.#orders.get(id);
      this.#orders.delete(id);
      if (held) out.push({ kind: 'order.removed', order: held.value });
    }
    for (const [id, at] of this.#finalWithdrawals) {
      if (at > limit) break;
      this.#finalWithdrawals.delete(id);
      const held = this.#withdrawals.get(id);
      this.#withdrawals.delete(id);
      if (held) out.push({ kind: 'withdrawal.removed', withdrawal: held.value });
    }
    return out;
  }

  /** When the next entry leaves (the mirror's clock), or undefined when none is final. */
  nextExpiry(): number | undefined {
    const [order] = this.#finalOrders.values();
    const [withdrawal] = this.#finalWithdrawals.values();
    const first = Math.min(order ?? Infinity, withdrawal ?? Infinity);
    return Number.isFinite(first) ? first + this.retentionMs : undefined;
  }

  /** A final entry keeps the time it first became final; an open one has none. */
  #finalAt(held: Held<unknown> | undefined, open: boolean): number | undefined {
    if (open) return undefined;
    return held?.finalAt ?? this.now();
  }

  #track(finals: Map<string, number>, id: string, final: boolean): void {
    if (!final) finals.delete(id);
    else if (!finals.has(id)) finals.set(id, this.now());
  }
}
