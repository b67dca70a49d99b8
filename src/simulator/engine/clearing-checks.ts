import type { ClearingColumns, ClearingOptions, ClearingOrder } from './clearing-types.js';

/** A market order's limit in ClearingColumns. */
export const MARKET = -1;

// The clearing rule's input checks: anything else throws RangeError (docs/AUCTION.md, Using it).

export function checkReference(options: ClearingOptions): number {
  const reference = options.referenceFeeCentiBps;
  if (!isNonNegativeSafeInteger(reference)) {
    throw new RangeError(`referenceFeeCentiBps must be a non-negative safe integer, got ${reference}`);
  }
  return reference;
}

/** Number.isSafeInteger(value) && value >= 0, in arithmetic the compiler inlines at every call. */
export function isNonNegativeSafeInteger(value: unknown): value is number {
  return (
    typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER && Math.floor(value) === value
  );
}

export function validateOrder(o: ClearingOrder, index: number): void {
  if (o.side !== 'BURN' && o.side !== 'MINT') {
    throw new RangeError(`orders[${index}].side must be 'BURN' or 'MINT'`);
  }
  if (!isNonNegativeSafeInteger(o.amountCents) || o.amountCents === 0) {
    throw new RangeError(`orders[${index}].amountCents must be a positive safe integer`);
  }
  if (o.limitCentiBps !== null && !isNonNegativeSafeInteger(o.limitCentiBps)) {
    throw new RangeError(`orders[${index}].limitCentiBps must be null or a non-negative safe integer`);
  }
  if (typeof o.createdAt !== 'number' || !Number.isFinite(o.createdAt)) {
    throw new RangeError(`orders[${index}].createdAt must be a finite number`);
  }
  if (typeof o.orderId !== 'string') {
    throw new RangeError(`orders[${index}].orderId must be a string`);
  }
}

export function checkColumns(book: ClearingColumns, i: number): void {
  const amount = book.amountCents[i]!;
  const limit = book.limitCentiBps[i]!;
  if (!isNonNegativeSafeInteger(amount) || amount === 0)
    throw new RangeError(`orders[${i}].amountCents must be a positive safe integer`);
  if (limit !== MARKET && !isNonNegativeSafeInteger(limit))
    throw new RangeError(`orders[${i}].limitCentiBps must be null or a non-negative safe integer`);
  if (!Number.isFinite(book.createdAt[i]!))
    throw new RangeError(`orders[${i}].createdAt must be a finite number`);
}
