/**
 * The auction's clearing rule (docs/AUCTION.md states it in words, with worked examples).
 *
 * Pure and deterministic: the same book (in any input order, order ids unique) always gives the
 * same fee and the same fills. Money is integer cents, fees are integer hundredths of a basis point
 * ("centi-bps": 1 bps = 100 centi-bps, so a fee of c centi-bps on x cents is x * c / 1,000,000).
 *
 * How it runs in O(n log n): the fee axis is cut by the distinct limits p0 < p1 < ... < p(k-1) into
 * 2k + 1 regions (below p0, the point p0, the gap (p0, p1), the point p1, ..., above p(k-1)); inside
 * a region every order is either eligible throughout or not at all, so each region has one burn
 * volume and one mint volume, read from prefix sums over the sorted levels. One sweep finds the
 * best regions; they are contiguous (see docs/AUCTION.md), and their span gives the fee.
 */
import {
  checkColumns,
  checkReference,
  isNonNegativeSafeInteger,
  MARKET,
  validateOrder,
} from './clearing-checks.js';
import { explanation, ruleFor } from './clearing-explain.js';
import { allocateProRata } from './clearing-pro-rata.js';
import type {
  ClearingColumns,
  ClearingOptions,
  ClearingOrder,
  ClearingResult,
  MarginalLevel,
} from './clearing-types.js';

export type {
  ClearingColumns,
  ClearingExplanation,
  ClearingOptions,
  ClearingOrder,
  ClearingResult,
  ClearingRule,
} from './clearing-types.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function clearOrders(orders: readonly ClearingOrder[], options: ClearingOptions): ClearingResult {
  checkReference(options);
  const n = orders.length;
  const orderId: string[] = new Array<string>(n);
  const book: ClearingColumns = {
    isBurn: new Uint8Array(n),
    amountCents: new Float64Array(n),
    limitCentiBps: new Float64Array(n),
    createdAt: new Float64Array(n),
    orderId,
  };
  for (let i = 0; i < n; i++) {
    const o = orders[i]!;
    validateOrder(o, i);
    book.isBurn[i] = o.side === 'BURN' ? 1 : 0;
    book.amountCents[i] = o.amountCents;
    book.limitCentiBps[i] = o.limitCentiBps === null ? MARKET : o.limitCentiBps + 0; // + 0 turns -0 into 0
    book.createdAt[i] = o.createdAt;
    orderId[i] = o.orderId;
  }
  return clearColumns(book, options);
}

