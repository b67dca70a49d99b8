import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { encodeSocketEvent } from '../../src/contract/ws-codec.js';
import type { SimulatorEvent } from '../../src/simulator/index.js';
import { Hub } from '../../src/simulator/ws/hub.js';

const ENTITY = '10000000-0000-4000-8000-000000000001';
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** Just what the hub uses of a `ws` socket: events in, frames out. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Array<Record<string, unknown>> = [];
  send(frame: string): void {
    this.sent.push(JSON.parse(frame) as Record<string, unknown>);
  }
  ping(): void {}
  terminate(): void {
    this.readyState = 3;
  }
  frame(body: Record<string, unknown>): void {
    this.emit('message', Buffer.from(JSON.stringify(body)), false);
  }
}

function setup(replayBufferSize: number) {
  let now = T0;
  let reads = 0;
  const hub = new Hub({
    replayBufferSize,
    maxBufferedBytes: 1 << 20,
    now: () => now,
    marketSnapshot: () => ({}),
    protocol: 'service-match.v1',
    heartbeatMs: 30_000,
  });
  /** An account event whose data counts how often it is read (the engine builds it on first read). */
  const event = (n: number): SimulatorEvent => ({
    channel: 'account',
    entityId: ENTITY,
    event: 'order.updated',
    get data() {
      reads++;
      return { n, amount: { amount: `${n}.00`, currency: 'USD' } };
    },
  });
  const publish = (from: number, to: number) => {
    for (let n = from; n <= to; n++) {
      now = T0 + n;
      hub.publish(event(n));
    }
  };
  const connect = () => {
    const ws = new FakeSocket();
    hub.add(ws as unknown as WebSocket, ENTITY);
    // Every socket is greeted first (test/stream/server.test.ts checks the frame).
    expect(ws.sent.shift()).toMatchObject({ type: 'hello' });
    return ws;
  };
  return { hub, publish, connect, reads: () => reads };
}

describe('Hub: events nobody is subscribed to', () => {
  it('are counted in seq at once but serialized only if they can still be replayed', () => {
    const { hub, publish, connect, reads } = setup(8);
    publish(1, 10_000);
    expect(hub.accountSeq(ENTITY)).toBe(10_000);
    expect(reads()).toBe(0);

    const ws = connect();
    ws.frame({ op: 'subscribe', channel: 'account', id: 1, since: 9_995 });
    // Only the buffer's 8 newest events were ever serialized.
    expect(reads()).toBe(8);
    expect(ws.sent[0]).toMatchObject({ type: 'subscribed', seq: 10_000, since: 9_995, replay: 'ok' });
    // Each replayed frame is the one an eager hub would have sent: its seq, data and publish time.
    expect(ws.sent.slice(1)).toEqual(
      [9_996, 9_997, 9_998, 9_999, 10_000].map((n) => ({
        type: 'event',
        channel: 'account',
        seq: n,
        event: 'order.updated',
        data: encodeSocketEvent('order.updated', { n, amount: { amount: `${n}.00`, currency: 'USD' } }),
        ts: new Date(T0 + n).toISOString(),
      })),
    );

    // Older than the buffer: unavailable, as before.
    const late = connect();
    late.frame({ op: 'subscribe', channel: 'account', id: 2, since: 9_991 });
    expect(late.sent[0]).toMatchObject({ type: 'subscribed', seq: 10_000, replay: 'unavailable' });
    const edge = connect();
    edge.frame({ op: 'subscribe', channel: 'account', id: 3, since: 9_992 });
    expect(edge.sent[0]).toMatchObject({ replay: 'ok' });
    expect(edge.sent).toHaveLength(1 + 8);
  });

  it('a subscribed socket gets every event live, in order after the deferred ones', () => {
    const { hub, publish, connect, reads } = setup(4);
    publish(1, 3);
    const ws = connect();
    ws.frame({ op: 'subscribe', channel: 'account', id: 1 });
    expect(ws.sent[0]).toMatchObject({ type: 'subscribed', seq: 3 });
    publish(4, 6);
    expect(ws.sent.slice(1).map((f) => f.seq)).toEqual([4, 5, 6]);
    // Serialized: the three live ones, and the three deferred ones when the log was written.
    expect(reads()).toBe(6);
    expect(hub.accountSeq(ENTITY)).toBe(6);
    const again = connect();
    again.frame({ op: 'subscribe', channel: 'account', id: 2, since: 2 });
    expect(again.sent.slice(1).map((f) => f.seq)).toEqual([3, 4, 5, 6]);
  });

  it('without a replay buffer nothing is serialized, and seq still counts', () => {
    const { hub, publish, connect, reads } = setup(0);
    publish(1, 100);
    expect(hub.accountSeq(ENTITY)).toBe(100);
    const ws = connect();
    ws.frame({ op: 'subscribe', channel: 'account', id: 1, since: 99 });
    expect(ws.sent[0]).toMatchObject({ seq: 100, replay: 'unavailable' });
    ws.frame({ op: 'subscribe', channel: 'account', id: 2, since: 100 });
    expect(ws.sent[1]).toMatchObject({ seq: 100, replay: 'ok' });
    expect(reads()).toBe(0);
  });
});

describe('Hub: sequences nobody has seen', () => {
  it('wants no event of a sequence before a subscribe or an accountSeq read shows its seq', () => {
    const { hub, connect } = setup(8);
    expect(hub.wants(undefined)).toBe(false);
    expect(hub.wants(ENTITY)).toBe(false);
    for (let i = 0; i < 5; i++) hub.skip(ENTITY);
    for (let i = 0; i < 3; i++) hub.skip(undefined);
    const ws = connect();
    ws.frame({ op: 'subscribe', channel: 'market', id: 1 });
    // Skipped events still count: seq is what it would have been had each been built.
    expect(ws.sent[0]).toMatchObject({ type: 'subscribed', channel: 'market', seq: 3 });
    expect(hub.wants(undefined)).toBe(true);
    expect(hub.wants(ENTITY)).toBe(false);
    expect(hub.accountSeq(ENTITY)).toBe(5);
    expect(hub.wants(ENTITY)).toBe(true);
    expect(hub.wants('10000000-0000-4000-8000-000000000002')).toBe(false);
    // A seen sequence stays seen without a socket: its events are kept for a `since` replay.
    ws.emit('close');
    expect(hub.wants(undefined)).toBe(true);
    hub.restart();
    expect(hub.wants(undefined)).toBe(false);
    expect(hub.wants(ENTITY)).toBe(false);
  });

  it('a skipped event cannot be replayed, nor any event before it', () => {
    const { hub, publish, connect } = setup(8);
    publish(1, 3);
    hub.skip(ENTITY);
    publish(5, 6);
    expect(hub.accountSeq(ENTITY)).toBe(6);
    const before = connect();
    before.frame({ op: 'subscribe', channel: 'account', id: 1, since: 2 });
    expect(before.sent[0]).toMatchObject({ seq: 6, since: 2, replay: 'unavailable' });
    expect(before.sent).toHaveLength(1);
    const after = connect();
    after.frame({ op: 'subscribe', channel: 'account', id: 2, since: 4 });
    expect(after.sent[0]).toMatchObject({ seq: 6, since: 4, replay: 'ok' });
    expect(after.sent.slice(1).map((f) => f.seq)).toEqual([5, 6]);
  });
});
