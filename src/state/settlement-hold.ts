import type { Order } from '../generated/models.js';
import { isOpenStatus } from '../stream/order-tracker.js';

// The venue sends an order's final `order.updated` before the `balance.updated` of the same
// settlement (the simulator does; the spec orders neither). A mirror that applied each event as it
// came showed an order `filled` beside the balance from before the fill for a few milliseconds, and
// a bot asserting its balance right after `waitFor(id, filled)` flaked. So the mirror holds what
// follows an order turning final until a summary that includes the settlement has been applied.
// Which summary that is depends on where the order came from:
// - from the stream: the next `balance.updated` (or, when none comes within `holdMs`, a read);
// - from a REST read (a wait's, a reconciliation's): only a summary read after it; a balance event
//   already on its way may be older than the read order, so a read is asked for at once.
// Held changes stay out of the view as well as the change feed, so `mirror.order(id)` never runs
// ahead of `mirror.summary` either. Everything after the first held change waits behind it, in order.

/** What a change waits for before the mirror shows it. */
export type SummaryNeed = 'none' | 'event' | 'read';

/** What an order change needs: an order turning final waits for the summary of its settlement. */
export function summaryNeed(order: Order, previous: Order | undefined, fromRest: boolean): SummaryNeed {
  const turnsFinal = !isOpenStatus(order.status) && (previous === undefined || isOpenStatus(previous.status));
  return !turnsFinal ? 'none' : fromRest ? 'read' : 'event';
}

interface Held {
  apply: () => void;
  need: SummaryNeed;
  /** The hold's count when it was added: a read started after it has a larger mark. */
  mark: number;
}

export class SettlementHold {
  readonly #queue: Held[] = [];
  #added = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `askRead` asks for a summary read: at once for a REST order, after `holdMs` for an event. */
  constructor(
    private readonly holdMs: number,
    private readonly askRead: () => void,
  ) {}

  /** Applies a change now, or queues it when it needs a summary or changes are held already. */
  add(need: SummaryNeed, apply: () => void): void {
    if (need === 'none' && this.#queue.length === 0) {
      apply();
      return;
    }
    this.#queue.push({ apply, need, mark: ++this.#added });
    if (need === 'read') this.askRead();
    else if (need === 'event' && !this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        if (this.#queue.length > 0) this.askRead();
      }, this.holdMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** What a summary read about to start will cover: `afterRead` takes it back. */
  mark(): number {
    return this.#added;
  }

  /** A `balance.updated` was applied: the changes up to the first one needing a read follow it. */
  afterEvent(): void {
    this.#release((held) => held.need !== 'read');
  }

  /** A summary read that started at `mark` was applied: every change held before it follows. */
  afterRead(mark: number): void {
    this.#release((held) => held.mark <= mark);
  }

  /** The summary could not be read: held changes wait for one attempt, not for the venue. */
  releaseAll(): void {
    this.#release(() => true);
  }

  close(): void {
    this.#stopTimer();
    this.#queue.length = 0;
  }

  #release(covered: (held: Held) => boolean): void {
    let n = 0;
    while (n < this.#queue.length && covered(this.#queue[n]!)) n++;
    // A released change that turns another order final starts no new hold: the summary it waited
    // for is the one just applied.
    for (const held of this.#queue.splice(0, n)) held.apply();
    if (this.#queue.length === 0) this.#stopTimer();
  }

  #stopTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
