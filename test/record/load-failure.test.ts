// When a recording client's recording transport cannot be loaded (a dist/ copied without its
// chunks), its call rejects with ConfigurationError before anything is sent, and so does the next
// (which tries the load again); a client that does not record never needs that code.
import { ConfigurationError, MatchVenue } from 'match-venue';
import { describe, expect, it, vi } from 'vitest';
import { cassettePath, readBack } from './files.js';

vi.mock('../../src/core/record-transport.js', () => {
  throw new Error('chunk record-transport-X.js not found');
});

describe('a recording client whose recording transport fails to load', () => {
  it('rejects each call with ConfigurationError and sends nothing; a client not recording is answered', async () => {
    const sent: string[] = [];
    const fetch = async (input: string | URL | Request) => {
      sent.push(String(input));
      return Response.json({ data: { payments: { masterWalletId: 'wallet-1' } } });
    };
    const options = {
      apiKey: 'TEST_API_KEY:record:load',
      baseUrl: 'http://127.0.0.1:9',
      maxRetries: 0,
      fetch,
    };
    const file = cassettePath();
    const recording = new MatchVenue({ ...options, record: file });
    for (let call = 0; call < 2; call += 1) {
      const failed = await recording.configuration.retrieve().catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ConfigurationError);
      expect((failed as Error).message).toMatch(/could not load the code of its recording/);
    }
    expect(sent).toEqual([]);
    // The file was checked and started at construction; no exchange reached it.
    expect(readBack(file).entries).toEqual([]);

    const plain = new MatchVenue(options);
    expect(await plain.configuration.retrieve()).toEqual({ payments: { masterWalletId: 'wallet-1' } });
    expect(sent).toHaveLength(1);
  });
});
