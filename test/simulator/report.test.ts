import fc from 'fast-check';
import { type ClearingReport, createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { type ClearingOrder, clearOrders } from '../../src/simulator/engine/clearing.js';
import { formatCents, parseCentiBps, parseCents } from '../../src/simulator/engine/money.js';
import { Driver, dataOf } from './helpers.js';

const cents = (m: { amount: string }) => parseCents(m.amount) as number;
const centi = (bps: string) => parseCentiBps(bps) as number;

let n = 0;
const id = () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;

type Side = 'BURN' | 'MINT';
function place(
  sim: ReturnType<typeof createSimulator>,
  side: Side,
  amountCents: number,
  feeBps: string | null,
) {
  const who = side === 'BURN' ? SEEDED.burner : SEEDED.minter;
  return sim.engine.placeOrder(who.entityId, {
    idempotencyKey: id(),
    orderType: side,
    amount: { amount: formatCents(amountCents), currency: 'USD' },
    feeBps,
    postFillAction: 'cancel',
    ...(side === 'BURN' ? { sourceWalletId: who.walletId, fiatAccountId: who.fiatAccountId } : {}),
  }).orderId;
}

/** The worked examples of docs/AUCTION.md, and which step of the rule decides each. */
describe('clearing report: the worked examples', () => {
  it('example 1: one fee has the most volume', () => {
    const sim = createSimulator({ startTime: '2026-01-01T00:00:00Z' });
    place(sim, 'BURN', 100_000, '8');
    place(sim, 'BURN', 60_000, '5');
    place(sim, 'MINT', 70_000, '2');
    place(sim, 'MINT', 90_000, '5');
    const { auctionId } = sim.clearAuction();
    const r = sim.auctionReport(auctionId) as ClearingReport;
    expect(r).toMatchObject({
      clearingFeeBps: '5.00',
      matchedVolume: { amount: '1600.00', currency: 'USD' },
    });
    expect(r.rule).toBe('most-volume');
    // 3 limits, 7 regions, as the docs' table; only the point 5 is chosen.
    expect(r.curves.map((c) => [c.fromBps, c.toBps, c.burn.amount, c.mint.amount, c.chosen])).toEqual([
      [null, '2.00', '1600.00', '0.00', false],
      ['2.00', '2.00', '1600.00', '700.00', false],
      ['2.00', '5.00', '1600.00', '700.00', false],
      ['5.00', '5.00', '1600.00', '1600.00', true],
      ['5.00', '8.00', '1000.00', '1600.00', false],
      ['8.00', '8.00', '1000.00', '1600.00', false],
      ['8.00', null, '0.00', '1600.00', false],
    ]);
    expect(r.orders.every((o) => o.eligible && o.nearMiss === undefined && o.proRata === undefined)).toBe(
      true,
    );
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('example 2: a volume tie broken by imbalance, settled by the midpoint', () => {
    const sim = createSimulator();
    place(sim, 'BURN', 110_000, '6');
    place(sim, 'BURN', 30_000, '3');
    place(sim, 'MINT', 110_000, '2');
    place(sim, 'MINT', 50_000, '4');
    const r = sim.auctionReport(sim.clearAuction().auctionId) as ClearingReport;
    expect([r.clearingFeeBps, r.rule]).toEqual(['3.50', 'midpoint']);
    const byLimit = Object.fromEntries(r.orders.map((o) => [`${o.orderType}@${o.feeBps}`, o]));
    expect(byLimit['BURN@3.00']).toMatchObject({ eligible: false, filledAmount: { amount: '0.00' } });
    // B2 (at most 3 bps) would have filled at a limit of 3.01 bps; M2 (at least 4) at 3.99.
    expect(byLimit['BURN@3.00']?.nearMiss).toBeDefined();
    expect(byLimit['MINT@4.00']?.eligible).toBe(false);
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('example 3: the marginal level shares pro rata; nearMiss is the limit just above it', () => {
    const sim = createSimulator();
    place(sim, 'BURN', 100_000, '9.25');
    place(sim, 'BURN', 40_000, '9.25');
    place(sim, 'MINT', 100_000, '2.50');
    const r = sim.auctionReport(sim.clearAuction().auctionId) as ClearingReport;
    expect([r.clearingFeeBps, r.rule]).toEqual(['5.88', 'midpoint']);
    const [b1, b2, m1] = r.orders;
    const share = { levelFeeBps: '9.25', levelAmount: { amount: '1400.00', currency: 'USD' } };
    expect(b1).toMatchObject({
      filledAmount: { amount: '714.29' },
      proRata: share,
      nearMiss: { feeBps: '9.26' },
    });
    expect(b2).toMatchObject({
      filledAmount: { amount: '285.71' },
      proRata: share,
      nearMiss: { feeBps: '9.26' },
    });
    expect(b1?.proRata?.sharedAmount.amount).toBe('1000.00');
    expect(m1).toMatchObject({ filledAmount: { amount: '1000.00' }, eligible: true });
    expect(m1?.proRata).toBeUndefined();
  });

  it('reference fee, nearest limit, and the HTTP answers (400, 404, current)', async () => {
    const sim = createSimulator({ referenceFeeBps: '3' });
    const d = new Driver(sim);
    place(sim, 'BURN', 10_000, null);
    place(sim, 'MINT', 10_000, null);
    const now = await d.call('GET', '/_sim/auctions/current', null);
    expect(dataOf(now)).toMatchObject({
      auctionId: 1,
      indicativeFeeBps: '3.00',
      indicativeVolume: { amount: '100.00' },
      imbalance: { amount: '0.00' },
      longSide: null,
      rule: 'reference-fee',
      orderCount: 2,
    });
    sim.clearAuction();
    expect((dataOf(await d.call('GET', '/_sim/auctions/1', null)) as ClearingReport).rule).toBe(
      'reference-fee',
    );
    place(sim, 'BURN', 20_000, null);
    place(sim, 'MINT', 10_000, '4');
    sim.clearAuction();
    const r = dataOf(await d.call('GET', '/_sim/auctions/2', null)) as ClearingReport;
    expect([r.rule, r.clearingFeeBps]).toEqual(['nearest-limit', '4.00']);
    const bad = await d.call('GET', '/_sim/auctions/x1', null);
    expect([bad.status, (bad.body as { code: number }).code]).toEqual([400, 2]);
    expect((await d.call('GET', '/_sim/auctions/3', null)).status).toBe(404);
    expect((await d.call('GET', '/_sim/auctions/99', null)).status).toBe(404);
    expect((await d.call('POST', '/_sim/auctions/1', null)).status).toBe(405);
  });
});

const orderArb = fc.record({
  side: fc.constantFrom<Side>('BURN', 'MINT'),
  amountCents: fc.oneof(fc.constantFrom(100, 300, 700, 10_000), fc.integer({ min: 1, max: 2_000_000 })),
  limit: fc.option(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 1_500 })), {
    nil: null,
    freq: 5,
  }),
});

describe('clearing report: property', () => {
  it('holds against the engine allocation on random books (ties, pro rata, market orders)', () => {
    fc.assert(
      fc.property(fc.array(orderArb, { maxLength: 40 }), fc.integer({ min: 0, max: 900 }), (book, ref) => {
        const sim = createSimulator({ maxOrdersPerAuction: 100, referenceFeeBps: formatCents(ref) });
        for (const o of book)
          place(sim, o.side, o.amountCents, o.limit === null ? null : formatCents(o.limit));
        const auction = sim.state.auctions.get(1);
        const input: ClearingOrder[] = (auction?.orders ?? []).map((o) => ({
          side: o.orderType,
          amountCents: o.amountCents,
          limitCentiBps: o.limitCentiBps,
          createdAt: o.createdAt,
          orderId: o.orderId,
        }));
        const cleared = sim.clearAuction({ settle: false });
        const r = sim.auctionReport(cleared.auctionId) as ClearingReport;
        const expected = clearOrders(input, { referenceFeeCentiBps: ref });
        expect(centi(r.clearingFeeBps)).toBe(expected.clearingFeeCentiBps);
        expect(r.clearingFeeBps).toBe(cleared.clearingFeeBps);
        expect(cents(r.matchedVolume)).toBe(expected.matchedCents);
        const matched = expected.matchedCents;
        const sums = { BURN: 0, MINT: 0 };
        r.orders.forEach((o, i) => {
          const filled = cents(o.filledAmount);
          expect(filled).toBe(expected.filledCents[i]);
          expect(filled).toBe(sim.state.orders.get(o.orderId)?.filledCents);
          sums[o.orderType] += filled;
          if (filled > 0) expect(o.eligible).toBe(true);
          const full = filled === cents(o.amount);
          expect(o.nearMiss === undefined).toBe(full);
          if (o.nearMiss) {
            // At its nearMiss, the rest unchanged, the order fills in full: checked by the rule itself.
            const at = centi(o.nearMiss.feeBps);
            const own = input[i]?.limitCentiBps as number;
            expect(o.orderType === 'BURN' ? at > own : at < own).toBe(true);
            const moved = input.map((x, j) => (j === i ? { ...x, limitCentiBps: at } : x));
            expect(clearOrders(moved, { referenceFeeCentiBps: ref }).filledCents[i]).toBe(cents(o.amount));
          }
        });
        expect(sums).toEqual({ BURN: matched, MINT: matched });
        // Pro rata: one level per side; its fills add up to what it shared, each within a cent of
        // its exact share; eligible orders strictly better than the level filled in full.
        for (const side of ['BURN', 'MINT'] as const) {
          const members = r.orders.filter((o) => o.orderType === side && o.proRata);
          if (members.length === 0) continue;
          const pr = members[0]?.proRata as NonNullable<(typeof members)[0]['proRata']>;
          expect(new Set(members.map((o) => o.proRata?.levelFeeBps)).size).toBe(1);
          expect(members.reduce((s, o) => s + cents(o.filledAmount), 0)).toBe(cents(pr.sharedAmount));
          for (const o of members) {
            const exact =
              (BigInt(cents(o.amount)) * BigInt(cents(pr.sharedAmount))) / BigInt(cents(pr.levelAmount));
            expect(
              BigInt(cents(o.filledAmount)) - exact >= 0n && BigInt(cents(o.filledAmount)) - exact <= 1n,
            ).toBe(true);
          }
          for (const o of r.orders) {
            if (o.orderType !== side || o.proRata || !o.eligible) continue;
            const level = pr.levelFeeBps === null ? null : centi(pr.levelFeeBps);
            const limit = o.feeBps === null ? null : centi(o.feeBps);
            const better =
              limit === null
                ? level !== null
                : level !== null && (side === 'BURN' ? limit > level : limit < level);
            if (better) expect(o.filledAmount).toEqual(o.amount);
          }
        }
        // Curves: the chosen regions reach the most volume of any region, and bracket the fee.
        const volume = (c: ClearingReport['curves'][0]) => Math.min(cents(c.burn), cents(c.mint));
        const best = Math.max(...r.curves.map(volume));
        expect(best).toBe(matched);
        const chosen = r.curves.filter((c) => c.chosen);
        expect(chosen.length).toBeGreaterThan(0);
        for (const c of chosen) expect(volume(c)).toBe(best);
        const lo = chosen[0]?.fromBps;
        const hi = chosen[chosen.length - 1]?.toBps;
        if (r.rule !== 'reference-fee') {
          if (lo) expect(centi(r.clearingFeeBps)).toBeGreaterThanOrEqual(centi(lo));
          if (hi) expect(centi(r.clearingFeeBps)).toBeLessThanOrEqual(centi(hi));
        }
        sim.settleAuction();
        expect(sim.checkInvariants()).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
