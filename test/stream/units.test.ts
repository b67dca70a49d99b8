import { describe, expect, it } from 'vitest';
import { SequenceLog } from '../../src/simulator/ws/replay-buffer.js';
import { type AccountEvent, isKnownEvent } from '../../src/stream/events.js';
import { canonicalInstant, compareInstants } from '../../src/stream/instant.js';
import { OrderTracker, orderFingerprint } from '../../src/stream/order-tracker.js';
import { EventQueue } from '../../src/stream/queue.js';

describe('SequenceLog', () => {
  const frame = (seq: number) => `f${seq}`;

  it('assigns consecutive seqs and replays only what is still held', () => {
    const log = new SequenceLog(3);
    for (let i = 0; i < 5; i++) log.append(frame);
    expect(log.seq).toBe(5);
    expect(log.after(5)).toEqual([]);
    expect(log.after(2)).toEqual(['f3', 'f4', 'f5']);
    expect(log.after(4)).toEqual(['f5']);
    expect(log.after(1)).toBeUndefined();
    expect(log.after(6)).toBeUndefined();
    expect(log.after(-1)).toBeUndefined();
  });

  it('with no buffer, only an up-to-date since is replayable', () => {
    const log = new SequenceLog(0);
    log.append(frame);
    expect(log.after(1)).toEqual([]);
    expect(log.after(0)).toBeUndefined();
  });
});

describe('instants', () => {
  it('compares ISO instants past the millisecond and across offsets', () => {
    expect(compareInstants('2026-01-01T00:00:00.000100Z', '2026-01-01T00:00:00.000200Z')).toBe(-1);
    expect(compareInstants('2026-01-01T00:00:00.0002Z', '2026-01-01T00:00:00.000100Z')).toBe(1);
    expect(compareInstants('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000000Z')).toBe(0);
    expect(compareInstants('2026-01-01T01:00:00.5+01:00', '2026-01-01T00:00:00.500Z')).toBe(0);
    expect(compareInstants('not a date', '2026-01-01T00:00:00Z')).toBeUndefined();
    expect(canonicalInstant('2026-01-01T00:00:00Z')).toBe(canonicalInstant('2026-01-01T00:00:00.000Z'));
  });
});

