import { ConfigurationError, isEvent, MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';
import { describe, expect, it } from 'vitest';

/** Listening servers and open TCP sockets of this process, by kind. */
function sockets(): Record<string, number> {
  const count: Record<string, number> = { TCPServerWrap: 0, TCPSocketWrap: 0 };
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind in count) count[kind] = (count[kind] ?? 0) + 1;
  }
  return count;
}

describe('venue.stream.connect', () => {
  it('streams market and account events with a ticket fetched over REST', async () => {
    const mock = await createMockVenue({ listen: true });
    const burner = mock.client('burner');
    const stream = burner.stream.connect();
    try {
      const market = stream.market();
      const account = stream.account();
      const first = await market.next();
      expect(first.value?.event).toBe('auction.snapshot');
      const placed = await burner.orders.place({
        orderType: 'BURN',
        amount: usd('100'),
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      for await (const ev of account) {
        if (isEvent(ev, 'order.accepted')) {
          expect(ev.data.orderId).toBe(placed.orderId);
          break;
        }
      }
    } finally {
      await stream.close();
      await mock.close();
    }
  });

  it('a createMockVenue() client streams with no option; mock.close() ends the stream and leaves nothing open', async () => {
    // The earlier test's mock venue has finished closing (its handles go a little after close()).
    const none = { TCPServerWrap: 0, TCPSocketWrap: 0 };
    await expect.poll(sockets, { timeout: 2000, interval: 20 }).toEqual(none);
    const mock = await createMockVenue();
    const burner = mock.client('burner');
    // Nothing listens until a stream asks.
    expect(mock.server).toBeUndefined();
    expect(burner.wsUrl).toBeUndefined();
    const stream = burner.stream.connect();
    const account = stream.account();
    expect(await account.ready).toBe(true);
    expect(mock.server?.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);

    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('100'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    const seen: string[] = [];
    for (;;) {
      const { value, done } = await account.next();
      if (done) throw new Error('the stream ended before the order was accepted');
      if (isEvent(value, 'order.accepted') && value.data.orderId === placed.orderId) {
        seen.push(value.data.status);
        break;
      }
    }
    expect(seen).toEqual(['pending']);

    await mock.close();
    expect(stream.state).toBe('closed');
    // The iterator hands out what it had buffered, then ends.
    for await (const ev of account) expect(ev.event).not.toBe('auction.snapshot');
    expect(await account.next()).toEqual({ done: true, value: undefined });
    expect(() => burner.stream.connect()).toThrow(/mock venue is closed/);
    // The listener and both ends of the socket are gone.
    await expect.poll(sockets, { timeout: 2000, interval: 20 }).toEqual(none);
  });

  it('explains what to do for a client served by a plain in-process handler (no socket)', async () => {
    const sim = createSimulator();
    try {
      const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, handler: (req) => sim.handle(req) });
      expect(() => burner.stream.connect()).toThrow(ConfigurationError);
      expect(() => burner.stream.connect()).toThrow(/createMockVenue\(\)/);
    } finally {
      await sim.close();
    }
    // environment: 'mock' has a socket to offer: its shared simulator listens on the first connect.
    const stream = new MatchVenue({ environment: 'mock' }).stream.connect();
    await stream.close();
  });
});
