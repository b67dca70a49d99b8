import type { AccountSummary, Order, Withdrawal } from '../generated/models.js';
import type { Mirror } from './account-mirror.js';
import type {
  AccountMirror,
  MirrorChange,
  MirrorOptions,
  MirrorOrderFilter,
  MirrorWaitOptions,
  MirrorWithdrawal,
  UnknownEntry,
} from './api.js';
import { loadMirror } from './load.js';
import { checkMirrorOptions, checkOrderFilter, type MirrorHost } from './mirror-host.js';
import { observeOrder } from './observe-order.js';

// What `account.mirror()` returns, at once: the mirror's code (account-mirror.ts and the view, feed
// and waits it alone uses) loads on first use, and this handle starts it. What `mirror()` did
// synchronously it still does here: the options are checked, the stream opened (so a client
// without a WebSocket URL throws now, and the socket connects while the code loads), the mirror
// listed for the client's waits, and the withdrawals this client creates meanwhile kept for it.
// Until the mirror exists its view is empty, as a mirror's is before its first reads; every
// awaited call (`ready`, `changes()`, `waitFor`, `close`) waits for it, and a failed load rejects
// them with ConfigurationError.

type Attach = (mirror: Mirror | undefined) => void;

export class MirrorHandle implements AccountMirror {
  readonly ready: Promise<void>;
  readonly #started: Promise<Mirror>;
  #mirror: Mirror | undefined;
  /** `changes()` iterators asked for before the mirror existed, attached as it starts. */
  #waiting: Attach[] = [];
  /** The mirror's code failed to load: it will never start. */
  #failed = false;

  constructor(host: MirrorHost, options: MirrorOptions = {}) {
    checkMirrorOptions(options);
    const ownsStream = options.stream === undefined;
    const stream = options.stream ?? host.connect(options.streamOptions);
    const created: Withdrawal[] = [];
    const offCreated = host.state.onWithdrawalCreated((withdrawal) => created.push(withdrawal));
    host.state.addMirror(this);
    const ended = () => host.state.removeMirror(this);
    this.#started = loadMirror().then(
      ({ Mirror }) => {
        offCreated();
        const mirror = new Mirror(host, options, { stream, ownsStream, ended });
        this.#mirror = mirror;
        for (const attach of this.#waiting.splice(0)) attach(mirror);
        mirror.createdBefore(created);
        return mirror;
      },
      async (error: unknown) => {
        this.#failed = true;
        offCreated();
        ended();
        for (const attach of this.#waiting.splice(0)) attach(undefined);
        if (ownsStream) await stream.close();
        throw error;
      },
    );
    this.ready = this.#started.then((mirror) => mirror.ready);
    // Awaiting `ready` is the caller's choice, as with the mirror's own.
    this.ready.catch(() => undefined);
  }

  get summary(): AccountSummary | undefined {
    return this.#mirror?.summary;
  }

  order(orderId: string): Order | undefined {
    return this.#mirror?.order(orderId);
  }

  orders(filter?: MirrorOrderFilter): Order[] {
    checkOrderFilter(filter);
    return this.#mirror?.orders(filter) ?? [];
  }

  withdrawals(): MirrorWithdrawal[] {
    return this.#mirror?.withdrawals() ?? [];
  }

  withdrawal(id: string): MirrorWithdrawal | undefined {
    return this.#mirror?.withdrawal(id);
  }

  unknown(): UnknownEntry[] {
    return this.#mirror?.unknown() ?? [];
  }

  changes(): AsyncIterableIterator<MirrorChange> {
    if (this.#mirror) return this.#mirror.changes();
    // The mirror has published nothing yet: an iterator of it made as it starts misses nothing.
    let inner: AsyncIterableIterator<MirrorChange> | undefined;
    let left = false;
    const attached = new Promise<AsyncIterableIterator<MirrorChange> | undefined>((resolve) => {
      const attach: Attach = (mirror) => {
        if (mirror && !left) inner = mirror.changes();
        resolve(inner);
      };
      if (this.#failed) attach(undefined);
      else this.#waiting.push(attach);
    });
    const done: IteratorReturnResult<undefined> = { done: true, value: undefined };
    const iterator: AsyncIterableIterator<MirrorChange> = {
      next: async () => {
        const it = await attached;
        if (it) return it.next();
        // Left before the start, or the load failed (its error is thrown here).
        await this.#started;
        return done;
      },
      return: async () => {
        left = true;
        await inner?.return?.();
        return done;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  waitFor(
    orderId: string,
    predicate: (order: Order) => boolean,
    options?: MirrorWaitOptions,
  ): Promise<Order> {
    return this.#started.then((mirror) => mirror.waitFor(orderId, predicate, options));
  }

  /** @internal An order `orders.waitForOutcome` read over REST: for the mirror, once it runs. */
  [observeOrder](order: Order): void {
    this.#started.then((mirror) => mirror[observeOrder](order)).catch(() => undefined);
  }

  close(): Promise<void> {
    // A mirror whose code failed to load has nothing left open (its stream was closed then).
    return this.#started.then(
      (mirror) => mirror.close(),
      () => undefined,
    );
  }
}
