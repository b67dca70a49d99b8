import { isEvent, MatchVenue, usd } from 'match-venue';
import { createSimulator, type RunningSimulator, SEEDED } from 'match-venue/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sim = createSimulator();
let running: RunningSimulator;
let venue: MatchVenue;
beforeAll(async () => {
  running = await sim.listen();
  venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
});
afterAll(() => sim.close());

describe('subscription.ready', () => {
  it('resolves true once the server confirms; an order placed right after is seen as accepted', async () => {
    const stream = venue.stream.connect();
    try {
      const account = stream.account();
      expect(await account.ready).toBe(true);
      // A second iterator on a live channel is ready at once.
      const again = stream.account();
      expect(await again.ready).toBe(true);
      await again.return?.();
      const placed = await venue.orders.place({
        orderType: 'BURN',
        amount: usd('100'),
        feeBps: null,
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
    }
  });

  it('resolves false when the stream closes before the confirmation, and never rejects', async () => {
    const stream = venue.stream.connect();
    const market = stream.market();
    await stream.close();
    expect(await market.ready).toBe(false);
    expect(await stream.account().ready).toBe(false);
  });

  it('resolves false for an iterator left before the confirmation', async () => {
    const stream = venue.stream.connect();
    try {
      const market = stream.market();
      await market.return?.();
      expect(await market.ready).toBe(false);
    } finally {
      await stream.close();
    }
  });
});
