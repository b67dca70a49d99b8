import { MatchVenue, NotFoundError, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';
import { describe, expect, it } from 'vitest';
import { running, sim, useSimulator } from '../client/simulator-client.js';
import { cassettePath, httpLines, readBack } from './files.js';

// `record` on REST: one `http` line per attempt, written before the call's promise resolves (every
// test reads the file right after awaiting a call), with the exact status and body the venue sent.

useSimulator();

const burnParams = {
  orderType: 'BURN' as const,
  amount: usd('1000'),
  feeBps: '5',
  postFillAction: 'cancel' as const,
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
};
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

function client(record: string, extra: ConstructorParameters<typeof MatchVenue>[0] = {}): MatchVenue {
  return new MatchVenue({
    apiKey: SEEDED.burner.apiKey,
    baseUrl: running.url,
    retry: { sleep: async () => {} },
    record,
    ...extra,
  });
}

describe('record: REST', () => {
  it('writes the header, then every call as an http line with its request and exact answer', async () => {
    const file = cassettePath();
    const venue = client(file);
    const account = await venue.account.retrieve();
    const placed = await venue.orders.place({ ...burnParams, idempotencyKey: crypto.randomUUID() });
    const page = await venue.orders.list({ status: 'pending', pageSize: 5 });
    const missing = await venue.orders
      .retrieve('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);

    const doc = readBack(file);
    expect(doc.header).toMatchObject({ kind: 'cassette', format: 'match-venue-cassette', version: 1 });
    expect(doc.header.sdk).toMatch(/^match-venue-node\/\d+\.\d+\.\d+/);
    const lines = httpLines(doc);
    expect(lines.map((l) => [l.request.method, l.request.path, l.response?.status, l.attempt])).toEqual([
      ['GET', '/v1/match/account', 200, 1],
      ['POST', '/v1/match/orders', 202, 1],
      ['GET', '/v1/match/orders', 200, 1],
      ['GET', '/v1/match/orders/00000000-0000-4000-8000-000000000000', 404, 1],
    ]);
    for (const line of lines) {
      expect(line.keyId).toBe('burner');
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(line.at)).not.toBeNaN();
      expect(line.error).toBeUndefined();
    }
    const [get, post, list, notFound] = lines;
    expect(get?.request).toEqual({ method: 'GET', path: '/v1/match/account', query: {}, body: null });
    expect(get?.response?.body).toEqual({ data: json(account) });
    expect(post?.request.body).toEqual(json({ ...burnParams, idempotencyKey: placed.orderId }));
    expect(post?.response?.body).toEqual({ data: json(placed) });
    expect(list?.request.query).toEqual({ page: '1', pageSize: '5', status: 'pending' });
    expect(list?.response?.body).toMatchObject({ data: { orders: json(page.items) } });
    expect(notFound?.response?.body).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  });

  it('a retried call has a line per attempt: the 503, then attempt 2 with the same request', async () => {
    const file = cassettePath();
    sim.setFaults({ errorRate: 1 });
    const venue = client(file, { retry: { sleep: async () => sim.setFaults({}) } });
    const placed = await venue.orders.place(burnParams);
    const lines = httpLines(readBack(file));
    expect(lines.map((l) => [l.attempt, l.response?.status])).toEqual([
      [1, 503],
      [2, 202],
    ]);
    expect(lines[1]?.request).toEqual(lines[0]?.request);
    expect(lines[1]?.request.body).toMatchObject({ idempotencyKey: placed.orderId });
    expect(lines[0]?.response?.body).toMatchObject({ code: -1 });
  });

  it('an attempt whose answer never came is written with a null response and why', async () => {
    const file = cassettePath();
    const venue = client(file);
    sim.setFaults({ dropResponse: true });
    await venue.orders.place(burnParams);
    const lines = httpLines(readBack(file));
    expect(lines.map((l) => [l.attempt, l.response?.status ?? null])).toEqual([
      [1, null],
      [2, 202],
    ]);
    expect(lines[0]?.error).toMatch(/^connection: /);

    // In process (createMockVenue), the dropped answer is the handler's rejection.
    const mock = await createMockVenue();
    try {
      const inProcess = cassettePath();
      const burner = mock.client('burner', { record: inProcess, retry: { sleep: async () => {} } });
      mock.setFaults({ dropResponse: true });
      await burner.orders.place(burnParams);
      const [dropped, retried] = httpLines(readBack(inProcess));
      expect(dropped).toMatchObject({
        attempt: 1,
        response: null,
        error: expect.stringMatching(/^connection: /),
      });
      expect(retried).toMatchObject({ attempt: 2, response: { status: 202 } });
    } finally {
      await mock.close();
    }
  });

  it('an attempt that timed out is written with error timeout', async () => {
    const file = cassettePath();
    sim.setFaults({ latencyMs: 2_000 });
    const venue = client(file, { timeout: 50, maxRetries: 0 });
    await expect(venue.account.retrieve()).rejects.toThrow(/timed out/);
    sim.setFaults({});
    const [line] = httpLines(readBack(file));
    expect(line).toMatchObject({ attempt: 1, response: null, error: expect.stringMatching(/^timeout: /) });
  });

  it('names the path below a base URL that has one, and keeps a body that is not JSON as text', async () => {
    const file = cassettePath();
    const venue = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: 'https://venue.example/match-prefix',
      record: file,
      maxRetries: 0,
      handler: async () => new Response('upstream exploded', { status: 502 }),
    });
    await expect(venue.configuration.retrieve()).rejects.toThrow();
    const [line] = httpLines(readBack(file));
    expect(line?.request.path).toBe('/v1/configuration');
    expect(line?.response).toEqual({ status: 502, body: null, text: 'upstream exploded' });
  });
});
