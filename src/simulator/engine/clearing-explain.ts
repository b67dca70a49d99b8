/** The clearing's explanation (clearing reports): which step decided, and the curves per region. */
import type { ClearingExplanation, ClearingRule } from './clearing-types.js';

/**
 * Which step of the rule settled the fee: the reference fee (no limits, or one side empty and
 * nothing matched), an open end closed at the nearest limit, a single limit point that volume alone
 * (or, among equal volumes, the imbalance) picked, else the midpoint of an interval.
 */
export function ruleFor(
  k: number,
  bestVolume: number,
  burnTotal: number,
  mintTotal: number,
  volumeTies: number,
  first: number,
  last: number,
): ClearingRule {
  if (k === 0 || (bestVolume === 0 && (burnTotal === 0 || mintTotal === 0))) return 'reference-fee';
  if (first === 0 || last === 2 * k) return 'nearest-limit';
  if (first === last && first % 2 === 1) return volumeTies === 1 ? 'most-volume' : 'least-imbalance';
  return 'midpoint';
}

/** The explanation's curves per region, copied out of the sweep's prefix sums. */
export function explanation(
  k: number,
  levels: Float64Array,
  burnAtOrAbove: Float64Array,
  mintAtOrBelow: Float64Array,
  levelOf: Int32Array,
  rest: Omit<ClearingExplanation, 'levels' | 'burnByRegion' | 'mintByRegion' | 'levelOf'>,
): ClearingExplanation {
  const burnByRegion = new Float64Array(2 * k + 1);
  const mintByRegion = new Float64Array(2 * k + 1);
  for (let r = 0; r <= 2 * k; r++) {
    burnByRegion[r] = burnAtOrAbove[r >> 1]!;
    mintByRegion[r] = mintAtOrBelow[((r - 1) >> 1) + 1]!;
  }
  return { ...rest, levels: levels.slice(0, k), burnByRegion, mintByRegion, levelOf };
}
