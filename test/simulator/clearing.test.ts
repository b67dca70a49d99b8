import { describe, expect, it } from 'vitest';
import {
  bpsAmountCents,
  type ClearingOrder,
  type ClearingResult,
  clearOrders,
} from '../../src/simulator/engine/clearing.js';

// The worked examples of docs/AUCTION.md, number for number.

const REFERENCE = { referenceFeeCentiBps: 300 };

function order(
  orderId: string,
  side: 'BURN' | 'MINT',
  amountCents: number,
  limitCentiBps: number | null,
  createdAt = 0,
): ClearingOrder {
  return { orderId, side, amountCents, limitCentiBps, createdAt };
}

/** Burn and mint volume eligible at fee c, straight from the rule. */
function eligibleAt(orders: readonly ClearingOrder[], c: number): { burn: number; mint: number } {
  let burn = 0;
  let mint = 0;
  for (const o of orders) {
    if (o.side === 'BURN' && (o.limitCentiBps === null || c <= o.limitCentiBps)) burn += o.amountCents;
    if (o.side === 'MINT' && (o.limitCentiBps === null || c >= o.limitCentiBps)) mint += o.amountCents;
  }
  return { burn, mint };
}

/** orderId -> [filled cents, fee or rebate cents at the clearing fee]. */
function fills(orders: readonly ClearingOrder[], result: ClearingResult): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  orders.forEach((o, i) => {
    const filled = result.filledCents[i]!;
    out[o.orderId] = [filled, bpsAmountCents(filled, result.clearingFeeCentiBps)];
  });
  return out;
}

describe('docs/AUCTION.md example 1: a simple crossing book', () => {
  const book = [
    order('B1', 'BURN', 100_000, 800),
    order('B2', 'BURN', 60_000, 500),
    order('M1', 'MINT', 70_000, 200),
    order('M2', 'MINT', 90_000, 500),
  ];

  it('has the eligible volumes of the table', () => {
    expect(eligibleAt(book, 100)).toEqual({ burn: 160_000, mint: 0 });
    expect(eligibleAt(book, 200)).toEqual({ burn: 160_000, mint: 70_000 });
    expect(eligibleAt(book, 350)).toEqual({ burn: 160_000, mint: 70_000 });
    expect(eligibleAt(book, 500)).toEqual({ burn: 160_000, mint: 160_000 });
    expect(eligibleAt(book, 650)).toEqual({ burn: 100_000, mint: 160_000 });
    expect(eligibleAt(book, 800)).toEqual({ burn: 100_000, mint: 160_000 });
    expect(eligibleAt(book, 900)).toEqual({ burn: 0, mint: 160_000 });
  });

  it('clears at 5.00 bps and fills everything', () => {
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(500);
    expect(result.matchedCents).toBe(160_000);
    expect(fills(book, result)).toEqual({
      B1: [100_000, 50],
      B2: [60_000, 30],
      M1: [70_000, 35],
      M2: [90_000, 45],
    });
  });
});

describe('docs/AUCTION.md example 2: a tie on volume broken by imbalance', () => {
  const book = [
    order('B1', 'BURN', 110_000, 600),
    order('B2', 'BURN', 30_000, 300),
    order('M1', 'MINT', 110_000, 200),
    order('M2', 'MINT', 50_000, 400),
  ];

  it('has the eligible volumes of the table', () => {
    expect(eligibleAt(book, 100)).toEqual({ burn: 140_000, mint: 0 });
    expect(eligibleAt(book, 200)).toEqual({ burn: 140_000, mint: 110_000 });
    expect(eligibleAt(book, 250)).toEqual({ burn: 140_000, mint: 110_000 });
    expect(eligibleAt(book, 300)).toEqual({ burn: 140_000, mint: 110_000 });
    expect(eligibleAt(book, 350)).toEqual({ burn: 110_000, mint: 110_000 });
    expect(eligibleAt(book, 400)).toEqual({ burn: 110_000, mint: 160_000 });
    expect(eligibleAt(book, 500)).toEqual({ burn: 110_000, mint: 160_000 });
    expect(eligibleAt(book, 600)).toEqual({ burn: 110_000, mint: 160_000 });
    expect(eligibleAt(book, 700)).toEqual({ burn: 0, mint: 160_000 });
  });

  it('clears at 3.50 bps, the middle of the balanced gap (3, 4) bps', () => {
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(350);
    expect(result.matchedCents).toBe(110_000);
    expect(fills(book, result)).toEqual({
      B1: [110_000, 39],
      B2: [0, 0],
      M1: [110_000, 39],
      M2: [0, 0],
    });
  });
});

