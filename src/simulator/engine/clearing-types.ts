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
}

export interface ClearingOptions {
  /** The fee when the book has no limit order, or when one side is empty. */
  referenceFeeCentiBps: number;
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
