import { MatchVenue } from 'match-venue';
import { getMockSimulator } from 'match-venue/testing';
import { describe, expect, it } from 'vitest';

// Its own file: the shared mock simulator is made once per process, on first use, from the env.
describe('MATCH_VENUE_MOCK_SCENARIO', () => {
  it('builds the shared mock simulator from a scenario file: its entities, market and clock', async () => {
    process.env.MATCH_VENUE_MOCK_SCENARIO = 'examples/scenarios/thin-mint-side.json';
    try {
      const venue = new MatchVenue({ environment: 'mock', apiKey: 'TEST_API_KEY:minter-two:sim' });
      const summary = await venue.account.retrieve();
      expect(summary.stablecoin.available).toEqual({ amount: '250000.00', currency: 'USD' });
      const sim = await getMockSimulator();
      expect(sim.clock).toBe('manual');
      expect(sim.now()).toBe(Date.parse('2026-01-05T09:00:00Z'));
      expect(sim.getState().market?.participants).toBe(6);
      expect(sim.getState().auction.clearsAt).toBe('2026-01-05T09:00:05.000Z');
    } finally {
      delete process.env.MATCH_VENUE_MOCK_SCENARIO;
    }
  });
});
