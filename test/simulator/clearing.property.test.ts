import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ClearingOrder, type ClearingResult, clearOrders } from '../../src/simulator/engine/clearing.js';

const NUM_RUNS = 200;

// Tiny, dollar and huge amounts (huge ones push the pro-rata numerators past 2^53); limits from a
// small pool so equal limits are common, or from a wide one; market orders about one time in four.
const amountArb = fc.oneof(
  fc.integer({ min: 1, max: 5 }),
  fc.integer({ min: 1, max: 10_000 }).map((dollars) => dollars * 100),
  fc.integer({ min: 1, max: 2 ** 40 }),
);
const limitArb = fc.option(fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3_000 })), {
  nil: null,
  freq: 4,
});
// Crowded books: few price levels and few distinct amounts, so marginal levels hold several orders
// with equal remainders and equal times, and the tie rules decide the cents.
const crowdedAmountArb = fc.oneof(
  fc.constantFrom(1, 2, 3, 100, 300, 700),
  fc.constantFrom(2 ** 40, 2 ** 41 + 1),
);
const crowdedLimitArb = fc.option(fc.integer({ min: 0, max: 3 }), { nil: null, freq: 6 });

function bookOf(
  amount: fc.Arbitrary<number>,
  limit: fc.Arbitrary<number | null>,
): fc.Arbitrary<ClearingOrder[]> {
  const orderArb = fc.record({
    side: fc.constantFrom<'BURN' | 'MINT'>('BURN', 'MINT'),
    amountCents: amount,
    limitCentiBps: limit,
    createdAt: fc.integer({ min: 0, max: 3 }),
  });
  return fc
    .array(orderArb, { maxLength: 60 })
    .map((orders) => orders.map((o, i) => ({ ...o, orderId: `order-${String(i).padStart(2, '0')}` })));
}
const bookArb = fc.oneof(bookOf(amountArb, limitArb), bookOf(crowdedAmountArb, crowdedLimitArb));
const referenceArb = fc.integer({ min: 0, max: 1_000 });

function eligible(o: ClearingOrder, fee: number): boolean {
  if (o.limitCentiBps === null) return true;
  return o.side === 'BURN' ? fee <= o.limitCentiBps : fee >= o.limitCentiBps;
}

interface Region {
  /** A fee inside the region (a half-integer for gaps, possibly -0.5 below everything). */
  probe: number;
  /** The region's closure ends; null where it is unbounded. */
  lo: number | null;
  hi: number | null;
  burn: number;
  mint: number;
}

/**
 * Brute force: evaluate every region of the fee axis (each distinct limit, each gap between
 * neighbours, below all, above all) by scanning the whole book.
 */
function regions(book: readonly ClearingOrder[]): Region[] {
  const limits = [...new Set(book.flatMap((o) => (o.limitCentiBps === null ? [] : [o.limitCentiBps])))].sort(
    (a, b) => a - b,
  );
  const spans: Array<Omit<Region, 'burn' | 'mint'>> = [];
  if (limits.length === 0) spans.push({ probe: 0, lo: null, hi: null });
  limits.forEach((p, j) => {
    if (j === 0) spans.push({ probe: p - 0.5, lo: null, hi: p });
    else spans.push({ probe: (limits[j - 1]! + p) / 2, lo: limits[j - 1]!, hi: p });
    spans.push({ probe: p, lo: p, hi: p });
    if (j === limits.length - 1) spans.push({ probe: p + 0.5, lo: p, hi: null });
  });
  return spans.map((s) => {
    let burn = 0;
    let mint = 0;
    for (const o of book) {
      if (!eligible(o, s.probe)) continue;
      if (o.side === 'BURN') burn += o.amountCents;
      else mint += o.amountCents;
    }
    return { ...s, burn, mint };
  });
}

interface Expected {
  fee: number;
  volume: number;
  best: Region[];
}

function expected(book: readonly ClearingOrder[], reference: number): Expected {
  const all = regions(book);
  const volume = Math.max(...all.map((r) => Math.min(r.burn, r.mint)));
  const atVolume = all.filter((r) => Math.min(r.burn, r.mint) === volume);
  const imbalance = Math.min(...atVolume.map((r) => Math.abs(r.burn - r.mint)));
  const best = atVolume.filter((r) => Math.abs(r.burn - r.mint) === imbalance);
  const noLimits = book.every((o) => o.limitCentiBps === null);
  const oneSided = !book.some((o) => o.side === 'BURN') || !book.some((o) => o.side === 'MINT');
  let fee: number;
  if (noLimits || (volume === 0 && oneSided)) fee = reference;
  else {
    const lo = best[0]!.lo;
    const hi = best.at(-1)!.hi;
    if (lo === null) fee = hi!;
    else if (hi === null) fee = lo;
    else {
      const mid = (lo + hi) / 2;
      const down = Math.floor(mid);
      fee = mid === down ? mid : down % 2 === 0 ? down : down + 1;
    }
  }
  return { fee, volume, best };
}

