import { backoffDelay, STREAM_BACKOFF, sleep } from '../contract/retry-policy.js';
import { APIUserAbortError } from '../core/error.js';
import { inSpan } from '../core/telemetry/index.js';
import type { AccountSummary, Order, Withdrawal } from '../generated/models.js';
import type { AccountEvent, StreamSubscription, VenueStream } from '../stream/index.js';
import { isKnownEvent } from '../stream/index.js';
import type {
  AccountMirror,
  ChangeSource,
  MirrorChange,
  MirrorOptions,
  MirrorOrderFilter,
  MirrorWaitOptions,
  MirrorWithdrawal,
  UnknownEntry,
} from './api.js';
import { DEFAULT_RETENTION_MS, DEFAULT_SETTLEMENT_HOLD_MS } from './api.js';
import { ChangeFeed } from './change-feed.js';
import { LoopWake, WAKE } from './loop-wake.js';
import type { MirrorHost, MirrorStart } from './mirror-host.js';
import { MirrorView, type PendingChange } from './mirror-view.js';
import { waitForOrder } from './mirror-wait.js';
import { observeOrder } from './observe-order.js';
import { RetentionTimer } from './retention-timer.js';
import { SettlementHold, summaryNeed } from './settlement-hold.js';
import { UnknownEntries } from './unknown-entries.js';

// The account mirror. One loop reads the mirror's own account iterator in order and applies each
// event; REST reads happen inside that loop (the first load, and a summary re-read after every
// reconnect or resync), while the iterator holds later events, so a read and the events around it
// are applied in the order they happened. Orders after a resync come from the stream's own REST
// reconciliation (order.updated with source 'rest'); the mirror does not read them again.

/**
 * The mirror's implementation, loaded on first use; users hold the MirrorHandle that starts it
 * (mirror-handle.ts), which checks the options and opens the stream when `mirror()` is called.
 */
export class Mirror implements AccountMirror {
  readonly ready: Promise<void>;
  readonly #host: MirrorHost;
  readonly #view: MirrorView;
  readonly #feed: ChangeFeed;
  readonly #unknown: UnknownEntries;
  readonly #hold: SettlementHold;
  readonly #retention: RetentionTimer;
  readonly #stream: VenueStream;
  readonly #ownsStream: boolean;
  readonly #sub: StreamSubscription<AccountEvent>;
  readonly #closing = new AbortController();
  readonly #offs: (() => void)[] = [];
  /** Per order, the account seq of the first load's read: events up to it are in that read. */
  readonly #readSeq = new Map<string, number>();
  #markReady!: () => void;
  #failReady!: (error: unknown) => void;
  #isReady = false;
  #closed = false;
  #closeDone: Promise<void> | undefined;
  readonly #wake = new LoopWake();
  #resyncs = 0;

  readonly #ended: () => void;

