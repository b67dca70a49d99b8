import { compareInstants } from './instant.js';
import type { ReconcilableOrder } from './order-tracker.js';

// The REST reads a resync is made of (GET /v1/match/orders, every page), and what they found.
// Deciding what of it the consumer has not had yet is the reconciler's (reconcile.ts).

/** Filters of GET /v1/match/orders the stream uses (the spec's; `from` bounds `createdAt`). */
export interface OrderQuery {
  status?: string;
  from?: string;
  orderId?: string;
}

/** One page of GET /v1/match/orders. */
export interface OrderPage {
  orders: ReconcilableOrder[];
  /**
   * The `x-account-seq` response header, when the server sends it (the simulator does): the
   * caller's account-channel seq at the moment of the read. Every account event up to it is
   * reflected in the page, which lets the stream drop exactly those live events.
   */
  accountSeq?: number;
}

export type ListOrders = (query: OrderQuery) => AsyncIterable<OrderPage>;

/** The resync's `from` (ms precision, rounded down, so never later than the watermark). */
export function lookbackFrom(watermark: string, lookbackMs: number): string {
  const t = Date.parse(watermark) - lookbackMs;
  return new Date(Number.isFinite(t) ? t : 0).toISOString();
}

export interface ReadOrder {
  order: ReconcilableOrder;
  /** The account seq of the page it came from, when known. */
  readSeq: number | undefined;
}

export interface ChangedOrders {
  /** Each order once (its latest read), oldest change first. */
  orders: ReadOrder[];
  /** Orders looked up by id that the venue does not have. */
  missing: string[];
  requests: number;
}

class Reader {
  readonly found = new Map<string, ReadOrder>();
  requests = 0;
  /** Highest account seq seen; undefined once a page came without one. */
  seq: number | undefined = undefined;
  private headerless = false;

  constructor(
    private readonly list: ListOrders,
    private readonly closed: () => boolean,
  ) {}

  async read(query: OrderQuery): Promise<void> {
    for await (const page of this.list(query)) {
      this.requests += 1;
      if (this.closed()) return;
      const readSeq = page.accountSeq;
      if (readSeq === undefined) this.headerless = true;
      else this.seq = Math.max(this.seq ?? readSeq, readSeq);
      // Reads run one after another, so a later one holds the later state of an order.
      for (const order of page.orders) this.found.set(order.orderId, { order, readSeq });
    }
  }

  /**
   * The highest account seq among the pages, if every page had one: what was read is exact for
   * any stream position at or after it.
   */
  get snapshotSeq(): number | undefined {
    return this.headerless ? undefined : this.seq;
  }
}

/**
 * The orders open now (pending, settling): the set a later resync must re-check, as they are the
 * only existing orders that can still change.
 */
export async function readOpenOrders(
  list: ListOrders,
  closed: () => boolean,
): Promise<{ orderIds: string[]; seq: number | undefined; requests: number }> {
  const reader = new Reader(list, closed);
  await reader.read({ status: 'pending' });
  await reader.read({ status: 'settling' });
  return { orderIds: [...reader.found.keys()], seq: reader.snapshotSeq, requests: reader.requests };
}

/**
 * Everything that can have changed since the resync watermark. Orders change only while pending or
 * settling, so that is: orders pending or settling now, orders created since `from`, and each order
 * last known open that neither read returned (it became final while the stream was away). With
 * `full`, when the open orders are not known, it is every order.
 */
export async function readChangedOrders(
  list: ListOrders,
  plan: { from: string; knownOpen: readonly string[]; full: boolean },
  closed: () => boolean,
): Promise<ChangedOrders> {
  const reader = new Reader(list, closed);
  const missing: string[] = [];
  if (plan.full) await reader.read({});
  else {
    await reader.read({ status: 'pending' });
    await reader.read({ status: 'settling' });
    await reader.read({ from: plan.from });
    for (const orderId of plan.knownOpen) {
      if (closed()) break;
      if (reader.found.has(orderId)) continue;
      await reader.read({ orderId });
      if (!reader.found.has(orderId)) missing.push(orderId);
    }
  }
  const orders = [...reader.found.values()];
  // Array sort is stable: changes of one instant keep the order the reads gave them.
  orders.sort((a, b) => compareInstants(a.order.updatedAt, b.order.updatedAt) ?? 0);
  return { orders, missing, requests: reader.requests };
}