describe('docs/AUCTION.md example 3: an interval resolved by its midpoint', () => {
  const book = [
    order('B1', 'BURN', 100_000, 925, 1),
    order('B2', 'BURN', 40_000, 925, 2),
    order('M1', 'MINT', 100_000, 250, 3),
  ];

  it('has the eligible volumes of the table', () => {
    expect(eligibleAt(book, 100)).toEqual({ burn: 140_000, mint: 0 });
    expect(eligibleAt(book, 250)).toEqual({ burn: 140_000, mint: 100_000 });
    expect(eligibleAt(book, 600)).toEqual({ burn: 140_000, mint: 100_000 });
    expect(eligibleAt(book, 925)).toEqual({ burn: 140_000, mint: 100_000 });
    expect(eligibleAt(book, 1_000)).toEqual({ burn: 0, mint: 100_000 });
  });

  it('clears at 5.88 bps (587.5 rounded half to even) and splits the burn level pro rata', () => {
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(588);
    expect(result.matchedCents).toBe(100_000);
    expect(fills(book, result)).toEqual({
      B1: [71_429, 42],
      B2: [28_571, 17],
      M1: [100_000, 59],
    });
  });
});

describe('docs/AUCTION.md example 4: market orders, the open interval closed at the nearest limit', () => {
  const book = [
    order('B1', 'BURN', 50_000, null),
    order('B2', 'BURN', 30_000, 400),
    order('M1', 'MINT', 60_000, null),
    order('M2', 'MINT', 10_000, 600),
  ];

  it('has the eligible volumes of the table', () => {
    expect(eligibleAt(book, 0)).toEqual({ burn: 80_000, mint: 60_000 });
    expect(eligibleAt(book, 400)).toEqual({ burn: 80_000, mint: 60_000 });
    expect(eligibleAt(book, 500)).toEqual({ burn: 50_000, mint: 60_000 });
    expect(eligibleAt(book, 600)).toEqual({ burn: 50_000, mint: 70_000 });
    expect(eligibleAt(book, 700)).toEqual({ burn: 50_000, mint: 70_000 });
  });

  it('clears at 4.00 bps; the market BURN fills before the limit BURN', () => {
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(400);
    expect(result.matchedCents).toBe(60_000);
    expect(fills(book, result)).toEqual({
      B1: [50_000, 20],
      B2: [10_000, 4],
      M1: [60_000, 24],
      M2: [0, 0],
    });
  });
});

describe('docs/AUCTION.md example 5: pro rata at the fee, a largest-remainder cent and a createdAt tie', () => {
  const book = [
    order('E', 'BURN', 10_000, 700, 5),
    order('A', 'BURN', 20_000, 500, 2),
    order('B', 'BURN', 10_000, 500, 3),
    order('C', 'BURN', 10_000, 500, 1),
    order('D', 'BURN', 30_000, 500, 4),
    order('M1', 'MINT', 70_000, 500, 6),
  ];

  it('has the eligible volumes of the table', () => {
    expect(eligibleAt(book, 400)).toEqual({ burn: 80_000, mint: 0 });
    expect(eligibleAt(book, 500)).toEqual({ burn: 80_000, mint: 70_000 });
    expect(eligibleAt(book, 600)).toEqual({ burn: 10_000, mint: 70_000 });
    expect(eligibleAt(book, 700)).toEqual({ burn: 10_000, mint: 70_000 });
    expect(eligibleAt(book, 800)).toEqual({ burn: 0, mint: 70_000 });
  });

  it('fills E first, then shares 600.00 among A, B, C, D; A takes a remainder cent, C beats B on time', () => {
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(500);
    expect(result.matchedCents).toBe(70_000);
    expect(fills(book, result)).toEqual({
      E: [10_000, 5],
      A: [17_143, 9],
      B: [8_571, 4],
      C: [8_572, 4],
      D: [25_714, 13],
      M1: [70_000, 35],
    });
  });

  it('breaks an equal createdAt by the smaller orderId', () => {
    const sameTime = book.map((o) => (o.orderId === 'B' || o.orderId === 'C' ? { ...o, createdAt: 7 } : o));
    const result = clearOrders(sameTime, REFERENCE);
    expect(fills(sameTime, result).B).toEqual([8_572, 4]);
    expect(fills(sameTime, result).C).toEqual([8_571, 4]);
  });
});

describe('docs/AUCTION.md example 6: nothing can match', () => {
  it('quotes the middle of the spread and fills nothing', () => {
    const book = [order('B1', 'BURN', 10_000, 300), order('M1', 'MINT', 10_000, 600)];
    const result = clearOrders(book, REFERENCE);
    expect(result).toEqual({ clearingFeeCentiBps: 450, matchedCents: 0, filledCents: [0, 0] });
  });

  it('quotes the reference fee when one side is empty', () => {
    const book = [order('B1', 'BURN', 10_000, 300), order('B2', 'BURN', 20_000, null)];
    expect(clearOrders(book, REFERENCE)).toEqual({
      clearingFeeCentiBps: 300,
      matchedCents: 0,
      filledCents: [0, 0],
    });
    expect(clearOrders([], { referenceFeeCentiBps: 125 })).toEqual({
      clearingFeeCentiBps: 125,
      matchedCents: 0,
      filledCents: [],
    });
  });
});

describe('docs/AUCTION.md example 7: market orders only', () => {
  it('clears at the reference fee', () => {
    const book = [order('B1', 'BURN', 10_000, null), order('M1', 'MINT', 30_000, null)];
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(300);
    expect(fills(book, result)).toEqual({ B1: [10_000, 3], M1: [10_000, 3] });
  });
});

