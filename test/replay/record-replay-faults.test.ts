import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCassette } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';
import { describe, expect, it } from 'vitest';
import { botSession } from './bot-session.js';

// The bot session again, recorded while the simulator drops the stream's socket (the stream
// reconnects and resubscribes) and loses the answer to a place (the client retries it): the
// replay must fail the same attempt, drop the same socket and give the same results.
describe('a bot session recorded under faults, replayed from its cassette', () => {
  it('replays the lost answer and the dropped socket: byte-identical results', async () => {
    const cassette = join(mkdtempSync(join(tmpdir(), 'mv-record-faults-')), 'bot.ndjson');
    const mock = await createMockVenue();
    let recorded: string;
    try {
      const clients = {
        burner: mock.client('burner', { record: cassette, retry: { sleep: async () => {} } }),
        minter: mock.client('minter', { record: cassette }),
      };
      recorded = JSON.stringify(
        await botSession(clients, (step) => {
          if (step === 'subscribed') mock.setFaults({ killSockets: true });
          if (step === 'before place') mock.setFaults({ dropResponse: 1 });
          if (step === 'clear') mock.clearAuction();
        }),
      );
    } finally {
      await mock.close();
    }

    const doc = await readCassette(cassette);
    // The place was answered on its second attempt, the first one's answer lost.
    const places = doc.entries.filter((e) => e.kind === 'http' && e.request.path === '/v1/match/orders');
    expect(
      places
        .filter((e) => e.kind === 'http' && e.request.method === 'POST')
        .map((e) => e.kind === 'http' && [e.attempt, e.response?.status ?? e.error]),
    ).toEqual([
      [1, expect.stringMatching(/^connection: /)],
      [2, 202],
      [1, 202],
      [1, 202],
    ]);
    // The burner's stream opened twice, its second subscription resuming with `since`.
    const opens = doc.entries.filter((e) => e.kind === 'ws' && e.keyId === 'burner' && e.event === 'open');
    expect(opens).toHaveLength(2);

    const replay = await createMockVenue({ cassette });
    try {
      const clients = {
        burner: replay.client('burner', { retry: { sleep: async () => {} } }),
        minter: replay.client('minter'),
      };
      expect(JSON.stringify(await botSession(clients, () => {}))).toBe(recorded);
    } finally {
      await replay.close();
    }
  });
});
