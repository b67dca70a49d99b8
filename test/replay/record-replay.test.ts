import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchVenue } from 'match-venue';
import { createCassetteHandlers } from 'match-venue/msw';
import { readCassette, SEEDED } from 'match-venue/simulator';
import { createMockVenue, createReplay, getMockReplay } from 'match-venue/testing';
import { setupServer } from 'msw/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { botSession } from './bot-session.js';

// One bot session recorded against the simulator (`record`), then replayed from its cassette three
// ways: its results, serialized, must be the same bytes each time.
const cassette = join(mkdtempSync(join(tmpdir(), 'mv-record-replay-')), 'bot.ndjson');
let recorded = '';

beforeAll(async () => {
  const mock = await createMockVenue();
  try {
    const clients = {
      burner: mock.client('burner', { record: cassette }),
      minter: mock.client('minter', { record: cassette }),
    };
    recorded = JSON.stringify(
      await botSession(clients, (step) => {
        if (step === 'clear') mock.clearAuction();
      }),
    );
  } finally {
    await mock.close();
  }
});

describe('a bot session recorded against the simulator and replayed from its cassette', () => {
  it('recorded its REST calls and its stream', async () => {
    const doc = await readCassette(cassette);
    const kinds = new Set(doc.entries.map((e) => (e.kind === 'ws' ? `ws ${e.event}` : e.kind)));
    expect([...kinds].sort()).toEqual(['http', 'ws close', 'ws open', 'ws receive', 'ws send']);
    expect(readFileSync(cassette, 'utf8')).not.toContain(':sim');
    expect(recorded).toContain('"order.updated"');
  });

  it('gives byte-identical results through createMockVenue({ cassette })', async () => {
    const replay = await createMockVenue({ cassette });
    try {
      const clients = { burner: replay.client('burner'), minter: replay.client('minter') };
      expect(JSON.stringify(await botSession(clients, () => {}))).toBe(recorded);
    } finally {
      await replay.close();
    }
  });

  it('gives byte-identical results in mock mode with MATCH_VENUE_MOCK=1 and MATCH_VENUE_MOCK_CASSETTE', async () => {
    process.env.MATCH_VENUE_MOCK = '1';
    process.env.MATCH_VENUE_MOCK_CASSETTE = cassette;
    try {
      const clients = {
        burner: new MatchVenue({ apiKey: SEEDED.burner.apiKey }),
        minter: new MatchVenue({ apiKey: SEEDED.minter.apiKey }),
      };
      expect(JSON.stringify(await botSession(clients, () => {}))).toBe(recorded);
    } finally {
      await (await getMockReplay())?.close();
      delete process.env.MATCH_VENUE_MOCK;
      delete process.env.MATCH_VENUE_MOCK_CASSETTE;
    }
  });

  it('gives byte-identical results through msw handlers built from the cassette', async () => {
    const replay = await createReplay(cassette);
    const baseUrl = 'https://venue.replay.test';
    const server = setupServer(...createCassetteHandlers(replay, { baseUrl }));
    server.listen({ onUnhandledRequest: 'bypass' });
    try {
      const wsUrl = await replay.wsUrl();
      // No fetch or dispatcher option: the client notices msw's patched global fetch.
      const clients = {
        burner: new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl, wsUrl }),
        minter: new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl, wsUrl }),
      };
      expect(JSON.stringify(await botSession(clients, () => {}))).toBe(recorded);
    } finally {
      server.close();
      await replay.close();
    }
  });
});