describe('rounding', () => {
  it('rounds a half-way midpoint to the even hundredth of a bps', () => {
    const down = [order('B', 'BURN', 100, 725), order('M', 'MINT', 100, 500)];
    expect(clearOrders(down, REFERENCE).clearingFeeCentiBps).toBe(612);
    const up = [order('B', 'BURN', 100, 726), order('M', 'MINT', 100, 501)];
    expect(clearOrders(up, REFERENCE).clearingFeeCentiBps).toBe(614);
  });

  it('fills the set of a one-tick gap even though its rounded fee lands on a limit', () => {
    // Only the gap (5.00, 5.01) bps is balanced; 5.005 rounds half to even to 5.00. Y (at most 5.00)
    // accepts 5.00 but is not in the gap's set, so it does not trade.
    const book = [
      order('X', 'BURN', 10_000, 501),
      order('Y', 'BURN', 5_000, 500),
      order('M1', 'MINT', 10_000, 500),
      order('M2', 'MINT', 5_000, 501),
    ];
    expect(clearOrders(book, REFERENCE)).toEqual({
      clearingFeeCentiBps: 500,
      matchedCents: 10_000,
      filledCents: [10_000, 0, 10_000, 0],
    });
  });

  it('rounds fees and rebates half up to the cent', () => {
    expect(bpsAmountCents(1, 500_000)).toBe(1);
    expect(bpsAmountCents(1, 499_999)).toBe(0);
    expect(bpsAmountCents(101_000, 500)).toBe(51);
    expect(bpsAmountCents(100_000, 0)).toBe(0);
    expect(bpsAmountCents(0, 1_000)).toBe(0);
    expect(bpsAmountCents(1_000_000_000_000, 1)).toBe(1_000_000);
  });

  it('stays exact beyond 2^53 products', () => {
    // 9007199254740991 * 150 / 1e6 = 1351079888211.14865 -> 1351079888211
    expect(bpsAmountCents(Number.MAX_SAFE_INTEGER, 150)).toBe(1_351_079_888_211);
    // 2^52 * 1_000_000 / 1e6 = 2^52 exactly
    expect(bpsAmountCents(2 ** 52, 1_000_000)).toBe(2 ** 52);
    expect(() => bpsAmountCents(Number.MAX_SAFE_INTEGER, 2_000_000)).toThrow(RangeError);
  });

  it('rejects amounts and fees that are not non-negative safe integers', () => {
    expect(() => bpsAmountCents(1.5, 100)).toThrow(RangeError);
    expect(() => bpsAmountCents(100, -1)).toThrow(RangeError);
    expect(() => bpsAmountCents(Number.NaN, 100)).toThrow(RangeError);
  });
});

describe('large amounts', () => {
  it('shares a marginal level exactly when amount * remaining exceeds 2^53', () => {
    // Each exact share has a fraction of about 1/3 and B2's is the largest by a few parts in 10^15,
    // so the one leftover cent is B2's; float arithmetic cannot tell them apart and picks B1.
    const book = [
      order('B1', 'BURN', 2 ** 51 + 1, 500, 1),
      order('B2', 'BURN', 1_125_899_906_842_621, 500, 2),
      order('B3', 'BURN', 2, 500, 3),
      order('M1', 'MINT', 2_251_799_813_685_247, 500, 4),
    ];
    const result = clearOrders(book, REFERENCE);
    expect(result.clearingFeeCentiBps).toBe(500);
    expect(result.matchedCents).toBe(2_251_799_813_685_247);
    expect(result.filledCents).toEqual([
      1_501_199_875_790_165, 750_599_937_895_081, 1, 2_251_799_813_685_247,
    ]);
  });
});

describe('input validation', () => {
  const ok = order('B', 'BURN', 100, 100);
  it.each([
    ['a zero amount', { ...ok, amountCents: 0 }],
    ['a fractional amount', { ...ok, amountCents: 10.5 }],
    ['a negative limit', { ...ok, limitCentiBps: -1 }],
    ['a fractional limit', { ...ok, limitCentiBps: 1.5 }],
    ['an unknown side', { ...ok, side: 'SELL' as 'BURN' }],
    ['a NaN createdAt', { ...ok, createdAt: Number.NaN }],
  ])('rejects %s', (_name, bad) => {
    expect(() => clearOrders([ok, bad], REFERENCE)).toThrow(RangeError);
  });

  it('rejects a negative reference fee', () => {
    expect(() => clearOrders([ok], { referenceFeeCentiBps: -5 })).toThrow(RangeError);
  });

  it('rejects a side whose total is not a safe integer', () => {
    const huge = order('B', 'BURN', Number.MAX_SAFE_INTEGER, 100);
    expect(() => clearOrders([huge, { ...huge, orderId: 'B2' }], REFERENCE)).toThrow(RangeError);
  });

  it('treats a -0 limit as 0', () => {
    const book = [order('B', 'BURN', 100, -0), order('M', 'MINT', 100, 0)];
    expect(Object.is(clearOrders(book, REFERENCE).clearingFeeCentiBps, 0)).toBe(true);
  });
});
