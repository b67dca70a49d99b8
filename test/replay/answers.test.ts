import { APIConnectionError } from 'match-venue';
import { parseCassette, SEEDED } from 'match-venue/simulator';
import { createMockVenue, createReplay, UnrecordedRequestError } from 'match-venue/testing';
import { describe, expect, it } from 'vitest';
import { cassetteText, httpLine } from '../helpers/cassette-lines.js';

const base = 'http://mock.match-venue.localhost';
const get = (path: string, key: string = SEEDED.burner.apiKey) =>
  new Request(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
const post = (path: string, body: unknown, key: string = SEEDED.burner.apiKey) =>
  new Request(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const order = (status: string) => ({ data: { orderId: 'ord_1', status } });
const burn = { orderType: 'BURN', amount: { amount: '1000.00', currency: 'USD' } };

const doc = parseCassette(
  cassetteText(
    httpLine(
      'burner',
      { method: 'GET', path: '/v1/match/orders/ord_1' },
      { status: 200, body: order('pending') },
    ),
    httpLine(
      'burner',
      { method: 'POST', path: '/v1/match/orders', body: { ...burn, idempotencyKey: 'k-recorded' } },
      { status: 201, body: { data: { orderId: 'ord_1' } } },
    ),
    httpLine(
      'burner',
      { method: 'GET', path: '/v1/match/orders/ord_1' },
      { status: 200, body: order('filled') },
    ),
    httpLine(
      'burner',
      { method: 'GET', path: '/v1/match/orders', query: { status: 'open', limit: '10' } },
      { status: 200, body: { data: [] } },
    ),
    httpLine('minter', { method: 'GET', path: '/v1/match/account' }, null, {
      error: 'socket hang up (ECONNRESET)',
    }),
    httpLine(
      'minter',
      { method: 'GET', path: '/v1/match/account' },
      { status: 200, body: { data: { id: 'acct_m' } } },
      {
        attempt: 2,
      },
    ),
  ),
  'answers.ndjson',
);

describe('replay: recorded answers by request signature', () => {
  it('answers in recorded order and repeats the last answer once they are used up', async () => {
    const replay = await createReplay(doc);
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const body = (await (await replay.handle(get('/v1/match/orders/ord_1'))).json()) as ReturnType<
        typeof order
      >;
      statuses.push(body.data.status);
    }
    expect(statuses).toEqual(['pending', 'filled', 'filled', 'filled']);
  });

  it('matches a write whatever its idempotency key, and a query whatever its order', async () => {
    const replay = await createReplay(doc);
    const placed = await replay.handle(post('/v1/match/orders', { ...burn, idempotencyKey: 'k-fresh' }));
    expect(placed.status).toBe(201);
    expect(await placed.json()).toEqual({ data: { orderId: 'ord_1' } });
    const listed = await replay.handle(get('/v1/match/orders?limit=10&status=open'));
    expect(await listed.json()).toEqual({ data: [] });
  });

  it('replays a recorded dropped connection as a failed fetch: the client retries into the next attempt', async () => {
    const venue = await createMockVenue({ cassette: doc });
    const minter = venue.client('minter', { validateResponses: false, retry: { sleep: async () => {} } });
    const attempts: number[] = [];
    minter.on('response', (event) => attempts.push(event.attempt));
    expect(await minter.account.retrieve()).toEqual({ id: 'acct_m' });
    expect(attempts).toEqual([1, 2]);
    // With no retry left, the recorded failure is the client's connection error.
    const once = (await createMockVenue({ cassette: doc })).client('minter', { maxRetries: 0 });
    await expect(once.account.retrieve()).rejects.toBeInstanceOf(APIConnectionError);
    await venue.close();
  });

  it('replays a recorded timeout as no answer until the client gives up, then the retry is answered', async () => {
    const timedOut = parseCassette(
      cassetteText(
        httpLine('burner', { method: 'GET', path: '/v1/match/account' }, null, {
          error: 'timeout: timed out after 50ms',
        }),
        httpLine(
          'burner',
          { method: 'GET', path: '/v1/match/account' },
          { status: 200, body: { data: { id: 'acct_b' } } },
          { attempt: 2 },
        ),
      ),
    );
    const venue = await createMockVenue({ cassette: timedOut });
    const burner = venue.client('burner', {
      timeout: 50,
      validateResponses: false,
      retry: { sleep: async () => {} },
    });
    const outcomes: string[] = [];
    burner.on('response', (e) => outcomes.push(`${e.attempt} ${e.status ?? e.error?.kind}`));
    expect(await burner.account.retrieve()).toEqual({ id: 'acct_b' });
    expect(outcomes).toEqual(['1 MV_TIMEOUT', '2 200']);
    await venue.close();
  });

  it('refuses a request the cassette never saw, naming it and the nearest recorded request', async () => {
    const replay = await createReplay(doc);
    // Same endpoint, another body: the nearest is the recorded place.
    await expect(
      replay.handle(post('/v1/match/orders', { ...burn, orderType: 'MINT', idempotencyKey: 'k2' })),
    ).rejects.toThrow(
      'The cassette holds no recorded exchange for POST /v1/match/orders (key burner, body ' +
        '{"orderType":"MINT","amount":{"amount":"1000.00","currency":"USD"}}); the nearest recorded is ' +
        'POST /v1/match/orders (key burner, body {"orderType":"BURN","amount":{"amount":"1000.00","currency":"USD"}})',
    );
    // Another query of a recorded path: the recorded one of that path.
    await expect(replay.handle(get('/v1/match/orders?status=filled&limit=10'))).rejects.toThrow(
      'The cassette holds no recorded exchange for GET /v1/match/orders?limit=10&status=filled (key burner, ' +
        'body none); the nearest recorded is GET /v1/match/orders?limit=10&status=open (key burner, body none)',
    );
    // A path never recorded: the closest signature of all.
    await expect(replay.handle(get('/v1/match/orders/ord_2'))).rejects.toThrow(
      'the nearest recorded is GET /v1/match/orders/ord_1 (key burner, body none)',
    );
  });

  it("rejects the client's call with the error as is (kind MV_REPLAY_UNRECORDED), unretried, never showing the key", async () => {
    const venue = await createMockVenue({ cassette: doc });
    const burner = venue.client('burner');
    let sent = 0;
    burner.on('request', () => sent++);
    const err = await burner.account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecordedRequestError);
    expect(err).toMatchObject({
      kind: 'MV_REPLAY_UNRECORDED',
      code: 'MV_REPLAY_UNRECORDED',
      request: 'GET /v1/match/account (key burner, body none)',
      nearest: 'GET /v1/match/account (key minter, body none)',
    });
    expect(sent).toBe(1);
    expect(String(err)).not.toContain(SEEDED.burner.apiKey);
    await venue.close();
  });

  it('never shows a secret of the request in the error', async () => {
    const replay = await createReplay(doc);
    const secretKey = 'TEST_API_KEY:burner:s3cr3t-value';
    const err = await replay
      .handle(post('/v1/match/orders', { token: 'tok-live-secret', note: secretKey }, secretKey))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecordedRequestError);
    expect((err as Error).message).toContain('body {"token":"[redacted]","note":"[redacted]"}');
    expect((err as Error).message).not.toMatch(/s3cr3t|tok-live/);
  });
});
