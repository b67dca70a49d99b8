import { describe, expect, it } from 'vitest';
import { rollChildOrderId, seededRandom } from '../../../src/simulator/engine/ids.js';
import { participantOrderId } from '../../../src/simulator/engine/market-order-ids.js';
import { OrderIndex } from '../../../src/simulator/engine/order-index.js';
import type { Order } from '../../../src/simulator/engine/types.js';

// state.orders looks a key of the market's shape up in its auction's Map alone and keeps the few
// orders that break that rule apart (engine/order-index.ts); it must answer exactly as one Map in
// creation order does: every operation runs on both, and every id ever made (and some never made)
// is asked of both after each.
const order = (orderId: string, auctionId: number, parentOrderId: string | null = null) =>
  ({ orderId, auctionId, parentOrderId }) as Order;

describe('order index', () => {
  it('answers get, has, placed, size and iteration as one Map, under adds and evictions', () => {
    const random = seededRandom(5);
    const pick = (n: number) => Math.floor(random() * n);
    const index = new OrderIndex();
    const map = new Map<string, Order>();
    const asked = new Set<string>(['00000000-0000-4000-8000-000000000000']);
    let auction = 1;
    let caller = 0;
    const add = (o: Order) => {
      if (map.has(o.orderId)) return;
      index.add(o.orderId, o);
      map.set(o.orderId, o);
    };
    for (let step = 0; step < 1_200; step++) {
      const op = pick(12);
      const held = [...map.values()];
      if (op < 5) add(order(participantOrderId(auction, 1 + pick(40), pick(4)), auction));
      else if (op === 5) {
        // A caller's key: its own shape, or the market's for this, a past or a later auction.
        const shaped = participantOrderId(Math.max(1, auction + pick(7) - 3), 1 + pick(40), pick(4));
        add(order(pick(2) === 0 ? shaped : `caller-${caller++}`, auction));
      } else if (op === 6 && held.length > 0) {
        const parent = held[pick(held.length)] as Order;
        add(order(rollChildOrderId(parent.orderId), auction, parent.orderId));
      } else if (op === 7) {
        // A roll child whose id took the market's shape (a hash can).
        add(order(participantOrderId(auction + pick(3), 1 + pick(40), pick(4)), auction, 'parent'));
      } else if (op === 8) auction++;
      else if (op === 9 && held.length > 0) {
        // An eviction: the oldest auction's orders, all of them or some (in its order).
        const oldest = (held[0] as Order).auctionId;
        const gone = held.filter((o) => o.auctionId === oldest);
        const some = pick(2) === 0 ? gone : gone.filter(() => pick(2) === 0);
        index.removeFromAuction(oldest, some);
        for (const o of some) map.delete(o.orderId);
      } else if (op === 10 && held.length > 0) {
        const id = (held[pick(held.length)] as Order).orderId;
        expect(index.delete(id)).toBe(map.delete(id));
      }
      for (const o of held) asked.add(o.orderId);
      asked.add(participantOrderId(auction + pick(3), 1 + pick(40), pick(4)));
      asked.add(`caller-${pick(caller + 2)}`);
      // One comparison a step (an expect an id was most of the test's time).
      const got: unknown[] = [index.size];
      const want: unknown[] = [map.size];
      for (const id of asked) {
        got.push([id, index.get(id) === map.get(id), index.has(id), index.placed(id)]);
        want.push([id, true, map.has(id), map.get(id)?.parentOrderId === null]);
      }
      expect(got).toEqual(want);
    }
    expect([...index].map(([k, o]) => [k, o])).toEqual([...map]);
    expect([...index.values()]).toEqual([...map.values()]);
    expect(map.size).toBeGreaterThan(150);
  });

  it('an auction whose orders all leave goes whole; the rest stay in order', () => {
    const index = new OrderIndex();
    const a = [order(participantOrderId(1, 1, 0), 1), order('caller-1', 1)];
    const b = [order(participantOrderId(2, 1, 0), 2), order(participantOrderId(2, 2, 0), 2)];
    for (const o of [...a, ...b]) index.add(o.orderId, o);
    index.removeFromAuction(1, a);
    expect([...index.byAuction()].map(([id]) => id)).toEqual([2]);
    expect(index.get('caller-1')).toBeUndefined();
    expect(index.placed('caller-1')).toBe(false);
    index.removeFromAuction(2, [b[0] as Order]);
    expect([...index.keys()]).toEqual([(b[1] as Order).orderId]);
    expect(index.size).toBe(1);
  });
});
