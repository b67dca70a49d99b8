import { readFileSync } from 'node:fs';
import { MatchVenueError } from 'match-venue';
import { createSimulator, type Simulator, SNAPSHOT_VERSION, SnapshotError } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { expandState } from '../../src/simulator/snapshot/compact.js';
import { Driver } from './helpers.js';

const START = '2026-01-01T00:00:00Z';
// Small enough to be quick, busy enough to leave rolls, settling orders and fallbacks behind.
const MARKET = { preset: 'busy', noise: { count: 30 }, liquidity: { count: 2 } } as const;
const FIXTURE = new URL('../fixtures/snapshots/busy-10-after-3.json', import.meta.url);

/** Runs `n` auctions the way a bot would see them, recording every event and checking the books. */
async function runForward(sim: Simulator, n: number) {
  const events: string[] = [];
  const off = sim.onEvent((e) => events.push(JSON.stringify(e)));
  const d = new Driver(sim);
  for (let i = 0; i < n; i++) {
    // A bot of our own trades too, so that its orders, fills and balances are part of the record.
    const idempotencyKey = `00000000-0000-4000-8000-${sim.getState().auction.auctionId.toString(16).padStart(12, '0')}`;
    const postFillAction = i % 2 ? 'roll' : 'fallback';
    await d.placed(d.burn('2500.00', { feeBps: '6', postFillAction, idempotencyKey }));
    sim.advance(4_000);
    sim.clearAuction({ settle: i % 3 !== 0 });
    expect(sim.checkInvariants()).toEqual([]);
  }
  off();
  return { events, state: sim.getState(), snapshot: sim.snapshot() };
}