/** clearOrders on columns: the same rule, the same checks (as RangeError), no object per order. */
export function clearColumns(book: ClearingColumns, options: ClearingOptions): ClearingResult {
  const reference = checkReference(options);
  const { isBurn, amountCents: amounts, limitCentiBps: limits } = book;
  const n = isBurn.length;
  let limitCount = 0;
  let marketBurn = 0;
  let marketMint = 0;
  let burnTotal = 0;
  let mintTotal = 0;
  for (let i = 0; i < n; i++) {
    const burn = isBurn[i] === 1;
    const amount = amounts[i]!;
    checkColumns(book, i);
    if (burn) burnTotal += amount;
    else mintTotal += amount;
    if (limits[i] === MARKET) {
      if (burn) marketBurn += amount;
      else marketMint += amount;
    } else {
      limitCount++;
    }
  }
  // Sums of positive integers stay exact below 2^53; past it a float sum can only be >= 2^53.
  if (burnTotal > MAX_SAFE || mintTotal > MAX_SAFE) {
    throw new RangeError('the total amount of one side exceeds Number.MAX_SAFE_INTEGER cents');
  }

  // Distinct limits, ascending: one native typed-array sort, then an in-place dedupe.
  const levels = new Float64Array(limitCount);
  for (let i = 0, w = 0; i < n; i++) if (limits[i]! !== MARKET) levels[w++] = limits[i]!;
  levels.sort();
  let k = 0;
  for (let i = 0; i < limitCount; i++) if (k === 0 || levels[i] !== levels[k - 1]) levels[k++] = levels[i]!;

  // Each order's level index (MARKET for market orders) and each level's volume per side.
  const levelOf = new Int32Array(n);
  const burnAt = new Float64Array(k);
  const mintAt = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const limit = limits[i]!;
    if (limit === MARKET) {
      levelOf[i] = MARKET;
      continue;
    }
    let lo = 0;
    let hi = k - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (levels[mid]! < limit) lo = mid + 1;
      else hi = mid;
    }
    levelOf[i] = lo;
    if (isBurn[i] === 1) burnAt[lo] = burnAt[lo]! + amounts[i]!;
    else mintAt[lo] = mintAt[lo]! + amounts[i]!;
  }

  // burnAtOrAbove[j]: burn volume eligible at fee levels[j] (market + limits >= it); [k] = market only.
  // mintAtOrBelow[j + 1]: mint volume eligible at fee levels[j]; [0] = market only.
  const burnAtOrAbove = new Float64Array(k + 1);
  burnAtOrAbove[k] = marketBurn;
  for (let j = k - 1; j >= 0; j--) burnAtOrAbove[j] = burnAtOrAbove[j + 1]! + burnAt[j]!;
  const mintAtOrBelow = new Float64Array(k + 1);
  mintAtOrBelow[0] = marketMint;
  for (let j = 0; j < k; j++) mintAtOrBelow[j + 1] = mintAtOrBelow[j]! + mintAt[j]!;

  // Region r (0..2k): even r = 2j is the gap below levels[j] (r = 0: below everything; r = 2k: above
  // everything), odd r = 2j + 1 is the point levels[j]. Eligible there: burns at levels >= r >> 1,
  // mints at levels <= (r - 1) >> 1, plus every market order.
  let bestVolume = -1;
  let bestImbalance = 0;
  let first = 0;
  let last = 0;
  // How many regions reach the most volume: one alone means volume decided (the report's `rule`).
  let volumeTies = 0;
  for (let r = 0; r <= 2 * k; r++) {
    const burn = burnAtOrAbove[r >> 1]!;
    const mint = mintAtOrBelow[((r - 1) >> 1) + 1]!;
    const volume = Math.min(burn, mint);
    const imbalance = burn < mint ? mint - burn : burn - mint;
    if (volume > bestVolume) volumeTies = 1;
    else if (volume === bestVolume) volumeTies++;
    if (volume > bestVolume || (volume === bestVolume && imbalance < bestImbalance)) {
      bestVolume = volume;
      bestImbalance = imbalance;
      first = r;
      last = r;
    } else if (volume === bestVolume && imbalance === bestImbalance) {
      last = r;
    }
  }

  const fee =
    k === 0 || (bestVolume === 0 && (burnTotal === 0 || mintTotal === 0))
      ? reference
      : feeForSpan(
          first === 0 ? null : levels[(first - 1) >> 1]!,
          last === 2 * k ? null : levels[last >> 1]!,
        );

  const filled: number[] = new Array<number>(n).fill(0);
  // Every region of the best span has the same eligible orders (docs/AUCTION.md), so the first one's
  // eligibility is the span's; each of them accepts any fee in the span's closure, the fee included.
  const burnFrom = first >> 1;
  const mintUpTo = (first - 1) >> 1;
  const explain = (burnMarginal: MarginalLevel | null, mintMarginal: MarginalLevel | null) =>
    options.explain
      ? explanation(k, levels, burnAtOrAbove, mintAtOrBelow, levelOf, {
          rule: ruleFor(k, bestVolume, burnTotal, mintTotal, volumeTies, first, last),
          firstRegion: first,
          lastRegion: last,
          burnFromLevel: burnFrom,
          mintUpToLevel: mintUpTo,
          burnMarginal,
          mintMarginal,
        })
      : undefined;
  if (bestVolume <= 0) {
    const result: ClearingResult = { clearingFeeCentiBps: fee, matchedCents: 0, filledCents: filled };
    if (options.explain) result.explanation = explain(null, null);
    return result;
  }

  const burnEligible = burnAtOrAbove[burnFrom]!;
  const mintEligible = mintAtOrBelow[mintUpTo + 1]!;
  const matched = bestVolume;
  const burnMarginal = fillSide(book, levelOf, filled, {
    burnSide: true,
    long: burnEligible > mintEligible,
    matched,
    marketVolume: marketBurn,
    levelVolume: burnAt,
    bestLevel: k - 1,
    worstLevel: burnFrom,
  });
  const mintMarginal = fillSide(book, levelOf, filled, {
    burnSide: false,
    long: mintEligible > burnEligible,
    matched,
    marketVolume: marketMint,
    levelVolume: mintAt,
    bestLevel: 0,
    worstLevel: mintUpTo,
  });
  const result: ClearingResult = { clearingFeeCentiBps: fee, matchedCents: matched, filledCents: filled };
  if (options.explain) result.explanation = explain(burnMarginal, mintMarginal);
  return result;
}

interface SidePlan {
  burnSide: boolean;
  /** The long side is rationed; the short side (or both when equal) fills in full. */
  long: boolean;
  matched: number;
  marketVolume: number;
  levelVolume: Float64Array;
  /** Level indices from the best price to the worst eligible one (BURN: descending, MINT: ascending). */
  bestLevel: number;
  worstLevel: number;
}

