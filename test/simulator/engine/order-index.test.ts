import { createSimulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/simulator/engine/ids.js';
import { OrderIndex } from '../../../src/simulator/engine/order-index.js';
import type { Order } from '../../../src/simulator/engine/types.js';

// state.orders keeps generations (engine/order-index.ts) but must read exactly as one Map in
// creation order: every operation here runs on both and they are compared after each.
const order = (n: number) => ({ orderId: `o-${n}` }) as Order;
const ids = new WeakMap<Order, number>();
let made = 0;
const view = (m: Iterable<[string, Order]>) =>
  [...m].map(([k, o]) => {
    if (!ids.has(o)) ids.set(o, made++);
    return `${k}=${ids.get(o)}`;
  });

describe('order index', () => {
  it('reads as a Map under adds, sets, deletes, seals and generation removals', () => {
    const random = seededRandom(5);
    const pick = (n: number) => Math.floor(random() * n);
    const index = new OrderIndex();
    const map = new Map<string, Order>();
    let next = 0;
    for (let step = 0; step < 4_000; step++) {
      const op = pick(10);
      if (op < 4) {
        const o = order(next++);
        index.add(o.orderId, o);
        map.set(o.orderId, o);
      } else if (op === 4 && next > 0) {
        // A set of a held id keeps its place, in whichever generation holds it (another object).
        const id = `o-${pick(next)}`;
        const o = { orderId: id } as Order;
        index.set(id, o);
        map.set(id, o);
      } else if (op === 5 && next > 0) {
        const id = `o-${pick(next)}`;
        expect(index.delete(id)).toBe(map.delete(id));
      } else if (op === 6) index.seal();
      else if (op === 7) {
        // An eviction's removal: a subsequence of one generation, in its order (at times all of it).
        const gens = index.generations();
        const gen = gens[pick(gens.length)] as ReadonlyMap<string, Order>;
        const all = random() < 0.3;
        const gone = [...gen.values()].filter(() => all || random() < 0.6);
        index.remove(gen, gone);
        for (const o of gone) map.delete([...map].find(([, v]) => v === o)?.[0] ?? '');
      } else if (next > 0) {
        const id = `o-${pick(next + 3)}`;
        expect(index.get(id)).toBe(map.get(id));
        expect(index.has(id)).toBe(map.has(id));
      }
      expect(index.size).toBe(map.size);
      if (step % 50 === 0) {
        expect(view(index)).toEqual(view(map));
        expect([...index.keys()]).toEqual([...map.keys()]);
        expect([...index.values()]).toEqual([...map.values()]);
        const each: string[] = [];
        index.forEach((_, id) => {
          each.push(id);
        });
        expect(each).toEqual([...map.keys()]);
      }
    }
    expect(view(index)).toEqual(view(map));
    expect(index.generations().length).toBeGreaterThan(3);
  });

  it('drops a generation an eviction empties and rebuilds one mostly gone, in order', () => {
    const index = new OrderIndex();
    const orders = Array.from({ length: 10 }, (_, n) => order(n));
    for (const o of orders.slice(0, 4)) index.add(o.orderId, o);
    index.seal();
    for (const o of orders.slice(4, 8)) index.add(o.orderId, o);
    index.seal();
    for (const o of orders.slice(8)) index.add(o.orderId, o);
    const [first, second] = index.generations() as ReadonlyMap<string, Order>[];
    index.remove(first as ReadonlyMap<string, Order>, orders.slice(0, 4));
    expect(index.generations()).toHaveLength(2);
    index.remove(second as ReadonlyMap<string, Order>, [orders[4], orders[5], orders[7]] as Order[]);
    expect(index.generations()).toHaveLength(2);
    expect([...index.keys()]).toEqual(['o-6', 'o-8', 'o-9']);
    expect(index.size).toBe(3);
    // The newest generation, emptied, stays (it takes the next adds).
    const newest = index.generations()[1] as ReadonlyMap<string, Order>;
    index.remove(newest, orders.slice(8));
    expect(index.generations()).toHaveLength(2);
    index.add('o-10', order(10));
    expect([...index.keys()]).toEqual(['o-6', 'o-10']);
  });

  it('under a store, each auction in memory has a generation of its own, and every order is found', async () => {
    const sim = createSimulator({
      clock: 'manual',
      startTime: Date.parse('2026-01-01T00:00:00Z'),
      seed: 3,
      market: { preset: 'busy', noise: { count: 30 }, liquidity: { count: 1 } },
      store: { file: `${process.env.TMPDIR ?? '/tmp'}/order-index-${process.pid}.db`, retainMs: 20_000 },
    });
    // The index's generations are the engine's internals: read from its writable state.
    const state = sim.engine.writableState();
    for (let i = 0; i < 60; i++) sim.advance(10_000);
    // The store turned it on: a generation is one auction's orders, so its eviction drops it whole.
    expect(state.orders.byAuction).toBe(true);
    const auctions = state.orders
      .generations()
      .map((g) => [...new Set([...g.values()].map((o) => o.auctionId))]);
    for (const ids of auctions) expect(ids.length).toBeLessThanOrEqual(1);
    const held = new Set([...state.orders.values()].map((o) => o.auctionId));
    expect(auctions.filter((ids) => ids.length === 1)).toHaveLength(held.size);
    expect(held.size).toBeGreaterThan(1);
    expect(held.size).toBeLessThan(8);
    // The entity lists and the auctions name exactly the orders the index holds.
    const listed = [...state.ordersByEntity.values()].flat();
    expect(listed.length).toBe(state.orders.size);
    for (const o of listed) expect(state.orders.get(o.orderId)).toBe(o);
    await sim.close();
  });
});
