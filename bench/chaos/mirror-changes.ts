/**
 * Reads one mirror's `changes()` for the whole run and checks the feed's own promises: every change
 * once and in order (`seq` 1, 2, 3, ... with no gap), no change that restates what was held (a
 * "no-op"), no order state handed out twice, no order going back to an older state.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AccountMirror, MirrorChange } from '../../src/state/index.js';
import { fingerprint } from './stream-verdict.js';

export interface MirrorChangeStats {
  changes: number;
  /** A change whose seq is not the one after the previous change's. */
  seqGaps: number;
  /** An order change to a state the mirror had already handed out for that order. */
  duplicates: number;
  /** A change equal to the state it replaces. */
  noops: number;
  /** An order change older (updatedAt) than the state it replaces. */
  wentBack: number;
}

/** JSON with sorted keys: equal states give equal text whichever side built the object. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

export class ChangeWatch {
  readonly stats: MirrorChangeStats = { changes: 0, seqGaps: 0, duplicates: 0, noops: 0, wentBack: 0 };
  /** Orders and withdrawals the mirror retired (retention): not expected in view any more. */
  readonly retired = new Set<string>();
  /** Every order state handed out, in order, for the out-of-order check against the truth. */
  readonly deliveryOrder: { orderId: string; fp: string }[] = [];
  readonly examples: string[] = [];
  readonly #iter: AsyncIterableIterator<MirrorChange>;
  readonly #loop: Promise<void>;
  readonly #seen = new Map<string, Set<string>>();
  #nextSeq = 1;

  constructor(
    readonly label: string,
    mirror: AccountMirror,
  ) {
    // Opened before `ready`: the first change is the first load's, seq 1.
    const iter = mirror.changes();
    this.#iter = iter;
    this.#loop = (async () => {
      for await (const change of iter) this.#check(change);
    })();
  }

  #note(text: string): void {
    if (this.examples.length < 5) this.examples.push(`${this.label}: ${text}`);
  }

  #check(change: MirrorChange): void {
    const s = this.stats;
    s.changes++;
    if (change.seq !== this.#nextSeq) {
      s.seqGaps++;
      this.#note(`change seq ${change.seq} after ${this.#nextSeq - 1}`);
    }
    this.#nextSeq = change.seq + 1;
    switch (change.kind) {
      case 'order': {
        const { order, previous } = change;
        const states = this.#seen.get(order.orderId) ?? new Set<string>();
        this.#seen.set(order.orderId, states);
        const text = canonical(order);
        if (states.has(text)) {
          s.duplicates++;
          this.#note(`order ${fingerprint(order)} handed out again (${change.source})`);
        }
        states.add(text);
        if (previous && isDeepStrictEqual(previous, order)) s.noops++;
        if (previous && Date.parse(order.updatedAt) < Date.parse(previous.updatedAt)) {
          s.wentBack++;
          this.#note(`order ${fingerprint(order)} after ${fingerprint(previous)}`);
        }
        this.retired.delete(order.orderId);
        this.deliveryOrder.push({ orderId: order.orderId, fp: fingerprint(order) });
        return;
      }
      case 'order.removed':
        this.retired.add(change.order.orderId);
        return;
      case 'withdrawal.removed':
        this.retired.add(change.withdrawal.withdrawal.id);
        return;
      case 'withdrawal':
        if (change.previous && isDeepStrictEqual(change.previous, change.withdrawal)) s.noops++;
        this.retired.delete(change.withdrawal.withdrawal.id);
        return;
      case 'summary':
        if (change.previous && isDeepStrictEqual(change.previous, change.summary)) s.noops++;
        return;
      default:
        return;
    }
  }

  /** Ends the iterator (the mirror stays open) and waits for the reader. */
  async stop(): Promise<void> {
    await this.#iter.return?.();
    await this.#loop.catch(() => undefined);
  }
}
