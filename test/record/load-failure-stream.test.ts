// When a recording client's recording socket cannot be loaded (a dist/ copied without its chunks),
// its stream ends with ConfigurationError before any socket is made: no connection goes unrecorded.
import { ConfigurationError, MatchVenue } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it, vi } from 'vitest';
import { cassettePath, readBack, wsLines } from './files.js';

vi.mock('../../src/stream/record-socket.js', () => {
  throw new Error('chunk record-socket-X.js not found');
});

describe('a recording client whose recording socket fails to load', () => {
  it('ends the stream with ConfigurationError and opens no socket', async () => {
    const sim = createSimulator();
    const running = await sim.listen();
    try {
      const file = cassettePath();
      const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url, record: file });
      const stream = venue.stream.connect();
      const failed = await stream
        .market()
        .next()
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ConfigurationError);
      expect((failed as Error).message).toMatch(/could not load the code of its stream recording/);
      await stream.close();
      expect(wsLines(readBack(file))).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});
