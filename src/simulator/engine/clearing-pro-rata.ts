import type { ClearingColumns } from './clearing-types.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Shares `remaining` cents among the orders of one price level (`members`, indices into `orders`)
 * in proportion to their amounts, to the cent, by largest remainder; equal remainders go to the
 * earlier `createdAt`, then the smaller `orderId`, then the earlier input position (so the result
 * never depends on the order of the input when order ids are unique).
 *
 * `levelTotal` is the sum of the members' amounts and `remaining <= levelTotal`, so no member can
 * receive more than its amount: a member gets the extra cent only if its share has a fraction.
 */
export function allocateProRata(
  members: Int32Array,
  book: ClearingColumns,
  levelTotal: number,
  remaining: number,
  out: number[],
): void {
  const amounts = book.amountCents;
  const m = members.length;
  const remainders = new Float64Array(m);
  let assigned = 0;
  let bigTotal: bigint | undefined;
  for (let p = 0; p < m; p++) {
    const i = members[p]!;
    const product = amounts[i]! * remaining;
    let quotient: number;
    let remainder: number;
    // Below 2^53 the product is exact, and a correctly rounded p / t never reaches the next integer
    // (its distance to it, at least 1 / t, exceeds half an ulp), so the floor is exact. Beyond that
    // the numerator needs BigInt.
    if (product <= MAX_SAFE) {
      quotient = Math.floor(product / levelTotal);
      remainder = product - quotient * levelTotal;
    } else {
      bigTotal ??= BigInt(levelTotal);
      const numerator = BigInt(amounts[i]!) * BigInt(remaining);
      const q = numerator / bigTotal;
      quotient = Number(q);
      remainder = Number(numerator - q * bigTotal);
    }
    out[i] = quotient;
    remainders[p] = remainder;
    assigned += quotient;
  }

  const leftover = remaining - assigned;
  if (leftover <= 0) return;

  // The leftover-th largest remainder is the threshold: every member above it gets a cent, and the
  // members exactly at it are ranked by time, then id, for the cents still left.
  const sorted = remainders.slice().sort();
  const threshold = sorted[m - leftover]!;
  let given = 0;
  const tied: number[] = [];
  for (let p = 0; p < m; p++) {
    const r = remainders[p]!;
    if (r > threshold) {
      out[members[p]!]! += 1;
      given += 1;
    } else if (r === threshold) {
      tied.push(members[p]!);
    }
  }
  tied.sort((a, b) => compareTimePriority(book, a, b));
  const stillLeft = leftover - given;
  for (let t = 0; t < stillLeft; t++) out[tied[t]!]! += 1;
}

/** Earlier createdAt first, then smaller orderId (code-unit order), then earlier input position. */
function compareTimePriority(book: ClearingColumns, a: number, b: number): number {
  const ta = book.createdAt[a]!;
  const tb = book.createdAt[b]!;
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ia = book.orderId[a]!;
  const ib = book.orderId[b]!;
  if (ia !== ib) return ia < ib ? -1 : 1;
  return a - b;
}