function sideSum(book: readonly ClearingOrder[], result: ClearingResult, side: 'BURN' | 'MINT'): number {
  return book.reduce((sum, o, i) => (o.side === side ? sum + result.filledCents[i]! : sum), 0);
}

/** Positive when a has the better price for its side (market best of all). */
function priceAdvantage(a: ClearingOrder, b: ClearingOrder): number {
  if (a.limitCentiBps === b.limitCentiBps) return 0;
  if (a.limitCentiBps === null) return 1;
  if (b.limitCentiBps === null) return -1;
  return a.side === 'BURN' ? a.limitCentiBps - b.limitCentiBps : b.limitCentiBps - a.limitCentiBps;
}

function earlier(a: ClearingOrder, b: ClearingOrder): boolean {
  return a.createdAt !== b.createdAt ? a.createdAt < b.createdAt : a.orderId < b.orderId;
}

describe('clearOrders over random books', () => {
  it('never overfills, matches both sides equally and respects every limit at the clearing fee', () => {
    fc.assert(
      fc.property(bookArb, referenceArb, (book, reference) => {
        const result = clearOrders(book, { referenceFeeCentiBps: reference });
        expect(result.filledCents).toHaveLength(book.length);
        expect(Number.isSafeInteger(result.clearingFeeCentiBps)).toBe(true);
        expect(result.clearingFeeCentiBps).toBeGreaterThanOrEqual(0);
        book.forEach((o, i) => {
          const filled = result.filledCents[i]!;
          expect(Number.isSafeInteger(filled)).toBe(true);
          expect(filled).toBeGreaterThanOrEqual(0);
          expect(filled).toBeLessThanOrEqual(o.amountCents);
          if (filled > 0) expect(eligible(o, result.clearingFeeCentiBps)).toBe(true);
        });
        expect(sideSum(book, result, 'BURN')).toBe(result.matchedCents);
        expect(sideSum(book, result, 'MINT')).toBe(result.matchedCents);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('matches the maximum volume of a brute-force scan, with the least imbalance, at the rule fee', () => {
    fc.assert(
      fc.property(bookArb, referenceArb, (book, reference) => {
        const result = clearOrders(book, { referenceFeeCentiBps: reference });
        const want = expected(book, reference);
        expect(result.matchedCents).toBe(want.volume);
        expect(result.clearingFeeCentiBps).toBe(want.fee);
        // The best regions form one interval with the same eligible volumes, so fills drawn from
        // them have the least imbalance possible at the largest volume.
        const first = want.best[0]!;
        for (const r of want.best) expect([r.burn, r.mint]).toEqual([first.burn, first.mint]);
        for (let j = 1; j < want.best.length; j++) expect(want.best[j]!.lo).toBe(want.best[j - 1]!.hi);
        book.forEach((o, i) => {
          if (result.filledCents[i]! > 0) expect(eligible(o, first.probe)).toBe(true);
        });
        // The short side fills in full.
        if (want.volume > 0) {
          const shortSide = first.burn <= first.mint ? 'BURN' : 'MINT';
          book.forEach((o, i) => {
            if (o.side === shortSide && eligible(o, first.probe)) {
              expect(result.filledCents[i]).toBe(o.amountCents);
            }
          });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('gives the same fill to the same orderId whatever the input order', () => {
    const permuted = bookArb.chain((book) =>
      fc.tuple(
        fc.constant(book),
        fc.shuffledSubarray(book, { minLength: book.length, maxLength: book.length }),
      ),
    );
    fc.assert(
      fc.property(permuted, referenceArb, ([book, shuffled], reference) => {
        const a = clearOrders(book, { referenceFeeCentiBps: reference });
        const b = clearOrders(shuffled, { referenceFeeCentiBps: reference });
        expect(b.clearingFeeCentiBps).toBe(a.clearingFeeCentiBps);
        expect(b.matchedCents).toBe(a.matchedCents);
        const byId = new Map(book.map((o, i) => [o.orderId, a.filledCents[i]]));
        shuffled.forEach((o, i) => {
          expect(b.filledCents[i]).toBe(byId.get(o.orderId));
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('respects long-side priority: price first, then pro rata to the cent by largest remainder', () => {
    fc.assert(
      fc.property(bookArb, referenceArb, (book, reference) => {
        const result = clearOrders(book, { referenceFeeCentiBps: reference });
        const want = expected(book, reference);
        const probe = want.best[0]!.probe;
        const candidates = book
          .map((o, i) => ({ o, filled: BigInt(result.filledCents[i]!), amount: BigInt(o.amountCents) }))
          .filter(({ o }) => eligible(o, probe));
        for (const a of candidates) {
          for (const b of candidates) {
            if (a.o.side !== b.o.side || priceAdvantage(a.o, b.o) <= 0) continue;
            // a has the strictly better price: its filled fraction is at least b's.
            expect(a.filled * b.amount >= b.filled * a.amount).toBe(true);
          }
        }
        // Within one price level: each fill is the floor or ceiling of its exact share, and the extra
        // cents go to the largest remainders, ties to the earlier createdAt, then the smaller orderId.
        const levels = new Map<string, typeof candidates>();
        for (const c of candidates) {
          const key = `${c.o.side}:${c.o.limitCentiBps}`;
          levels.set(key, [...(levels.get(key) ?? []), c]);
        }
        for (const level of levels.values()) {
          const total = level.reduce((s, c) => s + c.amount, 0n);
          const given = level.reduce((s, c) => s + c.filled, 0n);
          const shares = level.map((c) => ({
            ...c,
            floor: (c.amount * given) / total,
            remainder: (c.amount * given) % total,
          }));
          for (const s of shares) expect(s.filled - s.floor === 0n || s.filled - s.floor === 1n).toBe(true);
          for (const up of shares) {
            if (up.filled === up.floor) continue;
            expect(up.remainder > 0n).toBe(true);
            for (const down of shares) {
              if (down.filled !== down.floor || down.remainder === 0n) continue;
              expect(up.remainder >= down.remainder).toBe(true);
              if (up.remainder === down.remainder) expect(earlier(up.o, down.o)).toBe(true);
            }
          }
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('shares a rationed level exactly as largest remainder with time, then id, ties', () => {
    // One crowded BURN level against a smaller market MINT: the whole allocation is the tie rules.
    const levelArb = fc
      .record({
        amounts: fc.array(
          fc.oneof(fc.constantFrom(100, 200, 300, 700), fc.constantFrom(2 ** 40, 2 ** 41 + 3)),
          {
            minLength: 2,
            maxLength: 40,
          },
        ),
        times: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 40, maxLength: 40 }),
        ids: fc.shuffledSubarray([...Array(40).keys()], { minLength: 40, maxLength: 40 }),
        limit: fc.integer({ min: 0, max: 2_000 }),
        fraction: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
      })
      .map(({ amounts, times, ids, limit, fraction }): ClearingOrder[] => {
        const burns: ClearingOrder[] = amounts.map((amountCents, i) => ({
          side: 'BURN',
          amountCents,
          limitCentiBps: limit,
          createdAt: times[i]!,
          orderId: `id-${String(ids[i]).padStart(2, '0')}`,
        }));
        const total = amounts.reduce((a, b) => a + b, 0);
        const mint = Math.max(1, Math.floor(total * fraction));
        return [
          ...burns,
          { side: 'MINT', amountCents: mint, limitCentiBps: null, createdAt: 0, orderId: 'mint' },
        ];
      });
    fc.assert(
      fc.property(levelArb, (book) => {
        const result = clearOrders(book, { referenceFeeCentiBps: 0 });
        const burns = book.slice(0, -1);
        const remaining = BigInt(book.at(-1)!.amountCents);
        const total = burns.reduce((s, o) => s + BigInt(o.amountCents), 0n);
        const shares = burns.map((o, i) => ({
          i,
          o,
          floor: (BigInt(o.amountCents) * remaining) / total,
          remainder: (BigInt(o.amountCents) * remaining) % total,
        }));
        const leftover = remaining - shares.reduce((s, x) => s + x.floor, 0n);
        const ranked = [...shares].sort((a, b) =>
          a.remainder !== b.remainder ? (a.remainder > b.remainder ? -1 : 1) : earlier(a.o, b.o) ? -1 : 1,
        );
        const want = new Array<bigint>(burns.length);
        ranked.forEach((x, rank) => {
          want[x.i] = x.floor + (BigInt(rank) < leftover ? 1n : 0n);
        });
        expect(result.filledCents.slice(0, -1).map(BigInt)).toEqual(want);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
