// When the code that observes a call cannot be loaded (a dist/ copied without its chunks), an
// observed call rejects with ConfigurationError before anything is sent; a call nobody observes
// never needs that code and goes through.
import { ConfigurationError, MatchVenue } from 'match-venue';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/core/telemetry/observed-call.js', () => {
  throw new Error('chunk observed-call-X.js not found');
});

describe('an observed call whose telemetry fails to load', () => {
  it('rejects with ConfigurationError and sends nothing; an unobserved call is answered', async () => {
    const sent: string[] = [];
    const venue = new MatchVenue({
      apiKey: 'TEST_API_KEY:telemetry:load',
      baseUrl: 'http://127.0.0.1:9',
      maxRetries: 0,
      fetch: async (input) => {
        sent.push(String(input));
        return Response.json({ data: { payments: { masterWalletId: 'wallet-1' } } });
      },
    });
    expect(await venue.configuration.retrieve()).toEqual({ payments: { masterWalletId: 'wallet-1' } });
    expect(sent).toHaveLength(1);
    const off = venue.on('request', () => undefined);
    const failed = await venue.configuration.retrieve().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ConfigurationError);
    expect((failed as Error).message).toMatch(/could not load the code of its telemetry/);
    expect(sent).toHaveLength(1);
    off();
    await expect(venue.configuration.retrieve()).resolves.toBeDefined();
    expect(sent).toHaveLength(2);
  });
});
