/** The clearing rule's input and output (clearing.ts), apart so its helper modules need no cycle. */

export interface ClearingOrder {
  side: 'BURN' | 'MINT';
  /** Safe integer > 0. */
  amountCents: number;
  /** Fee limit in hundredths of a bps (BURN: most it pays, MINT: least rebate it takes); null = market. */
  limitCentiBps: number | null;
  /** Milliseconds; breaks pro-rata remainder ties (earlier first). */
  createdAt: number;
  orderId: string;
}

export interface ClearingResult {
  clearingFeeCentiBps: number;
  /** Matched volume per side: burn fills and mint fills each sum to this. */
  matchedCents: number;
  /** Filled cents per order, aligned with the input array. */
  filledCents: number[];
  /** How the rule decided; only when `explain` was asked for (the engine's clears do not). */
  explanation?: ClearingExplanation;
}

export interface ClearingOptions {
  /** The fee when the book has no limit order, or when one side is empty. */
  referenceFeeCentiBps: number;
  /** Also return the clearing's intermediate figures (clearing reports); off on the engine's path. */
  explain?: boolean;
}

/** Which step of docs/AUCTION.md "The rule" settled the fee. */
export type ClearingRule = 'most-volume' | 'least-imbalance' | 'midpoint' | 'nearest-limit' | 'reference-fee';

/** Where one side's matched volume ran out: the level that shared pro rata. */
export interface MarginalLevel {
  /** Index into `levels`, or -1 when the market orders shared. */
  level: number;
  /** The level's total amount on this side, cents. */
  levelCents: number;
  /** What the level shared among its orders, cents. */
  sharedCents: number;
}

/**
 * The figures the rule decided from, as clearColumns computed them: regions r = 0..2k of the fee
 * axis (even r: the gap below levels[r / 2], odd r: the point levels[(r - 1) / 2]).
 */
export interface ClearingExplanation {
  rule: ClearingRule;
  /** Distinct limits ascending, centi-bps. */
  levels: Float64Array;
  /** Eligible BURN volume per region, cents. */
  burnByRegion: Float64Array;
  /** Eligible MINT volume per region, cents. */
  mintByRegion: Float64Array;
  /** The best span: first and last region of the least-imbalance, most-volume regions. */
  firstRegion: number;
  lastRegion: number;
  /** Each order's level index, -1 for a market order. */
  levelOf: Int32Array;
  /** A BURN order takes part (is eligible across the span) when its level is at least this. */
  burnFromLevel: number;
  /** A MINT order takes part when its level is at most this. */
  mintUpToLevel: number;
  /** The long side's marginal level (null for a side that filled in full or nothing matched). */
  burnMarginal: MarginalLevel | null;
  mintMarginal: MarginalLevel | null;
}

/**
 * The same book as columns, one entry per order: what the engine builds straight from its orders,
 * with no object per order. `limitCentiBps` is -1 for a market order.
 */
export interface ClearingColumns {
  /** 1 = BURN, 0 = MINT. */
  isBurn: Uint8Array;
  amountCents: Float64Array;
  limitCentiBps: Float64Array;
  createdAt: Float64Array;
  orderId: readonly string[];
}
