import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { rollChildOrderId } from '../../../src/simulator/engine/ids.js';
import { participantOrderId } from '../../../src/simulator/engine/market-order-ids.js';
import { BURNER, UncheckedDriver } from '../helpers.js';

// A market placement's key is looked up in the file only when someone else used it before the
// market made it (store/kept-ids.ts); these tests place such keys first, as a bot could.
const START = Date.parse('2026-01-01T00:00:00Z');
const OPTIONS = {
  startTime: START,
  seed: 7,
  market: { preset: 'busy', noise: { count: 8 }, liquidity: { count: 1 } },
} as const;
const dir = mkdtempSync(join(tmpdir(), 'match-venue-market-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const advance = (sims: Simulator[], n: number) => {
  for (let i = 0; i < n; i++) for (const s of sims) s.advance(10_000);
};

/** A store on `name` that evicts after one auction. */
const storeOf = (name: string) => ({ file: join(dir, name), retainMs: 10_000 });

/** A simulator without a store and one with, run `n` auctions alike. */
function twins(name: string, n: number): [Simulator, Simulator] {
  const pair: [Simulator, Simulator] = [
    createSimulator(OPTIONS),
    createSimulator({ ...OPTIONS, store: storeOf(name) }),
  ];
  advance(pair, n);
  return pair;
}

/** What the market did and what each key names, as the simulator tells it. */
function outcome(sim: Simulator, keys: string[]) {
  const orders = keys.map((id) => {
    try {
      return sim.engine.getOrder(BURNER.entityId, { id });
    } catch (err) {
      return (err as Error).message;
    }
  });
  return { market: sim.getState().market, orders };
}

describe('store: reused keys', () => {
  it('a key a bot used before the market made it is refused to the market as without a store', async () => {
    const [memory, stored] = twins('keys.db', 2);
    const current = stored.engine.state.currentAuctionId;
    // The burner places, now, under keys the market will make 6 to 9 auctions on (rank 0 of
    // participants 1 to 6): orders of the current auction, cleared and evicted long before.
    const keys: string[] = [];
    for (let a = current + 6; a <= current + 9; a++)
      for (let n = 1; n <= 6; n++) keys.push(participantOrderId(a, n, 0));
    for (const sim of [memory, stored]) {
      const d = new UncheckedDriver(sim);
      for (const idempotencyKey of keys) {
        const r = await d.burn('100.00', { idempotencyKey });
        expect(r.status, r.text).toBe(202);
      }
    }
    advance([memory, stored], 5);
    // In the file only, before the market reaches their auctions.
    expect(keys.filter((id) => stored.engine.state.orders.has(id))).toEqual([]);
    expect(keys.every((id) => memory.engine.state.orders.has(id))).toBe(true);
    // Stopped and resumed here: the store knows the keys from its checkpoint (`market_keys`).
    await stored.close();
    const resumed = createSimulator({ store: storeOf('keys.db') });
    advance([memory, resumed], 6);
    const [got, want] = [outcome(resumed, keys), outcome(memory, keys)];
    expect(got.market).toEqual(want.market);
    expect(got).toEqual(want);
    // The market met the keys: refused as reused (137004), not placed a second time.
    expect(want.market?.refused['137004']).toBeGreaterThan(0);
    await Promise.all([resumed.close(), memory.close()]);
  });

  it('a key reused after its order left memory: the same placement replays, any other is refused', async () => {
    const [memory, stored] = twins('replay.db', 1);
    const idempotencyKey = '00000000-0000-4000-8000-0000000000a1';
    const place = (sim: Simulator, amount: string, extra: Record<string, unknown>) =>
      new UncheckedDriver(sim).burn(amount, { idempotencyKey, ...extra });
    for (const sim of [memory, stored])
      expect((await place(sim, '100.00', { feeBps: '5' })).status).toBe(202);
    advance([memory, stored], 4);
    expect(stored.engine.state.orders.has(idempotencyKey)).toBe(false);
    // The limit, the amount and the election each count, from the file as from memory.
    const tries: [string, Record<string, unknown>][] = [
      ['100.00', { feeBps: '5' }],
      ['100.00', { feeBps: '2' }],
      ['100.00', {}],
      ['200.00', { feeBps: '5' }],
      ['100.00', { feeBps: '5', postFillAction: 'roll' }],
    ];
    const answers = async (sim: Simulator) => {
      const out: unknown[] = [];
      for (const [amount, extra] of tries) {
        const r = await place(sim, amount, extra);
        out.push([r.status, r.body]);
      }
      return out;
    };
    const [got, want] = [await answers(stored), await answers(memory)];
    expect(got).toEqual(want);
    expect(want.map((a) => (a as [number])[0])).toEqual([202, 409, 409, 409, 409]);
    await Promise.all([stored.close(), memory.close()]);
  });

  it("a roll child's id a bot used before, in the file, is derived again as in memory", async () => {
    const [memory, stored] = twins('roll.db', 1);
    // A roll order that never fills (it pays no fee), and an order under the id its sixth roll
    // child would take: that one leaves memory long before the roll reaches it.
    const parent = '00000000-0000-4000-8000-0000000000b1';
    let sixth = parent;
    for (let i = 0; i < 6; i++) sixth = rollChildOrderId(sixth);
    for (const sim of [memory, stored]) {
      const d = new UncheckedDriver(sim);
      const rolled = await d.burn('100.00', { idempotencyKey: parent, feeBps: '0', postFillAction: 'roll' });
      expect(rolled.status, rolled.text).toBe(202);
      const taken = await d.burn('100.00', { idempotencyKey: sixth, feeBps: '5' });
      expect(taken.status, taken.text).toBe(202);
    }
    advance([memory, stored], 4);
    expect(stored.engine.state.orders.has(sixth)).toBe(false);
    advance([memory, stored], 6);
    // The burner's orders, memory and file merged: the same ids, each once.
    const list = async (sim: Simulator) =>
      (await new UncheckedDriver(sim).call('GET', '/v1/match/orders?pageSize=100', BURNER.apiKey)).body;
    const [got, want] = [await list(stored), await list(memory)];
    expect(got).toEqual(want);
    const ids = (want as { data: { orders: { orderId: string }[] } }).data.orders.map((o) => o.orderId);
    expect(ids.filter((id) => id === sixth)).toHaveLength(1);
    expect(ids.length).toBeGreaterThan(8);
    await Promise.all([stored.close(), memory.close()]);
  });
});
