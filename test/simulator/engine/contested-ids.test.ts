import { checkInvariants, createSimulator, type Simulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { contests, mayBeTaken } from '../../../src/simulator/engine/contested-ids.js';
import { rollChildOrderId } from '../../../src/simulator/engine/ids.js';
import type { Order } from '../../../src/simulator/engine/types.js';
import { participantOrderId } from '../../../src/simulator/engine/market-order-ids.js';
import { BURNER, UncheckedDriver } from '../helpers.js';

// A market placement and a roll ask memory only for ids in state.contestedIds
// (engine/contested-ids.ts); these tests hold what must be there, and that the market and the
// rolls still meet every id a caller took, in memory and after a restore.
const OPTIONS = {
  startTime: Date.parse('2026-01-01T00:00:00Z'),
  seed: 11,
  market: { preset: 'busy', noise: { count: 8 }, liquidity: { count: 1 } },
} as const;

const order = (orderId: string, parentOrderId: string | null = null) => ({ orderId, parentOrderId }) as Order;

describe('contested ids', () => {
  it('holds callers’ orders and the market-shaped ids the market may yet make', () => {
    const key = (auction: number) => participantOrderId(auction, 3, 1);
    // A caller's id of any other shape: a roll may derive it, a caller may reuse it.
    expect(contests(order('00000000-0000-4000-8000-0000000000c1'), 10, false)).toBe(true);
    // The market's own placement: it never makes the key again.
    expect(contests(order(key(10)), 10, true)).toBe(false);
    // A caller under a key of this or a later auction: the market will make it.
    expect(contests(order(key(10)), 10, false)).toBe(true);
    expect(contests(order(key(12)), 10, false)).toBe(true);
    // Of a past auction: no market key meets it (a roll child of that shape asks memory anyway).
    expect(contests(order(key(9)), 10, false)).toBe(false);
    // A roll child: its hashed id only the roll derives; of the market's shape, as a caller's.
    const parent = '00000000-0000-4000-8000-0000000000c2';
    expect(contests(order(rollChildOrderId(parent), parent), 10, false)).toBe(false);
    expect(contests(order(key(11), parent), 10, false)).toBe(true);
  });

  it('a roll child id of the market’s shape asks memory: it may be a market order', async () => {
    const sim = createSimulator(OPTIONS);
    sim.advance(10_000);
    // mayBeTaken reads the engine's own state (a test of engine internals).
    const state = sim.engine.writableState();
    const marketOrder = [...state.orders.values()].find((o) => o.parentOrderId === null);
    const id = String(marketOrder?.orderId);
    expect(state.contestedIds.has(id)).toBe(false);
    // As a roll child's derived id it must be looked up; as a market key it cannot be taken.
    expect(mayBeTaken(state, id, false)).toBe(true);
    expect(mayBeTaken(state, id, true)).toBe(false);
    expect(mayBeTaken(state, rollChildOrderId(id), false)).toBe(false);
    await sim.close();
  });

  it('the market meets a key a bot took, in memory and in a restored fork, as before', async () => {
    const run = async (sim: Simulator, keys: string[]) => {
      const d = new UncheckedDriver(sim);
      for (const idempotencyKey of keys) {
        const r = await d.burn('100.00', { idempotencyKey });
        expect(r.status, r.text).toBe(202);
      }
    };
    const sim = createSimulator(OPTIONS);
    sim.advance(20_000);
    const at = sim.engine.state.currentAuctionId;
    // Rank 0 of participants 1 to 8, three auctions on: the market will make these keys.
    const keys = Array.from({ length: 8 }, (_, n) => participantOrderId(at + 3, n + 1, 0));
    await run(sim, keys);
    for (const id of keys) expect(sim.engine.state.contestedIds.has(id)).toBe(true);
    const doc = JSON.parse(JSON.stringify(sim.snapshot()));
    const fork = createSimulator(OPTIONS);
    fork.restore(doc);
    // Rebuilt from the document: who placed what is not in it, so the bot's keys are there.
    for (const id of keys) expect(fork.engine.state.contestedIds.has(id)).toBe(true);
    for (const s of [sim, fork]) for (let i = 0; i < 5; i++) s.advance(10_000);
    // Each key still names the bot's order, and the market was refused under it (137004).
    for (const s of [sim, fork]) {
      for (const id of keys)
        expect(s.engine.getOrder(BURNER.entityId, { id })).toMatchObject({
          orderId: id,
          amount: { amount: '100.00' },
        });
      expect(checkInvariants(s)).toEqual([]);
    }
    expect(fork.getState().market).toEqual(sim.getState().market);
    expect(sim.getState().market?.refused['137004']).toBeGreaterThanOrEqual(keys.length / 2);
    await Promise.all([sim.close(), fork.close()]);
  });

  it('checkInvariants names a caller’s order missing from contestedIds, and a stale entry', async () => {
    const sim = createSimulator(OPTIONS);
    const id = '00000000-0000-4000-8000-0000000000c3';
    const r = await new UncheckedDriver(sim).burn('100.00', { idempotencyKey: id });
    expect(r.status, r.text).toBe(202);
    expect(checkInvariants(sim)).toEqual([]);
    // Broken on purpose, through the engine's writable state.
    const { contestedIds } = sim.engine.writableState();
    contestedIds.delete(id);
    expect(checkInvariants(sim)).toEqual([`order ${id} is not in contestedIds`]);
    contestedIds.add(id);
    contestedIds.add('gone');
    expect(checkInvariants(sim)).toEqual(['contestedIds names gone, not in memory']);
    await sim.close();
  });
});