describe('OrderTracker', () => {
  const T = '2026-01-01T00:00:00.000Z';
  const order = (over: Partial<Record<string, unknown>> = {}) => ({
    orderId: 'a',
    auctionId: 1,
    lineage: { parentOrderId: null, childOrderId: null },
    orderType: 'BURN',
    amount: { amount: '100.00', currency: 'USD' },
    feeBps: '5',
    postFillAction: 'cancel',
    status: 'pending',
    createdAt: T,
    updatedAt: T,
    fill: null,
    sourceWalletId: 'w',
    fiatAccountId: 'f',
    ...over,
  });

  it('fingerprints every state-bearing field, not fields outside the spec nor the spelling of an instant', () => {
    const base = orderFingerprint(order());
    expect(orderFingerprint(order({ feeBps: '4' }))).not.toBe(base);
    expect(orderFingerprint(order({ feeBps: null }))).not.toBe(base);
    expect(orderFingerprint(order({ lineage: { parentOrderId: null, childOrderId: 'c' } }))).not.toBe(base);
    expect(orderFingerprint(order({ updatedAt: '2026-01-01T00:00:00.000001Z' }))).not.toBe(base);
    expect(orderFingerprint(order({ updatedAt: '2026-01-01T00:00:00Z', extra: 1 }))).toBe(base);
  });

  it('a REST state is delivered iff it differs from the last one delivered and is not older', () => {
    const t = new OrderTracker();
    expect(t.acceptLive(order(), 1)).toBe(true);
    expect(t.acceptRest(order(), undefined, T)).toBe(false);
    // A fee change in the same millisecond is a new state.
    expect(t.acceptRest(order({ feeBps: '4' }), undefined, T)).toBe(true);
    expect(t.acceptRest(order({ feeBps: '4' }), undefined, T)).toBe(false);
    expect(t.acceptRest(order({ feeBps: '3', updatedAt: '2025-12-31T23:59:59.999Z' }), undefined, T)).toBe(
      false,
    );
    // An order never delivered: only if it changed at or after the watermark.
    expect(t.acceptRest(order({ orderId: 'b', updatedAt: '2025-12-31T00:00:00.000Z' }), undefined, T)).toBe(
      false,
    );
    expect(t.acceptRest(order({ orderId: 'c' }), undefined, T)).toBe(true);
  });

  it('a live event after a REST-delivered state is dropped only if identical or older', () => {
    const t = new OrderTracker();
    expect(t.acceptRest(order({ feeBps: '4' }), undefined, T)).toBe(true);
    expect(t.acceptLive(order({ feeBps: '4' }), 7)).toBe(false);
    expect(t.acceptLive(order({ feeBps: '9', updatedAt: '2025-12-31T23:59:59.000Z' }), 8)).toBe(false);
    const fees = ['1', '2', '3', '2'];
    expect(fees.map((feeBps, i) => t.acceptLive(order({ feeBps }), 9 + i))).toEqual([true, true, true, true]);
  });

  it("with the read's account seq, drops exactly the live events up to it, whatever their content", () => {
    const t = new OrderTracker();
    t.acceptLive(order(), 1);
    expect(t.acceptRest(order({ feeBps: '8' }), 12, T)).toBe(true);
    expect(t.acceptLive(order({ feeBps: '7' }), 11)).toBe(false);
    expect(t.acceptLive(order({ feeBps: '8' }), 12)).toBe(false);
    expect(t.acceptLive(order({ feeBps: '9' }), 13)).toBe(true);
    // A new resync forgets the seqs of the last one (the server may have restarted its sequence).
    t.startResync();
    expect(t.acceptLive(order({ feeBps: '1' }), 2)).toBe(true);
  });

  it('knows the open orders: seeded, followed through events and reads, and placed by the snapshot seq', () => {
    const t = new OrderTracker();
    expect(t.knowsOpenOrdersAt(5)).toBe(false);
    t.acceptLive(order({ orderId: 'x', status: 'filled' }), 1);
    t.seedOpen(['a', 'b', 'x']);
    t.openOrdersKnown(6);
    expect(t.openOrders().sort()).toEqual(['a', 'b']);
    expect(t.knowsOpenOrdersAt(5)).toBe(false);
    expect(t.knowsOpenOrdersAt(6)).toBe(true);
    t.acceptLive(order({ orderId: 'a', status: 'settling' }), 7);
    t.acceptLive(order({ orderId: 'b', status: 'cancelled' }), 8);
    t.acceptRest(order({ orderId: 'c', updatedAt: '2025-01-01T00:00:00.000Z' }), undefined, T);
    expect(t.openOrders().sort()).toEqual(['a', 'c']);
    t.gone('c');
    expect(t.openOrders()).toEqual(['a']);
    t.reset();
    expect([t.openOrders(), t.knowsOpenOrdersAt(100)]).toEqual([[], false]);
  });

  it('forgets the least recently delivered order past its capacity, but never an open one', () => {
    const t = new OrderTracker(2);
    t.acceptLive(order({ orderId: 'a' }), 1);
    t.acceptLive(order({ orderId: 'b' }), 2);
    t.acceptLive(order({ orderId: 'c' }), 3);
    expect(t.acceptRest(order({ orderId: 'a' }), undefined, T)).toBe(true);
    expect(t.acceptRest(order({ orderId: 'c' }), undefined, T)).toBe(false);
    expect(t.openOrders().sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('EventQueue', () => {
  it('hands an event straight to a waiting reader and ends with done', async () => {
    const q = new EventQueue<number>(2, 'pause', () => {});
    const pending = q.next();
    q.push(1);
    await expect(pending).resolves.toEqual({ value: 1, done: false });
    q.push(2);
    q.end();
    await expect(q.next()).resolves.toEqual({ value: 2, done: false });
    await expect(q.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('rejects a pending reader when ended with an error', async () => {
    const q = new EventQueue<number>(2, 'pause', () => {});
    const pending = q.next();
    q.end(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });

  it('drop-oldest keeps the newest bufferSize events', async () => {
    const q = new EventQueue<number>(3, 'drop-oldest', () => {});
    for (let i = 0; i < 10; i++) q.push(i);
    expect([q.length, q.dropped, q.maxBuffered]).toEqual([3, 7, 3]);
    const out = [];
    for (let i = 0; i < 3; i++) out.push((await q.next()).value);
    expect(out).toEqual([7, 8, 9]);
  });
});

describe('isKnownEvent', () => {
  const event = (name: string): AccountEvent => ({
    type: 'event',
    channel: 'account',
    seq: 1,
    event: name,
    data: {},
    ts: '2026-11-22T00:00:00.000Z',
  });

  it('knows every kind this version types, and turns away a kind a newer venue added', () => {
    for (const name of [
      'order.accepted',
      'order.updated',
      'withdrawal.updated',
      'balance.updated',
      'stream.resync',
    ])
      expect(isKnownEvent(event(name))).toBe(true);
    expect(isKnownEvent(event('order.archived'))).toBe(false);
    expect(isKnownEvent(event('auction.snapshot'))).toBe(true);
  });
});
