import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MarketConfigError, resolveMarket } from '../../src/simulator/market/config.js';

const START = '2026-01-01T00:00:00Z';

/** Clears `n` auctions, checking the books after each; returns what each cleared at. */
function run(sim: Simulator, n: number) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = sim.clearAuction();
    expect(sim.checkInvariants()).toEqual([]);
    out.push(`${a.auctionId} ${a.clearingFeeBps} ${a.matchedVolume.amount} ${a.fillsCount}/${a.orderCount}`);
  }
  return out;
}

describe('background market', () => {
  it('is off by default: only the seeded entities, an empty book', () => {
    const sim = createSimulator({ startTime: START });
    expect(sim.getState().entities.map((e) => e.name)).toEqual([
      'burner',
      'minter',
      'ineligible',
      'noaccount',
    ]);
    expect(sim.getState().market).toBeNull();
    expect(sim.clearAuction().orderCount).toBe(0);
  });

  it('is deterministic by seed, and another seed gives another market', () => {
    const a = run(createSimulator({ startTime: START, market: 'busy', seed: 7 }), 15);
    const b = run(createSimulator({ startTime: START, market: 'busy', seed: 7 }), 15);
    const c = run(createSimulator({ startTime: START, market: 'busy', seed: 8 }), 15);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    // It trades: most auctions match something, at fees that move.
    expect(a.filter((line) => !line.includes(' 0.00 ')).length).toBeGreaterThan(10);
    expect(new Set(a.map((line) => line.split(' ')[1])).size).toBeGreaterThan(3);
  });

  // Pinned bytes: the log (every order event, in order, with ids, amounts, fees and fills) and the
  // placement counts of two markets, as the engine made them before its placement path was made
  // cheaper (the integer entry placeParsed, the id table): a change here is a change of behaviour.
  it('gives the same log, byte for byte, as it always has for this seed', () => {
    const digest = (market: unknown, options: { maxOrdersPerAuction?: number } = {}) => {
      const sim = createSimulator({
        startTime: START,
        clock: 'manual',
        seed: 7,
        eventLog: 100_000,
        market,
        ...options,
      } as never);
      for (let i = 0; i < 12; i++) sim.advance(10_000);
      const log = sim.eventLog()?.ndjson ?? '';
      return [createHash('sha256').update(log).digest('hex').slice(0, 16), log.length, sim.getState().market];
    };
    expect(digest({ preset: 'busy', noise: { count: 40 } })).toEqual([
      '3b48df819f1fc0bf',
      389_556,
      { participants: 44, placed: 742, refused: {} },
    ]);
    // Small balances and a cap of 3: refusals 137001 and 137008, and rolls cut short.
    const tight = {
      preset: 'busy',
      noise: { count: 30, ordersPerAuction: { min: 2, max: 6 }, maxResting: 3 },
      balance: '150000.00',
    };
    expect(digest(tight, { maxOrdersPerAuction: 3 })).toEqual([
      'ab07e3d82255af6b',
      246_917,
      { participants: 34, placed: 343, refused: { '137001': 196, '137008': 40 } },
    ]);
  });

  it('participants are entities with their own keys, balances and funding sides', () => {
    const sim = createSimulator({ startTime: START, market: 'calm' });
    const state = sim.getState();
    const noise = state.entities.filter((e) => e.name.startsWith('noise-'));
    const lps = state.entities.filter((e) => e.name.startsWith('lp-'));
    expect([noise.length, lps.length]).toEqual([20, 2]);
    expect(noise[0]).toMatchObject({
      entityId: '50000000-0000-4000-8000-000000000001',
      apiKey: 'TEST_API_KEY:noise-0001:sim',
      fundingSide: 'BURN',
      venueBalance: { amount: '1000000000.00' },
      wallets: [{ balance: { amount: '1000000000.00' } }],
    });
    expect(noise[1]?.fundingSide).toBe('MINT');
    expect(sim.entityForApiKey('TEST_API_KEY:lp-01:sim')?.name).toBe('lp-01');
    expect(state.market).toMatchObject({ participants: 22 });
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('names participants in sequence, in decimal as docs/MARKET.md does, each name once', () => {
    const sim = createSimulator({ startTime: START, market: 'busy' });
    const names = sim.getState().entities.map((e) => e.name);
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const noise = Array.from({ length: 200 }, (_, i) => `noise-${pad(i + 1, 4)}`);
    const lps = Array.from({ length: 4 }, (_, i) => `lp-${pad(i + 1, 2)}`);
    expect(names.filter((n) => n.startsWith('noise-') || n.startsWith('lp-'))).toEqual([...noise, ...lps]);
    // Not the hexadecimal of before (noise-000a for the tenth): the tenth is noise-0010.
    expect(names).toContain('noise-0010');
    expect(new Set(names).size).toBe(names.length);
    expect(sim.entityForApiKey('TEST_API_KEY:noise-0200:sim')?.name).toBe('noise-0200');
  });

  it('acts as each auction opens, also across a manual-clock jump (no auction skipped)', () => {
    const sim = createSimulator({ startTime: START, market: 'busy' });
    sim.advance(10_000 * 6);
    for (let id = 1; id <= 6; id++) expect(sim.state.auctions.get(id)?.orders.length).toBeGreaterThan(0);
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('goes through the venue rules: the per-auction cap and balances refuse, and are counted', () => {
    const capped = createSimulator({
      startTime: START,
      maxOrdersPerAuction: 2,
      market: { noise: { count: 4, activity: 1, ordersPerAuction: { min: 5, max: 5 } } },
    });
    run(capped, 2);
    expect(capped.getState().market?.refused['137008']).toBeGreaterThan(0);
    const poor = createSimulator({
      startTime: START,
      market: {
        noise: { count: 4, activity: 1, size: { min: '1000.00', max: '1000.00' } },
        balance: '2500.00',
      },
    });
    run(poor, 6);
    expect(poor.getState().market?.refused['137001']).toBeGreaterThan(0);
  });

  it('one-sided: only BURN noise traders place; the liquidity providers quote both sides', () => {
    const sim = createSimulator({ startTime: START, market: 'one-sided' });
    sim.clearAuction();
    sim.clearAuction();
    const names = new Map(sim.getState().entities.map((e) => [e.entityId, e.name]));
    for (const o of sim.state.orders.values()) {
      const name = names.get(o.entityId) ?? '';
      if (name.startsWith('noise-')) expect(o.orderType).toBe('BURN');
    }
    const lpSides = [...sim.state.orders.values()]
      .filter((o) => names.get(o.entityId)?.startsWith('lp-'))
      .map((o) => o.orderType);
    expect(new Set(lpSides)).toEqual(new Set(['BURN', 'MINT']));
  });

  it("a bot's order trades against them, and their orders move the market channel", async () => {
    const mock = await createMockVenue({ startTime: START, market: 'busy' });
    try {
      const cleared: number[] = [];
      mock.simulator.onEvent((e) => {
        if (e.channel === 'market' && e.event === 'auction.cleared')
          cleared.push((e.data as { orderCount: number }).orderCount);
      });
      const burner = mock.client('burner');
      const { orderId } = await burner.orders.place({
        orderType: 'BURN',
        amount: { amount: '1000.00', currency: 'USD' },
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      mock.clearAuction();
      const order = await burner.orders.retrieve(orderId);
      expect(order.status).toBe('filled');
      expect(cleared[0]).toBeGreaterThan(1);
      expect(mock.simulator.checkInvariants()).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('reset replays the same market from the start', () => {
    const sim = createSimulator({ startTime: START, market: 'calm' });
    const first = run(sim, 5);
    sim.reset();
    expect(run(sim, 5)).toEqual(first);
  });

  it('refuses a configuration with a mistake, naming the path and the rule', () => {
    expect(() => resolveMarket('stormy')).toThrow(
      'market must be one of calm, busy, one-sided; got "stormy"',
    );
    expect(() => resolveMarket({ noise: { activity: 2 } })).toThrow(
      'market.noise.activity must be at most 1',
    );
    expect(() => resolveMarket({ liquidity: { size: { min: '150.00', max: '500.00' } } })).toThrow(
      'market.liquidity.size must be positive multiples of 100.00',
    );
    expect(() => resolveMarket({ noise: { bogus: 1 } })).toThrow(MarketConfigError);
    expect(() => createSimulator({ market: { preset: 'calm', balance: '1e9' } })).toThrow(/market\.balance/);
  });
});
