/**
 * A report's nearMiss: the nearest limit at which an order that did not fill in full would have, the
 * rest of the book unchanged. Found by re-running the one clearing rule with that order's limit
 * moved (no second implementation of the rule).
 */
import { MARKET } from './clearing-checks.js';
import { clearColumns } from './clearing.js';
import type { ClearingColumns } from './clearing-types.js';

/**
 * The order's fill can only change where its limit crosses another order's limit, so the candidates
 * are each limit present and the hundredth of a bps beyond it, on the side that fills more readily
 * (higher for BURN, lower for MINT). The search halves the candidates, nearest first, on the premise
 * that a more aggressive limit never fills less; its answer is one it tried: at that limit the order
 * fills in full. Null when even the farthest candidate does not (a market order: null, nothing is
 * more aggressive).
 */
export function nearMissCentiBps(
  book: ClearingColumns,
  index: number,
  referenceFeeCentiBps: number,
  levels: Float64Array,
): number | null {
  const own = book.limitCentiBps[index]!;
  if (own === MARKET) return null;
  const burn = book.isBurn[index] === 1;
  const seen = new Set<number>();
  for (const level of levels) {
    for (const c of [level, burn ? level + 1 : level - 1]) {
      if (c >= 0 && (burn ? c > own : c < own)) seen.add(c);
    }
  }
  // Nearest first: ascending for BURN, descending for MINT.
  const candidates = [...seen].sort((a, b) => (burn ? a - b : b - a));
  if (candidates.length === 0) return null;
  const limits = book.limitCentiBps.slice();
  const trial: ClearingColumns = { ...book, limitCentiBps: limits };
  const fillsAt = (limit: number): boolean => {
    limits[index] = limit;
    const filled = clearColumns(trial, { referenceFeeCentiBps }).filledCents[index];
    return filled === book.amountCents[index];
  };
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
