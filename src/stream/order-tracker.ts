import { canonicalInstant, compareInstants } from './instant.js';

/** The minimum of an Order the reconciliation reads; REST's Order has it (and the rest). */
export interface ReconcilableOrder {
  orderId: string;
  status: string;
  updatedAt: string;
}

type Loose = Record<string, unknown> | null | undefined;

/** An account event's data that is an Order (order.accepted, order.updated). */
export function isOrderLike(data: unknown): data is ReconcilableOrder {
  if (typeof data !== 'object' || data === null) return false;
  const o = data as Record<string, unknown>;
  return typeof o.orderId === 'string' && typeof o.updatedAt === 'string' && typeof o.status === 'string';
}

const OPEN = new Set(['pending', 'settling']);

/** Orders change only while pending or settling; every other status is final. */
export function isOpenStatus(status: string): boolean {
  return OPEN.has(status);
}

function field(o: Loose, key: string): unknown {
  return o && typeof o === 'object' ? o[key] : undefined;
}

function money(m: unknown): string {
  return `${field(m as Loose, 'amount') ?? ''} ${field(m as Loose, 'currency') ?? ''}`;
}

function instant(v: unknown): string {
  return typeof v === 'string' ? canonicalInstant(v) : String(v ?? '');
}

/**
 * Every state-bearing field of the spec's Order, in a fixed order. The venue's `updatedAt` has
 * millisecond resolution and several changes share one (every change of an instant on a manual
 * clock), so a change is told apart by its content, not by its timestamp. Fields outside the spec
 * are left out: REST and the socket may each add their own without meaning a new state.
 */
export function orderFingerprint(order: ReconcilableOrder): string {
  const o = order as unknown as Record<string, unknown>;
  const lineage = o.lineage as Loose;
  const fill = o.fill as Loose;
  return JSON.stringify([
    o.orderId,
    o.status,
    o.auctionId ?? null,
    o.orderType ?? null,
    money(o.amount),
    o.feeBps ?? null,
    o.postFillAction ?? null,
    field(lineage, 'parentOrderId') ?? null,
    field(lineage, 'childOrderId') ?? null,
    fill
      ? [
          money(fill.filledAmount),
          money(fill.unfilledAmount),
          fill.clearingFeeBps ?? null,
          instant(fill.matchedAt),
        ]
      : null,
    o.sourceWalletId ?? null,
    o.fiatAccountId ?? null,
    instant(o.createdAt),
    instant(o.updatedAt),
  ]);
}

interface Delivered {
  fingerprint: string;
  updatedAt: string;
  /** Synthesized from a REST read: a live event may restate it. */
  fromRest: boolean;
}

/**
 * What the consumer has been given per order, so that every distinct order state reaches it
 * exactly once across live events and REST resyncs, and never an older one after a newer one.
 *
 * Also keeps the ids of the orders last known open (pending or settling): only those, and orders
 * created since, can change while the stream is away, so a resync reads just them. That set is not
 * bounded by `capacity` (the venue bounds open orders); the delivered states are (LRU).
 */
export class OrderTracker {
  private readonly last = new Map<string, Delivered>();
  private readonly open = new Set<string>();
  /**
   * Per order, the account seq of the REST read that returned it (`x-account-seq`): every live
   * event of that order up to it is already reflected in what the read returned.
   */
  private readonly readSeq = new Map<string, number>();
  /**
   * Whether `open` holds every order open at a stream position: undefined while unknown (no
   * snapshot yet, or it failed); `{ seq }` once a snapshot read at account seq `seq` (undefined
   * when the server did not say) is applied.
   */
  private openKnown: { seq: number | undefined } | undefined;
  /** Bumped by reset(), so a snapshot read for an earlier subscription is not applied. */
  generation = 0;

  constructor(private readonly capacity = 10_000) {}

  /** Forgets everything: a new subscription starts from "now". */
  reset(): void {
    this.last.clear();
    this.open.clear();
    this.readSeq.clear();
    this.openKnown = undefined;
    this.generation += 1;
  }

  /**
   * True when the open set covers every order open when the stream saw account seq `lastSeq`:
   * a snapshot read after that position (events between them never arrived) does not.
   */
  knowsOpenOrdersAt(lastSeq: number | undefined): boolean {
    const known = this.openKnown;
    if (!known) return false;
    return known.seq === undefined || (lastSeq !== undefined && known.seq <= lastSeq);
  }

  /** The open set is complete as of a snapshot at `seq` (or as of now, after a resync). */
  openOrdersKnown(seq: number | undefined): void {
    this.openKnown = { seq };
  }

  /** Ids of the orders last known open. */
  openOrders(): string[] {
    return [...this.open];
  }

  /** Orders an open-orders snapshot listed; ones already followed keep what their events said. */
  seedOpen(orderIds: Iterable<string>): void {
    for (const id of orderIds) if (!this.last.has(id)) this.open.add(id);
  }

  /** A resync starts: read seqs of an earlier one may belong to a sequence the server restarted. */
  startResync(): void {
    this.readSeq.clear();
  }

  /**
   * A live socket event (the socket's own seq already dropped its duplicates). Dropped when a
   * REST read already reflected it (`seq` up to that read's account seq), or when it restates
   * or predates the state a resync delivered.
   */
  acceptLive(order: ReconcilableOrder, seq: number): boolean {
    const read = this.readSeq.get(order.orderId);
    if (read !== undefined && seq <= read) return false;
    const fingerprint = orderFingerprint(order);
    const prev = this.last.get(order.orderId);
    if (prev?.fromRest && (prev.fingerprint === fingerprint || isBefore(order.updatedAt, prev.updatedAt)))
      return false;
    this.record(order, { fingerprint, updatedAt: order.updatedAt, fromRest: false });
    return true;
  }

  /**
   * An order read over REST during a resync (with the read's account seq when the server sent one).
   * Delivered when its state differs from the last one delivered and is not older than it; an
   * order never delivered only when it changed at or after `since` (the resync watermark), as
   * an earlier change came before the last event the stream saw.
   */
  acceptRest(order: ReconcilableOrder, readSeq: number | undefined, since: string): boolean {
    if (readSeq !== undefined) this.readSeq.set(order.orderId, readSeq);
    const fingerprint = orderFingerprint(order);
    const prev = this.last.get(order.orderId);
    const fresh = prev
      ? prev.fingerprint !== fingerprint && !isBefore(order.updatedAt, prev.updatedAt)
      : !isBefore(order.updatedAt, since);
    if (fresh) this.record(order, { fingerprint, updatedAt: order.updatedAt, fromRest: true });
    else if (!prev) this.follow(order);
    return fresh;
  }

  /** An order the resync looked for by id and the venue no longer has (a reset simulator). */
  gone(orderId: string): void {
    this.open.delete(orderId);
  }

  private follow(order: ReconcilableOrder): void {
    if (isOpenStatus(order.status)) this.open.add(order.orderId);
    else this.open.delete(order.orderId);
  }

  private record(order: ReconcilableOrder, seen: Delivered): void {
    this.follow(order);
    this.last.delete(order.orderId);
    this.last.set(order.orderId, seen);
    if (this.last.size > this.capacity) {
      const oldest = this.last.keys().next().value;
      if (oldest !== undefined) this.last.delete(oldest);
    }
  }
}

/** Strictly earlier; an unreadable timestamp never counts as older. */
function isBefore(a: string, b: string): boolean {
  return (compareInstants(a, b) ?? 0) < 0;
}
