import { type BackoffPolicy, backoffDelay, sleep } from '../contract/retry-policy.js';
import type { Logger } from '../core/logger.js';
import type { StreamOrder } from './events.js';
import type { FlowControl, Queues } from './flow.js';
import { type ListOrders, lookbackFrom, readChangedOrders, readOpenOrders } from './order-reads.js';
import { OrderTracker } from './order-tracker.js';

// The account channel's REST side. The socket alone cannot promise "every order change once":
// a replay the server no longer holds, or a gap, loses events. So the stream follows which orders
// are open, and after such a loss reads over REST what can have changed, yielding each order
// state the consumer has not had before any later live event.

export interface ReconcilerContext {
  listOrders: ListOrders;
  log: Logger;
  /** Between failed reads: the stream's reconnect schedule. */
  backoff: BackoffPolicy;
  random: () => number;
  /** The stream option `reconcileLookbackMs`. */
  lookbackMs: number;
  flow: FlowControl;
  closed: () => boolean;
  /** Sockets lost so far. */
  reconnects: () => number;
}

export class Reconciler {
  /** What the consumer has had per order; live account events pass through it too. */
  readonly tracker = new OrderTracker();
  /** The open-orders read of a fresh account subscription, while it runs. */
  private seeding: Promise<void> | undefined;
  /** Aborted when the stream closes, to cut a wait between failed reads short. */
  private readonly closing = new AbortController();

  constructor(private readonly ctx: ReconcilerContext) {}

  /**
   * A fresh account subscription: learns which orders are open now, the ones a later resync must
   * re-check besides those the stream sees change. Runs beside the live feed; a resync waits for it.
   */
  learnOpenOrders(): void {
    this.tracker.reset();
    const seeding = this.seed().finally(() => {
      if (this.seeding === seeding) this.seeding = undefined;
    });
    this.seeding = seeding;
  }

  /**
   * Reads over REST what can have changed since the watermark (the last account event's time) and
   * delivers each order whose state the consumer has not had, oldest change first, as
   * `order.updated` with `source: 'rest'` at `seq`. Failed reads are retried until the stream closes.
   */
  async reconcile(to: Queues, watermark: string, lastSeen: number | undefined, seq: number): Promise<void> {
    const { flow, closed } = this.ctx;
    // Synchronous up to the first await: later frames queue behind the reconciliation.
    flow.hold();
    const from = lookbackFrom(watermark, this.ctx.lookbackMs);
    try {
      if (this.seeding) await this.seeding;
      const full = !this.tracker.knowsOpenOrdersAt(lastSeen);
      for (let attempt = 0; !closed(); attempt++) {
        try {
          this.tracker.startResync();
          const plan = { from, knownOpen: this.tracker.openOrders(), full };
          const read = await readChangedOrders(this.ctx.listOrders, plan, closed);
          if (closed()) return;
          for (const orderId of read.missing) this.tracker.gone(orderId);
          const fresh = read.orders.filter((r) => this.tracker.acceptRest(r.order, r.readSeq, from));
          this.tracker.openOrdersKnown(undefined);
          for (const { order } of fresh) {
            await flow.room();
            if (closed()) return;
            flow.deliver(to, {
              type: 'event',
              channel: 'account',
              seq,
              event: 'order.updated',
              data: order as StreamOrder,
              ts: order.updatedAt,
              source: 'rest',
            });
          }
          return;
        } catch (err) {
          this.ctx.log.warn('stream: order reconciliation failed, retrying', {
            error: err instanceof Error ? err.message : String(err),
          });
          const delay = backoffDelay(attempt, this.ctx.backoff, this.ctx.random);
          // Rejects only when the stream closes, which the loop condition then sees.
          await sleep(delay, this.closing.signal).catch(() => undefined);
        }
      }
    } finally {
      flow.release();
    }
  }

  /** The stream closed. */
  stop(): void {
    this.closing.abort();
  }

  /**
   * Tells the tracker which orders are open. Never rejects: after a failure the tracker does not
   * know them, and the next resync reads every order instead.
   */
  private async seed(): Promise<void> {
    const { tracker } = this;
    const { closed, log } = this.ctx;
    const generation = tracker.generation;
    const reconnects = this.ctx.reconnects();
    try {
      const { orderIds, seq } = await readOpenOrders(this.ctx.listOrders, closed);
      if (tracker.generation !== generation) return;
      tracker.seedOpen(orderIds);
      // Without the server's account seq the read cannot be placed in the stream; it is trusted
      // only if the socket it complements did not drop meanwhile.
      if (seq !== undefined || this.ctx.reconnects() === reconnects) tracker.openOrdersKnown(seq);
    } catch (err) {
      log.warn('stream: reading the open orders failed; the next resync reads every order', {
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}
