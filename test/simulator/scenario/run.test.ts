import { readFileSync } from 'node:fs';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { DroppedResponseError } from '../../../src/simulator/http/handler.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Driver } from '../helpers.js';

const example = (name: string) => parse(readFileSync(`examples/scenarios/${name}`, 'utf8'));

/** The bot's one call, and what the request path answered (status and venue code, or dropped). */
async function account(sim: Simulator, apiKey: string = SEEDED.burner.apiKey): Promise<string> {
  try {
    const res = await sim.handle(
      new Request('http://sim.test/v1/match/account', { headers: { authorization: `Bearer ${apiKey}` } }),
    );
    const body = (await res.json()) as { code?: number };
    return body.code === undefined ? String(res.status) : `${res.status} code ${body.code}`;
  } catch (err) {
    if (err instanceof DroppedResponseError) return 'dropped';
    throw err;
  }
}

/** Participant orders in a cleared auction (entities named noise-… and lp-…). */
function participantOrders(sim: Simulator, auctionId: number): number {
  const report = sim.auctionReport(auctionId);
  if (!report) throw new Error(`auction ${auctionId} has no report`);
  return report.orders.filter((o) => /^(noise|lp)-/.test(o.entityName)).length;
}

describe('a scenario at run time', () => {
  it('two runs of one scenario with one seed on the manual clock give byte-identical logs', async () => {
    const run = async (seed?: number) => {
      const scenario = example('busy-then-one-sided.yaml');
      const sim = createSimulator({ scenario, eventLog: 1_000_000, ...(seed === undefined ? {} : { seed }) });
      const d = new Driver(sim);
      for (let i = 0; i < 24; i++) {
        const idempotencyKey = `00000000-0000-4000-8000-${(1000 + i).toString(16).padStart(12, '0')}`;
        expect((await d.burn('1500.00', { feeBps: '6', idempotencyKey })).status).toBe(202);
        sim.advance(10_000);
      }
      expect(sim.checkInvariants()).toEqual([]);
      return sim.eventLog()?.ndjson ?? '';
    };
    const [a, b, other] = [await run(), await run(), await run(8)];
    expect(a.length).toBeGreaterThan(100_000);
    expect(a).toBe(b);
    expect(other).not.toBe(a);
    const controls = a
      .split('\n')
      .filter((l) => l.includes('"action":"scenario"'))
      .map((l) => JSON.parse(l).args);
    expect(controls).toEqual([
      { auctionId: 1, market: 'busy' },
      { auctionId: 21, market: { preset: 'one-sided', noise: { count: 100 } } },
    ]);
  });

  it('a scheduled fault takes effect in exactly the named auction, and the log records it there', async () => {
    const sim = createSimulator({ scenario: example('fault-drill.yaml'), eventLog: true });
    const seen: string[] = [];
    for (let auction = 1; auction <= 7; auction++) {
      expect(sim.getState().auction.auctionId).toBe(auction);
      seen.push(`${auction}: ${await account(sim)} ${await account(sim)} ${await account(sim)}`);
      sim.clearAuction();
    }
    expect(seen).toEqual([
      '1: 200 200 200',
      '2: 200 200 200',
      '3: 503 code -1 503 code -1 503 code -1',
      '4: 200 200 200',
      '5: 200 200 200',
      '6: dropped dropped 200',
      '7: 200 200 200',
    ]);
    const lines = (sim.eventLog()?.ndjson ?? '').trimEnd().split('\n');
    const at = (auctionId: number) =>
      lines.findIndex((l) => l.includes('"auction.opened"') && l.includes(`"auctionId":${auctionId},`));
    const line = lines.findIndex((l) => l.includes('"faults":{"errorRate":1}'));
    expect(JSON.parse(lines[line] ?? '')).toEqual({
      at: '2026-01-05T09:00:00.000Z',
      type: 'control',
      action: 'scenario',
      args: { auctionId: 3, faults: { errorRate: 1 } },
    });
    // Written as auction 3 opens: after its opened event, before auction 4's.
    expect(line).toBeGreaterThan(at(3));
    expect(line).toBeLessThan(at(4));
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('auction 1 faults hold from creation and after a reset; failSettlement applies to its auctions', async () => {
    const scenario = {
      version: 1 as const,
      faults: [
        { atAuction: 1, set: { venueWalletInvalid: true } },
        { atAuction: 2, set: { failSettlement: 1 } },
        { atAuction: 3, set: {} },
      ],
    };
    const sim = createSimulator({ scenario });
    expect(await account(sim)).toBe('400 code 139001');
    const d = new Driver(sim);
    // A settlement happens in the auction after its own (settleMs after the clear): auction 1's
    // runs in auction 2, under failSettlement; auction 2's in auction 3, under none.
    const ids: string[] = [];
    for (let auction = 1; auction <= 2; auction++) {
      const burn = await d.burn('1000.00', { feeBps: '5' });
      expect(burn.status).toBe(202);
      expect((await d.mint('1000.00', { feeBps: '5' })).status).toBe(202);
      ids.push((burn.body as { data: { orderId: string } }).data.orderId);
      sim.clearAuction();
      expect(sim.faults).toEqual(auction === 1 ? { failSettlement: 1 } : {});
    }
    const orders = await Promise.all(ids.map((id) => d.order(id, SEEDED.burner.apiKey)));
    expect(orders.map((o) => o.status)).toEqual(['failed', 'filled']);
    sim.reset();
    expect(sim.faults).toEqual({ venueWalletInvalid: true });
    expect(await account(sim)).toBe('400 code 139001');
  });

  it('the market changes at the named auctions: off, calm from 3, off again from 5', async () => {
    const sim = createSimulator({
      scenario: {
        version: 1,
        phases: [
          { fromAuction: 3, market: 'calm' },
          { fromAuction: 5, market: null },
        ],
      },
    });
    for (let i = 0; i < 6; i++) sim.clearAuction();
    const counts = [1, 2, 3, 4, 5, 6].map((id) => participantOrders(sim, id) > 0);
    expect(counts).toEqual([false, false, true, true, false, false]);
    expect(sim.getState().market?.participants).toBe(22);
  });

  it('sets seeded balances and adds entities with their own keys; the books still balance', async () => {
    const sim = createSimulator({ scenario: example('thin-mint-side.json') });
    const d = new Driver(sim);
    expect((await d.account(SEEDED.minter.apiKey)).stablecoin.available).toEqual({
      amount: '50000.00',
      currency: 'USD',
    });
    const two = await d.account('TEST_API_KEY:minter-two:sim');
    expect(two.stablecoin.available).toEqual({ amount: '250000.00', currency: 'USD' });
    const state = sim.getState();
    // Shaped as the seeded ones (docs/MARKET.md, Scenarios): 6 and the entity's number, then the tails.
    const added = state.entities.find((e) => e.name === 'minter-two');
    expect(added).toMatchObject({
      entityId: '60000001-0000-4000-8000-000000000001',
      accountId: '60000001-0000-4000-8000-0000000000ac',
      wallets: [{ id: '60000001-0000-4000-8000-00000000a001' }],
      fiatAccounts: [{ id: '60000001-0000-4000-8000-00000000f001' }],
    });
    expect((await d.mint('300000.00', {}, 'TEST_API_KEY:minter-two:sim')).status).toBe(400);
    expect(sim.checkInvariants()).toEqual([]);
    for (let i = 0; i < 5; i++) sim.clearAuction();
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('a snapshot of a scenario run, restored into a simulator of the same scenario, runs on the same', () => {
    const scenario = {
      version: 1 as const,
      seed: 5,
      clock: { startTime: '2026-01-05T09:00:00Z' },
      phases: [
        { fromAuction: 1, market: 'calm' as const },
        { fromAuction: 7, market: { preset: 'busy' as const, noise: { count: 30 } } },
      ],
      faults: [{ atAuction: 8, set: { failSettlement: 0.5 } }],
    };
    const straight = createSimulator({ scenario });
    for (let i = 0; i < 4; i++) straight.advance(10_000);
    const fork = createSimulator({ scenario });
    fork.restore(JSON.parse(JSON.stringify(straight.snapshot())));
    for (const sim of [straight, fork]) for (let i = 0; i < 6; i++) sim.advance(10_000);
    expect(fork.getState().auction.auctionId).toBe(11);
    expect(JSON.stringify(fork.snapshot())).toBe(JSON.stringify(straight.snapshot()));
    expect(fork.checkInvariants()).toEqual([]);
  });
});