  constructor(host: MirrorHost, options: MirrorOptions, start: MirrorStart) {
    this.#host = host;
    this.#ended = start.ended;
    this.#view = new MirrorView(options.retentionMs ?? DEFAULT_RETENTION_MS, Date.now);
    this.#feed = new ChangeFeed(options.changesBufferSize ?? 10_000);
    this.#retention = new RetentionTimer(this.#view, (change) => this.#publish(change));
    this.#hold = new SettlementHold(options.settlementHoldMs ?? DEFAULT_SETTLEMENT_HOLD_MS, () =>
      this.#wake.askRead(),
    );
    this.#unknown = new UnknownEntries({
      emit: (change) => this.#publish(change),
      now: Date.now,
      hasOrder: (key) => this.#view.order(key) !== undefined,
      hasWithdrawal: (key) => this.#view.withdrawal(key) !== undefined,
      readOrder: (key) => this.#readIntoView(key, this.#closing.signal),
      resyncs: () => this.#resyncs,
      following: () => this.#isReady,
      closed: () => this.#closed,
    });
    this.#ownsStream = start.ownsStream;
    this.#stream = start.stream;
    this.#sub = this.#stream.account();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#markReady = resolve;
      this.#failReady = reject;
    });
    // Awaiting `ready` is the caller's choice; a failure is also seen by changes() and waitFor.
    this.ready.catch(() => undefined);
    let wasDown = false;
    this.#offs.push(
      this.#stream.on('state', ({ state }) => {
        if (state === 'reconnecting') wasDown = true;
        else if (state === 'open' && wasDown) {
          wasDown = false;
          this.#wake.askRead();
        }
      }),
      host.state.onWithdrawalCreated((w) => this.#publishWithdrawal(w, 'create')),
      host.unknownKeys.onChange((key, entry) => this.#unknown.onLedger(key, entry)),
    );
    this.#run().catch((error: unknown) => this.#shutdown(error));
  }

  get summary(): AccountSummary | undefined {
    return this.#view.summary;
  }

  order(orderId: string): Order | undefined {
    return this.#view.order(orderId);
  }

  orders(filter?: MirrorOrderFilter): Order[] {
    // The filter was checked by the handle (mirror-handle.ts), which alone calls this.
    return this.#view.orders(filter);
  }

  withdrawals(): MirrorWithdrawal[] {
    return this.#view.withdrawals();
  }

  withdrawal(id: string): MirrorWithdrawal | undefined {
    return this.#view.withdrawal(id);
  }

  unknown(): UnknownEntry[] {
    return this.#unknown.list();
  }

  changes(): AsyncIterableIterator<MirrorChange> {
    return this.#feed.iterator();
  }

  waitFor(
    orderId: string,
    predicate: (order: Order) => boolean,
    options?: MirrorWaitOptions,
  ): Promise<Order> {
    const host = {
      ready: this.ready,
      order: (id: string) => this.#view.order(id),
      listen: (listener: (change: MirrorChange) => void) => this.#feed.listen(listener),
      readIntoView: (id: string, signal: AbortSignal) => this.#readIntoView(id, signal),
      closing: this.#closing.signal,
    };
    return waitForOrder(host, orderId, predicate, options);
  }

  /** @internal An order read over REST by `orders.waitForOutcome` (observe-order.ts). */
  [observeOrder](order: Order): void {
    if (!this.#closed) this.#publishOrder(order, 'rest');
  }

  /**
   * Withdrawals this client created between `mirror()` and the mirror's start (while its code
   * loaded), which the handle kept: published as the mirror would have on seeing them.
   */
  createdBefore(withdrawals: readonly Withdrawal[]): void {
    for (const withdrawal of withdrawals) this.#publishWithdrawal(withdrawal, 'create');
  }

  close(): Promise<void> {
    this.#closeDone ??= this.#shutdown(undefined, true);
    return this.#closeDone;
  }

  async #run(): Promise<void> {
    if (!(await this.#sub.ready)) {
      // The stream closed (or failed) before subscribing: next() hands out its error, if any.
      await this.#sub.next();
      throw new APIUserAbortError('The stream closed before the mirror was ready.');
    }
    await inSpan('mirror.load', {}, () => this.#firstLoad());
    for (const key of this.#host.unknownKeys.list()) if (!this.#unknown.has(key.key)) this.#unknown.add(key);
    // Events that arrived during the reads, so that `ready` means "consistent as of now".
    while (this.#sub.buffered > 0 && !this.#closed) {
      const r = await this.#sub.next();
      if (r.done) break;
      await this.#apply(r.value);
    }
    this.#isReady = true;
    this.#markReady();
    await this.#consume();
  }

  /** The open orders (with the account seq of their page) and the summary. */
  async #firstLoad(): Promise<void> {
    const read = new Map<string, { order: Order; seq: number | undefined }>();
    for (const status of ['pending', 'settling']) {
      for await (const page of this.#host.listOrders({ status })) {
        for (const order of page.orders)
          read.set(order.orderId, { order: order as Order, seq: page.accountSeq });
      }
    }
    const summary = await this.#host.retrieveAccount(this.#closing.signal);
    for (const { order, seq } of read.values()) {
      if (seq !== undefined) this.#readSeq.set(order.orderId, seq);
      this.#publishOrder(order, 'rest');
    }
    this.#publish(this.#view.applySummary(summary, 'rest'));
  }

  async #consume(): Promise<void> {
    let pending = this.#next();
    while (!this.#closed) {
      const r = await Promise.race([pending, this.#wake.woken]);
      if (this.#closed) return;
      if (r === WAKE) {
        if (this.#wake.rearm()) await inSpan('mirror.reread', {}, () => this.#reread());
        continue;
      }
      if (r.done) return void this.#shutdown(undefined);
      pending = this.#next();
      await this.#apply(r.value);
      await this.#feed.room();
    }
  }

  #next(): Promise<IteratorResult<AccountEvent>> {
    const next = this.#sub.next();
    // Observed by the race later; until then a rejection must not count as unhandled.
    next.catch(() => undefined);
    return next;
  }

  async #apply(ev: AccountEvent): Promise<void> {
    if (!isKnownEvent(ev)) return;
    switch (ev.event) {
      case 'order.accepted':
      case 'order.updated': {
        const order = ev.data as unknown as Order;
        const fromRest = 'source' in ev && ev.source === 'rest';
        const readSeq = this.#readSeq.get(order.orderId);
        if (!fromRest && readSeq !== undefined && ev.seq <= readSeq) return;
        this.#publishOrder(order, fromRest ? 'rest' : 'stream');
        return;
      }
      case 'balance.updated':
        this.#publish(this.#view.applySummary(ev.data as unknown as AccountSummary, 'stream'));
        this.#hold.afterEvent();
        return;
      case 'withdrawal.updated':
        this.#publishWithdrawal(ev.data as Withdrawal, 'stream');
        return;
      case 'stream.resync':
        // Events were lost: the orders among them follow from the stream's REST reconciliation;
        // the summary is read again; withdrawals cannot be (no GET), so open ones turn stale.
        this.#resyncs += 1;
        this.#readSeq.clear();
        for (const change of this.#view.markWithdrawalsStale()) this.#publish(change);
        await this.#reread();
        return;
      default:
        return;
    }
  }

  /** GET /v1/match/account until it answers (or the mirror closes), retried on the stream's schedule. */
  async #reread(): Promise<void> {
    const asked = this.#wake.asked;
    for (let attempt = 0; !this.#closed; attempt++) {
      try {
        const mark = this.#hold.mark();
        const summary = await this.#host.retrieveAccount(this.#closing.signal);
        if (this.#closed) return;
        this.#publish(this.#view.applySummary(summary, 'rest'));
        this.#hold.afterRead(mark);
        this.#wake.answered(asked);
        return;
      } catch (error) {
        if (this.#closed) return;
        this.#hold.releaseAll();
        this.#host.logger.warn('account mirror: reading the account summary failed, retrying', {
          error: error instanceof Error ? error.message : String(error),
        });
        await sleep(backoffDelay(attempt, STREAM_BACKOFF, Math.random), this.#closing.signal).catch(
          () => undefined,
        );
      }
    }
  }

  #publish(change: PendingChange | undefined): void {
    this.#feed.emit(change);
  }

  /** Applies an order state, or holds it until the summary covers it; `shown` runs once applied. */
  #publishOrder(order: Order, source: ChangeSource, shown?: () => void): void {
    this.#hold.add(summaryNeed(order, this.#view.order(order.orderId), source === 'rest'), () => {
      this.#publish(this.#view.applyOrder(order, source));
      this.#unknown.seen('placeOrder', order.orderId);
      this.#retention.arm();
      shown?.();
    });
  }

  #publishWithdrawal(withdrawal: Withdrawal, source: ChangeSource): void {
    if (this.#closed) return;
    this.#hold.add('none', () => {
      this.#publish(this.#view.applyWithdrawal(withdrawal, source));
      this.#unknown.seen('createWithdrawal', withdrawal.id);
      this.#retention.arm();
    });
  }

  /**
   * An order the view does not hold, read over REST (for a wait, or an unknown key): it enters the
   * view like any other change, a final one after the summary that covers it, and the promise
   * resolves once the view shows it, so what the caller then says agrees with the view.
   */
  async #readIntoView(orderId: string, signal: AbortSignal): Promise<void> {
    const order = await this.#host.retrieveOrder(orderId, signal);
    if (this.#closed) return;
    await new Promise<void>((shown) => this.#publishOrder(order, 'rest', shown));
  }

  /** Ends the mirror: its iterators (with `error`, if any), its waits, its timers and its stream. */
  async #shutdown(error: unknown, byCaller = false): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort();
    for (const off of this.#offs.splice(0)) off();
    this.#ended();
    this.#unknown.close();
    this.#hold.close();
    this.#retention.close();
    if (!this.#isReady)
      this.#failReady(
        error ??
          new APIUserAbortError(
            byCaller
              ? 'The mirror was closed before it was ready.'
              : 'The stream closed before the mirror was ready.',
          ),
      );
    this.#feed.end(error);
    this.#wake.wake();
    await this.#sub.return?.();
    if (this.#ownsStream) await this.#stream.close();
  }
}
