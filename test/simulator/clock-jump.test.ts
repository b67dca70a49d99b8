import fc from 'fast-check';
import type { SimulatorEvent } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { rollChildOrderId } from '../../src/simulator/engine/ids.js';
import { BURNER, type Driver, MINTER, newDriver, type Reply } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `n` BURN orders of the burner that roll and find no counterparty (no MINT rests). */
async function restingRolls(d: Driver, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await d.placed(d.burn('100.00', { feeBps: '3', postFillAction: 'roll' })));
  return ids;
}

function marketLog(d: Driver): Array<{ event: string; auctionId: number; clearsAt: string }> {
  const log: Array<{ event: string; auctionId: number; clearsAt: string }> = [];
  d.sim.onEvent((e: SimulatorEvent) => {
    if (e.channel !== 'market') return;
    const a = e.data as { auctionId: number; clearsAt: string };
    log.push({ event: e.event, auctionId: a.auctionId, clearsAt: a.clearsAt });
  });
  return log;
}

describe('a clock jump costs what the resting orders need', () => {
  it('one hour over 50 resting roll orders clears one auction, not 360, and makes no order per cycle', async () => {
    const d = newDriver();
    const roots = await restingRolls(d, 50);
    const market = marketLog(d);
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: HOUR })).status).toBe(200);

    // Work done: auction 1 can trade nothing (one side only, every order rolls), so it is held open
    // across the cycles in which nothing could trade and clears once, where auction 360 would have.
    expect(market.filter((e) => e.event === 'auction.cleared').map((e) => e.auctionId)).toEqual([1]);
    const state = d.sim.getState();
    expect(state.auction).toMatchObject({
      auctionId: 361,
      phase: 'open',
      opensAt: '2026-01-01T01:00:00.000Z',
    });
    expect(state.settlingAuctionId).toBe(1);
    const list = await d.list(BURNER.apiKey, '?pageSize=100');
    expect(list.pagination.total).toBe(50);
    // Cleared at 01:00:00 having matched nothing: settling, with no fill (the spec: "Null until the
    // order is matched").
    for (const o of list.orders)
      expect(o).toMatchObject({
        auctionId: 1,
        status: 'settling',
        updatedAt: '2026-01-01T01:00:00.000Z',
        fill: null,
      });
    // The books are as a full run leaves them: the remainders stay reserved, nothing moved.
    expect(d.balances('burner')).toMatchObject({ wallet: '100000000.00', walletReserved: '5000.00' });

    // The settlement then rolls each order into the auction open at that time, with the derived id.
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1_000 });
    const byId = new Map((await d.list(BURNER.apiKey, '?pageSize=100')).orders.map((o) => [o.orderId, o]));
    expect(byId.size).toBe(100);
    for (const root of roots) {
      const childId = rollChildOrderId(root);
      expect(byId.get(root)).toMatchObject({ status: 'unfilled', lineage: { childOrderId: childId } });
      expect(byId.get(childId)).toMatchObject({
        auctionId: 361,
        status: 'pending',
        createdAt: '2026-01-01T01:00:01.000Z',
        amount: { amount: '100.00', currency: 'USD' },
        lineage: { parentOrderId: root, childOrderId: null },
      });
    }
    expect((await d.account(BURNER.apiKey)).exposure).toEqual({
      activeOrderCount: 50,
      mintOrderCount: 0,
      burnOrderCount: 50,
    });
  });

  it('the longest jump a request may ask for (7 days) still clears one auction', async () => {
    const d = newDriver();
    await restingRolls(d, 50);
    const market = marketLog(d);
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: 7 * DAY })).status).toBe(200);
    expect(market.filter((e) => e.event === 'auction.cleared')).toHaveLength(1);
    expect((await d.list(BURNER.apiKey)).pagination.total).toBe(50);
    // Auction ids still count elapsed cycles: 7 days of 10 s cycles.
    expect(d.sim.getState().auction.auctionId).toBe(7 * 8_640 + 1);
    expectError400(await d.call('POST', '/_sim/clock/advance', null, { ms: 7 * DAY + 1 }));
  });

  it('a held auction reports its own times: its events, the snapshot, and lastCleared', async () => {
    const d = newDriver();
    await restingRolls(d, 2);
    expect(d.sim.getState().auction.clearsAt).toBe('2026-01-01T00:00:10.000Z');
    const market = marketLog(d);
    await d.call('POST', '/_sim/clock/advance', null, { ms: HOUR + 1_000 });
    expect(market.map((e) => `${e.event} ${e.auctionId} ${e.clearsAt}`)).toEqual([
      'auction.locked 1 2026-01-01T01:00:00.000Z',
      'auction.cleared 1 2026-01-01T01:00:00.000Z',
      'auction.opened 361 2026-01-01T01:00:10.000Z',
      'auction.settled 1 2026-01-01T01:00:00.000Z',
    ]);
    const snapshot = d.sim.marketSnapshot();
    expect(snapshot.lastClear).toMatchObject({ auctionId: 1, clearedAt: '2026-01-01T01:00:00.000Z' });
    expect(snapshot.settling).toBeNull();
    expect(snapshot.auction.auctionId).toBe(361);
  });

  it('a book that crosses trades as usual first; only what cannot trade any more is held', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('1000.00', { feeBps: '5', postFillAction: 'roll' }));
    await d.placed(d.mint('400.00', { feeBps: '5', postFillAction: 'roll' }));
    const market = marketLog(d);
    await d.call('POST', '/_sim/clock/advance', null, { ms: HOUR });
    // Auction 1 trades; auction 2 then holds only the BURN remainder, which nothing can match.
    expect(market.filter((e) => e.event === 'auction.cleared').map((e) => e.auctionId)).toEqual([1, 2]);
    expect(await d.order(burn, BURNER.apiKey)).toMatchObject({
      status: 'partial_fill',
      fill: { filledAmount: { amount: '400.00' }, unfilledAmount: { amount: '600.00' } },
      lineage: { childOrderId: rollChildOrderId(burn) },
    });
    expect(await d.order(rollChildOrderId(burn), BURNER.apiKey)).toMatchObject({
      auctionId: 2,
      status: 'settling',
      amount: { amount: '600.00' },
    });
  });

  it('ends in the same books as stepping through every auction (random books, no settlement fault)', async () => {
    const order = fc.record({
      side: fc.constantFrom('BURN' as const, 'MINT' as const),
      dollars: fc.integer({ min: 1, max: 20 }),
      fee: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
      postFillAction: fc.constantFrom('roll' as const, 'cancel' as const, 'fallback' as const),
    });
    let held = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(order, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 30_000, max: 600_000 }),
        async (orders, ms) => {
          const jump = newDriver({ maxOrdersPerAuction: 20 });
          const steps = newDriver({ maxOrdersPerAuction: 20 });
          for (const d of [jump, steps]) {
            for (const [i, o] of orders.entries()) {
              const extra = {
                // The same ids in both runs, so that fallback records and listings compare.
                idempotencyKey: `00000000-0000-4000-8000-${(0xc10c0000 + i).toString(16).padStart(12, '0')}`,
                feeBps: o.fee === null ? null : String(o.fee),
                postFillAction: o.postFillAction,
              };
              // One entity per side (the self-match rule): the burner burns, the minter mints.
              const r = await (o.side === 'BURN'
                ? d.burn(`${o.dollars}00.00`, extra)
                : d.mint(`${o.dollars}00.00`, extra));
              expect(r.status).toBe(202);
            }
          }
          const jumpClears = marketLog(jump);
          const stepClears = marketLog(steps);
          await jump.call('POST', '/_sim/clock/advance', null, { ms });
          // Steps of at most 10 s: never three whole cycles, so every auction runs.
          for (let left = ms; left > 0; left -= 10_000)
            await steps.call('POST', '/_sim/clock/advance', null, { ms: Math.min(10_000, left) });

          const a = jump.sim.getState();
          const b = steps.sim.getState();
          expect({ ...a, settlingAuctionId: null }).toEqual({ ...b, settlingAuctionId: null });
          for (const who of [BURNER, MINTER]) {
            expect(await jump.account(who.apiKey)).toEqual(await steps.account(who.apiKey));
            expect(await live(jump, who.apiKey)).toEqual(await live(steps, who.apiKey));
          }
          const cleared = (log: typeof jumpClears) => log.filter((e) => e.event === 'auction.cleared').length;
          expect(cleared(jumpClears)).toBeLessThanOrEqual(cleared(stepClears));
          if (cleared(jumpClears) < cleared(stepClears)) held++;
          await jump.sim.close();
          await steps.sim.close();
        },
      ),
      { numRuns: 25 },
    );
    // Not vacuous: most runs held an auction (a one-run book that crosses every cycle cannot).
    expect(held).toBeGreaterThan(10);
  });
});

/** The orders still resting or settling, as (side, amount, fee, status): what a full run would also hold. */
async function live(d: Driver, apiKey: string): Promise<string[]> {
  const out: string[] = [];
  for (const status of ['pending', 'settling']) {
    const page = await d.list(apiKey, `?status=${status}&pageSize=100`);
    expect(page.pagination.total).toBeLessThanOrEqual(100);
    for (const o of page.orders) out.push(`${o.orderType} ${o.amount.amount} ${o.feeBps} ${o.status}`);
  }
  return out.sort();
}

/** 400 code 2, naming the field and the limit. */
function expectError400(r: Reply): void {
  expect(r.status).toBe(400);
  expect((r.body as { code: number }).code).toBe(2);
  expect(r.body).toMatchObject({ errors: [{ location: 'ms', constraints: { maximum: 7 * DAY } }] });
}
