import { isEvent, MatchVenue, MatchVenueError, usd } from 'match-venue';
import { createMockVenue, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

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

  it('explains what to do for a client served in-process with no socket (createMockVenue without listen)', async () => {
    const mock = await createMockVenue();
    try {
      const burner = mock.client('burner');
      expect(() => burner.stream.connect()).toThrow(MatchVenueError);
      expect(() => burner.stream.connect()).toThrow(/createMockVenue\(\{ listen: true \}\)/);
    } finally {
      await mock.close();
    }
    // environment: 'mock' has a socket to offer: its shared simulator listens on the first connect.
    const stream = new MatchVenue({ environment: 'mock' }).stream.connect();
    await stream.close();
  });
});
