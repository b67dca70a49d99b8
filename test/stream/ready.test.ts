import { isEvent, MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, startVenue, type Venue } from './helpers.js';

let venue: Venue;
let burner: MatchVenue;
beforeAll(async () => {
  venue = await startVenue();
  burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: venue.url });
});
afterAll(() => venue.close());

describe('subscription.ready', () => {
  it('resolves true once the server confirms; an order placed right after is seen as accepted', async () => {
    const stream = burner.stream.connect();
    try {
      const account = stream.account();
      expect(await account.ready).toBe(true);
      // A second iterator on a live channel is ready at once.
      const again = stream.account();
      expect(await again.ready).toBe(true);
      await again.return?.();
      const orderId = await placeOrder(venue.url, 'burner', 'BURN');
      for await (const ev of account) {
        if (isEvent(ev, 'order.accepted')) {
          expect(ev.data.orderId).toBe(orderId);
          break;
        }
      }
    } finally {
      await stream.close();
    }
  });

  it('resolves false when the stream closes before the confirmation, and never rejects', async () => {
    const stream = burner.stream.connect();
    const market = stream.market();
    await stream.close();
    expect(await market.ready).toBe(false);
    expect(await stream.account().ready).toBe(false);
  });

  it('resolves false for an iterator left before the confirmation', async () => {
    const stream = burner.stream.connect();
    try {
      const market = stream.market();
      await market.return?.();
      expect(await market.ready).toBe(false);
    } finally {
      await stream.close();
    }
  });
});