describe('snapshots', () => {
  it('a restored fork runs forward exactly as the original: orders, balances, events', async () => {
    const original = createSimulator({ startTime: START, market: MARKET, seed: 3 });
    // Settlement failures drawn at a rate: the fork must carry the generator's state too.
    original.setFaults({ failSettlement: 0.2 });
    await runForward(original, 3);
    const doc = JSON.parse(JSON.stringify(original.snapshot()));
    expect(doc).toMatchObject({ format: 'match-venue-sim-snapshot', version: SNAPSHOT_VERSION });

    const straight = await runForward(original, 4);
    // A fresh simulator with nothing in common (no market, another start and seed) becomes the fork.
    const fork = createSimulator({ startTime: '2030-06-01T00:00:00Z', seed: 99 });
    fork.restore(doc);
    expect(fork.checkInvariants()).toEqual([]);
    expect(fork.now()).toBe(doc.clock.now);
    expect(fork.faults).toEqual({ failSettlement: 0.2 });
    const forked = await runForward(fork, 4);

    expect(forked.events.length).toBeGreaterThan(100);
    expect(forked.events).toEqual(straight.events);
    expect(forked.state).toEqual(straight.state);
    expect(forked.snapshot).toEqual(straight.snapshot);
    // The original restored to its own past replays the same future again.
    original.restore(doc);
    expect((await runForward(original, 4)).events).toEqual(straight.events);
  });

  it('over HTTP: POST /_sim/snapshot answers the document, POST /_sim/restore takes it back', async () => {
    const sim = createSimulator({ startTime: START, market: 'calm', seed: 5 });
    sim.clearAuction();
    const post = (path: string, body?: unknown) =>
      sim.handle(
        new Request(`http://127.0.0.1/_sim/${path}`, {
          method: 'POST',
          ...(body === undefined
            ? {}
            : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        }),
      );
    const taken = await post('snapshot');
    expect(taken.status).toBe(200);
    const doc = await taken.json();
    sim.clearAuction();
    sim.clearAuction();
    const restored = await post('restore', doc);
    expect(restored.status).toBe(200);
    expect(
      ((await restored.json()) as { data: { auction: { auctionId: number } } }).data.auction.auctionId,
    ).toBe(2);
    expect(sim.snapshot()).toEqual(doc);
  });

  it('a downstream test starts from a committed fixture', () => {
    const doc = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const sim = createSimulator();
    sim.restore(doc);
    expect(sim.checkInvariants()).toEqual([]);
    const state = sim.getState();
    expect(state.auction.auctionId).toBe(4);
    expect(state.market?.participants).toBe(12);
    // The fixture carries its market: the fork goes on trading with the same participants.
    const next = sim.clearAuction();
    expect(next.orderCount).toBeGreaterThan(0);
    expect(sim.checkInvariants()).toEqual([]);
    // And it is what this version writes: restoring and snapshotting again changes nothing.
    const again = createSimulator();
    again.restore(doc);
    expect(JSON.parse(JSON.stringify(again.snapshot()))).toEqual(doc);
  });

  it('refuses another version, a mistake by path and rule, and a broken reference, changing nothing', async () => {
    const sim = createSimulator({ startTime: START, market: 'calm' });
    sim.clearAuction();
    const doc = JSON.parse(JSON.stringify(sim.snapshot()));
    sim.clearAuction();
    const before = sim.snapshot();
    const refused = (bad: unknown) => {
      try {
        sim.restore(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(SnapshotError);
        expect(err).toBeInstanceOf(MatchVenueError);
        expect(err).toMatchObject({ code: 'SIM_SNAPSHOT_INVALID', kind: 'SIM_SNAPSHOT_INVALID' });
        return (err as SnapshotError).message;
      }
      throw new Error('restore accepted a bad document');
    };
    expect(refused({ ...doc, version: 3 })).toBe(
      'snapshot version 3 is not supported: this simulator reads versions 1 and 2; take the snapshot again with this version',
    );
    expect(refused({ ...doc, format: 'other' })).toMatch(
      /^snapshot format must be "match-venue-sim-snapshot"/,
    );
    const badAmount = structuredClone(doc);
    // Version 2 writes orders as rows under `columns` (amountCents is the fifth); paths name the row.
    badAmount.engine.state.orders.rows[0][4] = 1.5;
    expect(refused(badAmount)).toBe('snapshot engine.state.orders.0.amountCents: must be an integer');
    const dangling = structuredClone(doc);
    dangling.engine.state.auctions[0].orders = ['00000000-0000-4000-8000-00000000dead'];
    expect(refused(dangling)).toBe(
      'snapshot engine.state.auctions.0.orders.0 names order 00000000-0000-4000-8000-00000000dead, not in engine.state.orders',
    );
    const badMarket = structuredClone(doc);
    badMarket.market.config.noise.activity = 2;
    expect(refused(badMarket)).toMatch(/^snapshot market\.config\.noise\.activity /);
    expect(sim.snapshot()).toEqual(before);

    const res = await sim.handle(
      new Request('http://127.0.0.1/_sim/restore', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...doc, version: 0 }),
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: number; message: string; errors: { location: string }[] };
    expect(body.code).toBe(2);
    expect(body.message).toContain('snapshot version 0 is not supported');
    expect(body.errors[0]?.location).toBe('version');
    expect(sim.snapshot()).toEqual(before);
  });

  it('writes orders compactly: a busy market after 12 auctions, under 250 bytes an order', () => {
    const sim = createSimulator({ startTime: START, market: 'busy' });
    for (let i = 0; i < 12; i++) sim.clearAuction();
    const text = JSON.stringify(sim.snapshot());
    const orders = sim.engine.state.orders.size;
    expect(orders).toBeGreaterThan(5_000);
    // Version 1 took 615 bytes an order (4.8 MB here): key names, ids spelled out, three copies of each id.
    expect(text.length / orders).toBeLessThan(250);
    const doc = JSON.parse(text);
    expect(doc.engine.state.ordersByEntity).toBeUndefined();
    expect(doc.engine.state.auctions.every((a: object) => !('orders' in a))).toBe(true);
  });

  it('still restores version 1 (the store checkpoints, earlier files) to the same simulator', async () => {
    const original = createSimulator({ startTime: START, market: MARKET, seed: 8 });
    await runForward(original, 3);
    const v2 = JSON.parse(JSON.stringify(original.snapshot()));
    const v1 = { ...v2, version: 1, engine: { ...v2.engine, state: expandState(v2.engine.state) } };
    expect(v1.engine.state.orders[0]).toHaveProperty('orderId');
    const fork = createSimulator();
    fork.restore(v1);
    expect(JSON.parse(JSON.stringify(fork.snapshot()))).toEqual(v2);
    expect(fork.checkInvariants()).toEqual([]);
  });
});
