/**
 * A report's nearMiss: the nearest limit at which an order that did not fill in full would have, the
 * rest of the book unchanged. Found by re-running the one clearing rule with that order's limit
 * moved (no second implementation of the rule).
 */

import { clearColumns } from './clearing.js';
import { MARKET } from './clearing-checks.js';
import type { ClearingColumns } from './clearing-types.js';

/**
 * Finds nearMiss for the orders of one book. The order's fill can only change where its limit
 * crosses another order's limit, so the candidates are each limit present and the hundredth of a
 * bps either side of it, on the side that fills more readily
 * (higher for BURN, lower for MINT). The search halves the candidates, nearest first, on the premise
 * that a more aggressive limit never fills less; its answer is one it tried: at that limit the order
 * fills in full. Null when even the farthest candidate does not (a market order: null, nothing is
 * more aggressive).
 */
export class NearMissSearch {
  private readonly limits: Float64Array;
  private readonly trial: ClearingColumns;
  /** Candidate limits ascending: each limit present and a hundredth of a bps either side. */
  private readonly candidates: number[];
  /** Order-clearings left: every trial clears the whole book, so a large report is bounded. */
  private budget: number;
  /** False once an order's search was skipped for the budget. */
  complete = true;

  constructor(
    private readonly book: ClearingColumns,
    private readonly referenceFeeCentiBps: number,
    levels: Float64Array,
    budget: number,
  ) {
    this.limits = book.limitCentiBps.slice();
    this.trial = { ...book, limitCentiBps: this.limits };
    const seen = new Set<number>();
    for (const level of levels) for (const c of [level - 1, level, level + 1]) if (c >= 0) seen.add(c);
    this.candidates = [...seen].sort((a, b) => a - b);
    this.budget = budget;
  }

  /** The order's nearMiss; undefined when the budget ran out before it. */
  find(index: number): number | null | undefined {
    const n = this.book.amountCents.length;
    const trials = 2 + Math.ceil(Math.log2(this.candidates.length + 1));
    if (this.budget < trials * n) {
      this.complete = false;
      return undefined;
    }
    this.budget -= trials * n;
    const own = this.book.limitCentiBps[index]!;
    try {
      return nearMissCentiBps(this.candidates, own, this.book.isBurn[index] === 1, (limit) => {
        this.limits[index] = limit;
        const filled = clearColumns(this.trial, { referenceFeeCentiBps: this.referenceFeeCentiBps })
          .filledCents[index];
        return filled === this.book.amountCents[index];
      });
    } finally {
      this.limits[index] = own;
    }
  }
}

function nearMissCentiBps(
  all: readonly number[],
  own: number,
  burn: boolean,
  fillsAt: (limit: number) => boolean,
): number | null {
  if (own === MARKET) return null;
  // Nearest first: ascending above the limit for BURN, descending below it for MINT.
  const candidates = burn ? all.filter((c) => c > own) : all.filter((c) => c < own).reverse();
  if (candidates.length === 0) return null;
  let hi = candidates.length - 1;
  if (!fillsAt(candidates[hi]!)) return null;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fillsAt(candidates[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return candidates[lo]!;
}
