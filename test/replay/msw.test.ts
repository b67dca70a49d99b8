import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APIConnectionError, isApiError, MatchVenue } from 'match-venue';
import { createCassetteHandlers } from 'match-venue/msw';
import { parseCassette, SEEDED } from 'match-venue/simulator';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cassetteText, httpLine } from '../helpers/cassette-lines.js';

// The client's base URL has a path: the recorder wrote paths below it, and the handlers read below it.
const BASE = 'https://venue.msw-replay.test/api';
const doc = parseCassette(
  cassetteText(
    httpLine('burner', { method: 'GET', path: '/v1/match/account' }, null, {
      error: 'connection: TypeError: fetch failed',
    }),
    httpLine(
      'burner',
      { method: 'GET', path: '/v1/match/account' },
      { status: 200, body: { data: { id: 'a' } } },
      {
        attempt: 2,
      },
    ),
    httpLine(
      'burner',
      { method: 'GET', path: '/v1/match/orders/00000000-0000-4000-8000-000000000001' },
      { status: 404, body: { code: 1, message: 'gone' } },
    ),
  ),
);
const server = setupServer(...createCassetteHandlers(doc, { baseUrl: BASE }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const client = (maxRetries = 2) =>
  new MatchVenue({
    apiKey: SEEDED.burner.apiKey,
    baseUrl: BASE,
    maxRetries,
    validateResponses: false,
    retry: { sleep: async () => {} },
  });

describe('msw handlers from a cassette', () => {
  it('answer through the global fetch, a recorded failure as a network error the client retries', async () => {
    const venue = client();
    const attempts: number[] = [];
    venue.on('response', (e) => attempts.push(e.attempt));
    expect(await venue.account.retrieve()).toEqual({ id: 'a' });
    expect(attempts).toEqual([1, 2]);
    const missing = await venue.orders
      .retrieve('00000000-0000-4000-8000-000000000001')
      .catch((e: unknown) => e);
    expect(isApiError(missing) && missing.status).toBe(404);
  });

  it('answer a request the cassette never saw with a 500 whose message names it and the nearest one', async () => {
    const err = await client(0)
      .orders.retrieve('00000000-0000-4000-8000-000000000002')
      .catch((e: unknown) => e);
    expect(isApiError(err) && err.status).toBe(500);
    expect((err as Error).message).toContain(
      'The cassette holds no recorded exchange for GET /v1/match/orders/00000000-0000-4000-8000-000000000002 (key burner, body none); ' +
        'the nearest recorded is GET /v1/match/orders/00000000-0000-4000-8000-000000000001 (key burner, body none)',
    );
    expect(err).not.toBeInstanceOf(APIConnectionError);
  });

  it('answer every request with the CassetteError of a file that cannot be used, naming the line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mv-msw-replay-')), 'cut.ndjson');
    writeFileSync(file, `${cassetteText()}{"kind":"http","at":`);
    const base = 'https://venue.msw-cut.test';
    server.use(...createCassetteHandlers(file, { baseUrl: base }));
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: base, maxRetries: 0 });
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    expect(isApiError(err) && err.status).toBe(500);
    expect((err as Error).message).toContain(`${file}, line 2: is not complete JSON: the line was cut short`);
  });
});