/**
 * Fills one side. The long side fills price level by price level from the best (market first); the
 * marginal level, where the matched volume runs out, shares what is left pro rata; worse levels get 0.
 */
function fillSide(
  book: ClearingColumns,
  levelOf: Int32Array,
  filled: number[],
  plan: SidePlan,
): MarginalLevel | null {
  const { isBurn, amountCents: amounts } = book;
  const side = plan.burnSide ? 1 : 0;
  const step = plan.burnSide ? -1 : 1;
  const n = isBurn.length;
  const worst = plan.worstLevel;
  // Price comparisons in level-index terms for this side (a higher BURN limit, a lower MINT one).
  const atLeast = plan.burnSide ? (a: number, b: number) => a >= b : (a: number, b: number) => a <= b;
  const better = plan.burnSide ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;

  if (!plan.long) {
    for (let i = 0; i < n; i++) {
      if (isBurn[i] !== side) continue;
      const level = levelOf[i]!;
      if (level === MARKET || atLeast(level, worst)) filled[i] = amounts[i]!;
    }
    return null;
  }

  // Find the marginal level: MARKET if market orders alone cover the matched volume. The long side's
  // eligible volume exceeds the matched volume, so the walk stops at or before the worst level.
  let marginal = MARKET;
  let remaining = plan.matched;
  let marginalTotal = plan.marketVolume;
  if (plan.marketVolume < plan.matched) {
    remaining -= plan.marketVolume;
    for (let j = plan.bestLevel; ; j += step) {
      const volume = plan.levelVolume[j]!;
      if (volume >= remaining) {
        marginal = j;
        marginalTotal = volume;
        break;
      }
      remaining -= volume;
    }
  }

  let memberCount = 0;
  for (let i = 0; i < n; i++) {
    if (isBurn[i] !== side) continue;
    const level = levelOf[i]!;
    if (level === marginal) memberCount++;
    else if (marginal !== MARKET && (level === MARKET || better(level, marginal))) filled[i] = amounts[i]!;
  }
  const members = new Int32Array(memberCount);
  for (let i = 0, w = 0; i < n; i++) if (isBurn[i] === side && levelOf[i] === marginal) members[w++] = i;
  allocateProRata(members, book, marginalTotal, remaining, filled);
  return { level: marginal, levelCents: marginalTotal, sharedCents: remaining };
}

/**
 * The fee for the best span, whose ends are limits (null = unbounded because market orders keep it
 * open). An open end is closed at the other end, the nearest limit present; a bounded span gives its
 * midpoint, a half-way midpoint rounded half to even (neither side is systematically favoured).
 */
function feeForSpan(lo: number | null, hi: number | null): number {
  if (lo === null && hi === null) throw new Error('unreachable: a book with limits has a bounded span');
  if (lo === null) return hi!;
  if (hi === null) return lo;
  const width = hi - lo;
  const down = lo + Math.floor(width / 2);
  if (width % 2 === 0) return down;
  return down % 2 === 0 ? down : down + 1;
}

/**
 * The fee (BURN) or rebate (MINT) on a fill: cents * centiBps / 1,000,000, rounded to the cent half up
 * (a half cent or more rounds up). Exact: BigInt is used only when the product leaves the safe range.
 */
export function bpsAmountCents(cents: number, centiBps: number): number {
  if (!isNonNegativeSafeInteger(cents)) {
    throw new RangeError(`cents must be a non-negative safe integer, got ${cents}`);
  }
  if (!isNonNegativeSafeInteger(centiBps)) {
    throw new RangeError(`centiBps must be a non-negative safe integer, got ${centiBps}`);
  }
  const product = cents * centiBps;
  // Exact below 2^53: the floor of a correctly rounded division of safe integers is the true floor.
  if (product <= MAX_SAFE) {
    const quotient = Math.floor(product / DIVISOR);
    const remainder = product - quotient * DIVISOR;
    return remainder * 2 >= DIVISOR ? quotient + 1 : quotient;
  }
  const big = BigInt(cents) * BigInt(centiBps);
  const rounded = (big * 2n + BIG_DIVISOR) / (2n * BIG_DIVISOR);
  if (rounded > BigInt(MAX_SAFE)) throw new RangeError('fee amount exceeds Number.MAX_SAFE_INTEGER cents');
  return Number(rounded);
}

const DIVISOR = 1_000_000;
const BIG_DIVISOR = 1_000_000n;
