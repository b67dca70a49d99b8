import { describe, expect, it } from 'vitest';
import { connectStream } from '../../src/stream/index.js';
import { take, until } from './socket-server.js';
import { cleanups, ev, scriptedServer, scriptedStream, T, useCleanups } from './flow-servers.js';

useCleanups();

describe('liveness and gaps', () => {
  it('replaces a connection that stops answering pings', async () => {
    const server = await scriptedServer(() => {});
    const { stream, tickets } = scriptedStream(server.wsUrl, {
      heartbeatIntervalMs: 5,
      heartbeatTimeoutMs: 5,
    });
    const states: string[] = [];
    stream.on('state', (s) => states.push(s.state));
    await until(() => server.connections() >= 3, 'two replacements');
    expect(states).toContain('reconnecting');
    expect(new Set(tickets).size).toBe(tickets.length);
  });

  it('a seq gap on the market channel yields an explicit resync event, then continues', async () => {
    const server = await scriptedServer((send, f) => {
      if (f.op !== 'subscribe') return;
      send({ type: 'subscribed', channel: 'market', id: f.id, seq: 0, ts: T });
      send(ev('market', 1, 'auction.opened', { auctionId: 1 }));
      send(ev('market', 2, 'auction.locked', { auctionId: 1 }));
      send(ev('market', 5, 'auction.opened', { auctionId: 2 }));
    });
    const { stream } = scriptedStream(server.wsUrl, {});
    const got = await take(stream.market(), 4);
    expect(got.map((e) => [e.event, e.seq])).toEqual([
      ['auction.opened', 1],
      ['auction.locked', 2],
      ['stream.resync', 4],
      ['auction.opened', 5],
    ]);
    expect(got[2]?.data).toEqual({ reason: 'gap', lastSeq: 2, resumedAtSeq: 4 });
  });

  it('a seq gap on the account channel reconciles over REST: only changes not yet seen, before the next live event', async () => {
    const o1 = { orderId: 'o1', status: 'pending', updatedAt: T };
    const o2 = { orderId: 'o2', status: 'filled', updatedAt: '2026-01-01T00:00:01.000Z' };
    const old = { orderId: 'o0', status: 'filled', updatedAt: '2025-12-31T00:00:00.000Z' };
    const server = await scriptedServer((send, f) => {
      if (f.op !== 'subscribe') return;
      send({ type: 'subscribed', channel: 'account', id: f.id, seq: 0, ts: T });
      send(ev('account', 1, 'order.accepted', o1));
      send(ev('account', 3, 'balance.updated', { accountId: 'a' }, '2026-01-01T00:00:02.000Z'));
    });
    const { stream } = scriptedStream(server.wsUrl, {}, [o2, o1, old]);
    const got = await take(stream.account(), 4);
    expect(got.map((e) => e.event)).toEqual([
      'order.accepted',
      'stream.resync',
      'order.updated',
      'balance.updated',
    ]);
    expect(got[2]).toMatchObject({ source: 'rest', data: o2 });
    expect(got[3]?.seq).toBe(3);
  });
});

describe('ticket request failures', () => {
  const failing = (statuses: number[], wsUrl: string) => {
    const calls: number[] = [];
    const stream = connectStream(
      {
        wsUrl,
        ticket: async () => {
          const status = statuses[calls.length];
          calls.push(status ?? 200);
          if (status !== undefined) throw Object.assign(new Error(`HTTP ${status}`), { status });
          return { ticket: 't', expiresAt: T };
        },
        async *listOrders() {},
      },
      { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } },
    );
    cleanups.push(() => stream.close());
    return { stream, calls };
  };

  it('a refusal (401) ends the stream at once with that error instead of retrying forever', async () => {
    const server = await scriptedServer(() => {});
    const { stream, calls } = failing([401, 401, 401], server.wsUrl);
    const market = stream.market();
    await expect(market.next()).rejects.toMatchObject({ message: 'HTTP 401', status: 401 });
    expect(stream.state).toBe('closed');
    expect(calls).toEqual([401]);
    expect(server.connections()).toBe(0);
  });

  it('transient failures (503, 429) are retried with backoff', async () => {
    const server = await scriptedServer((send, f) => {
      if (f.op === 'subscribe') send({ type: 'subscribed', channel: 'market', id: f.id, seq: 0, ts: T });
    });
    const { stream, calls } = failing([503, 429], server.wsUrl);
    stream.market();
    await until(() => stream.state === 'open', 'open');
    expect(calls).toEqual([503, 429, 200]);
  });
});

describe('close() during a failing reconciliation', () => {
  it('ends the retry pause at once: no timer outlives the stream', async () => {
    const server = await scriptedServer((send, f) => {
      if (f.op !== 'subscribe') return;
      send({ type: 'subscribed', channel: 'account', id: f.id, seq: 0, ts: T });
      send(ev('account', 2, 'balance.updated', { accountId: 'a' }));
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    let listCalls = 0;
    const stream = connectStream(
      {
        wsUrl: server.wsUrl,
        ticket: async () => ({ ticket: 't', expiresAt: T }),
        // biome-ignore lint/correctness/useYield: fails before yielding, like a REST outage
        async *listOrders(query) {
          // The open-orders read of the subscription fails too; count the resync's reads only.
          if (query.status === undefined) listCalls += 1;
          throw new Error('REST down');
        },
      },
      // The retry pause after a failed reconciliation would be 30 s to 60 s.
      { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } },
    );
    const account = stream.account();
    expect((await take(account, 1))[0]?.event).toBe('stream.resync');
    await until(() => listCalls === 1, 'the first reconciliation attempt');
    await stream.close();
    await expect(account.next()).resolves.toEqual({ value: undefined, done: true });
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
