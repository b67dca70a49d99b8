import { describe, expect, it } from 'vitest';
import { SequenceLog } from '../../src/simulator/ws/replay-buffer.js';
import { backoffDelay } from '../../src/stream/backoff.js';
import { decodeSocketData, encodeSocketData } from '../../src/stream/codec.js';
import { OrderTracker } from '../../src/stream/order-tracker.js';
import { EventQueue } from '../../src/stream/queue.js';

describe('socket money codec', () => {
  const order = {
    orderId: 'o',
    amount: { amount: '1000.50', currency: 'USD' },
    fill: { filledAmount: { amount: '0.07', currency: 'USD' }, clearingFeeBps: '5.00' },
    list: [{ amount: '12.00', currency: 'USD' }],
    feeBps: '5',
  };

  it('keeps REST Money objects as they are by default (the simulator wire)', () => {
    expect(encodeSocketData(order)).toBe(order);
    expect(decodeSocketData(order)).toBe(order);
  });

  it('integer cents: encodes every Money to cents and decodes back exactly', () => {
    const wire = encodeSocketData(order, 'integer-cents');
    expect(wire).toEqual({
      orderId: 'o',
      amount: { amount: 100050, currency: 'USD' },
      fill: { filledAmount: { amount: 7, currency: 'USD' }, clearingFeeBps: '5.00' },
      list: [{ amount: 1200, currency: 'USD' }],
      feeBps: '5',
    });
    expect(decodeSocketData(wire, 'integer-cents')).toEqual(order);
  });

  it('refuses to encode sub-cent amounts', () => {
    expect(() => encodeSocketData({ amount: '1.005', currency: 'USD' }, 'integer-cents')).toThrow(RangeError);
  });
});

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

describe('backoffDelay', () => {
  it('grows exponentially to the cap, with half of it jittered', () => {
    const opts = { initialDelayMs: 100, maxDelayMs: 1000, factor: 2 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, opts, () => 0))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, opts, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
});

describe('OrderTracker', () => {
  it('REST states are new unless already delivered; live events always pass unless they restate a REST one', () => {
    const t = new OrderTracker();
    expect(t.acceptLive('a', '2026-01-01T00:00:00.000Z', 'pending')).toBe(true);
    expect(t.acceptRest('a', '2026-01-01T00:00:00.000Z', 'pending')).toBe(false);
    expect(t.acceptRest('a', '2026-01-01T00:00:01.000Z', 'filled')).toBe(true);
    expect(t.acceptLive('a', '2026-01-01T00:00:01.000Z', 'filled')).toBe(false);
    expect(t.acceptLive('a', '2026-01-01T00:00:00.500Z', 'settling')).toBe(false);
    expect(t.acceptLive('a', '2026-01-01T00:00:02.000Z', 'filled')).toBe(true);
    expect(t.acceptLive('a', '2026-01-01T00:00:02.000Z', 'filled')).toBe(true);
  });

  it('forgets the least recently seen order past its capacity', () => {
    const t = new OrderTracker(2);
    t.acceptLive('a', '2026-01-01T00:00:00.000Z', 'pending');
    t.acceptLive('b', '2026-01-01T00:00:00.000Z', 'pending');
    t.acceptLive('c', '2026-01-01T00:00:00.000Z', 'pending');
    expect(t.acceptRest('a', '2026-01-01T00:00:00.000Z', 'pending')).toBe(true);
    expect(t.acceptRest('c', '2026-01-01T00:00:00.000Z', 'pending')).toBe(false);
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
