import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isEvent, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { createMockVenue, type MockVenue } from 'match-venue/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { attachWebSocket } from '../../src/simulator/ws/server.js';
import { take } from './socket-server.js';

let mock: MockVenue | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('venue.stream.connect() (the client resource over connectStream)', () => {
  it('streams typed market and account events of a full auction from a mock venue', async () => {
    mock = await createMockVenue({ listen: true });
    const burner = mock.client('burner');
    const minter = mock.client('minter');
    const stream = burner.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    try {
      const account = stream.account();
      const market = stream.market();
      const [snapshot] = await take(market, 1);
      expect(snapshot?.event).toBe('auction.snapshot');

      const placed = await burner.orders.place({
        orderType: 'BURN',
        amount: usd('500'),
        feeBps: '6',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      await minter.orders.place({
        orderType: 'MINT',
        amount: usd('500'),
        feeBps: '4',
        postFillAction: 'cancel',
      });
      mock.clearAuction();

      const marketEvents = await take(market, 4);
      expect(marketEvents.map((e) => e.event)).toEqual([
        'auction.locked',
        'auction.cleared',
        'auction.opened',
        'auction.settled',
      ]);
      const cleared = marketEvents[1];
      if (!cleared || !isEvent(cleared, 'auction.cleared')) throw new Error('expected auction.cleared');
      expect(cleared.data.matchedVolume).toEqual({ amount: '500.00', currency: 'USD' });

      const accountEvents = await take(account, 5);
      expect(accountEvents.map((e) => e.event)).toEqual([
        'order.accepted',
        'balance.updated',
        'order.updated',
        'order.updated',
        'balance.updated',
      ]);
      const statuses = accountEvents.flatMap((e) => (isEvent(e, 'order.updated') ? [e.data.status] : []));
      expect(statuses).toEqual(['settling', 'filled']);
      expect(accountEvents[0]?.data).toMatchObject({ orderId: placed.orderId });
    } finally {
      await stream.close();
    }
  });

  it('resyncs through the client REST resource when the socket server restarts (replay impossible)', async () => {
    mock = await createMockVenue();
    const sim = mock.simulator;
    // The socket endpoint is ours, so the test can "restart" it; REST stays in-process.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let ws = attachWebSocket(sim, server);
    const { port } = server.address() as AddressInfo;
    const burner = mock.client('burner', { wsUrl: `ws://127.0.0.1:${port}` });
    const stream = burner.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    const burn = () =>
      burner.orders.place({
        orderType: 'BURN',
        amount: usd('100'),
        feeBps: null,
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
    try {
      const account = stream.account();
      await take(stream.market(), 1);
      const before = await burn();
      expect((await take(account, 2)).map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);

      await ws.close();
      const missed = [(await burn()).orderId, (await burn()).orderId];
      ws = attachWebSocket(sim, server);

      const [resync, ...rest] = await take(account, 3);
      expect(resync).toMatchObject({
        event: 'stream.resync',
        data: { reason: 'replay-unavailable', lastSeq: 2, resumedAtSeq: 0 },
      });
      expect(rest.map((e) => [e.event, (e as { source?: string }).source])).toEqual([
        ['order.updated', 'rest'],
        ['order.updated', 'rest'],
      ]);
      expect(rest.map((e) => (e.data as { orderId: string }).orderId).sort()).toEqual([...missed].sort());
      expect(JSON.stringify(rest)).not.toContain(before.orderId);

      const after = await burn();
      const [live] = await take(account, 1);
      expect(live).toMatchObject({ event: 'order.accepted', seq: 1, data: { orderId: after.orderId } });
    } finally {
      await stream.close();
      await ws.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
