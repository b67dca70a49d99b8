import { MatchVenue, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { getMockSimulator } from 'match-venue/testing';

// Its own file: the shared mock simulator is made once per process, on first use, from the env.
describe('MATCH_VENUE_MOCK_START_TIME', () => {
  it("fixes the shared mock simulator's clock start (epoch ms or ISO instant)", async () => {
    process.env.MATCH_VENUE_MOCK_START_TIME = String(Date.parse('2026-03-01T12:00:00Z'));
    try {
      const venue = new MatchVenue({ environment: 'mock' });
      const placed = await venue.orders.place({
        orderType: 'BURN',
        amount: usd('1000'),
        feeBps: null,
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      expect((await venue.orders.retrieve(placed.orderId)).createdAt).toBe('2026-03-01T12:00:00.000Z');
      expect((await getMockSimulator()).now()).toBe(Date.parse('2026-03-01T12:00:00Z'));
    } finally {
      delete process.env.MATCH_VENUE_MOCK_START_TIME;
    }
  });
});
