import fc from 'fast-check';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { BURNER, dataOf, expectError, MINTER, newDriver } from './helpers.js';

describe('auth and request validation', () => {
  it('401 code 401 for a missing or malformed credential, 401 156007 for an unknown key', async () => {
    const d = newDriver();
    const malformed = {
      code: 401,
      message: 'Malformed authorization. Are the credentials properly encoded?',
    };
    for (const header of [
      undefined,
      'Basic abc',
      'Bearer',
      'Bearer not-a-key',
      'Bearer TEST_API_KEY:onlyone',
    ]) {
      const res = await d.sim.handle(
        new Request('http://sim.test/v1/match/account', { headers: header ? { authorization: header } : {} }),
      );
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(malformed);
    }
    expectError(await d.call('GET', '/v1/match/account', 'TEST_API_KEY:nobody:secret'), 401, 156007);
  });

  it('malformed JSON and non-object bodies: 400 code 2 with the extended body', async () => {
    const d = newDriver();
    for (const raw of ['{"orderType":', '', '[]', '"text"', 'null', '42']) {
      const r = await d.call('POST', '/v1/match/orders', BURNER.apiKey, raw);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 2, errors: [{ location: 'body' }] });
    }
  });

  it('bad list queries: 400 code 2 naming the parameter; from after to rejected', async () => {
    const d = newDriver();
    const cases: [string, string][] = [
      ['?page=0', 'page'],
      ['?pageSize=101', 'pageSize'],
      ['?status=open', 'status'],
      ['?orderType=SWAP', 'orderType'],
      ['?orderId=nope', 'orderId'],
      ['?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ];
    for (const [q, location] of cases) {
      const r = await d.call('GET', `/v1/match/orders${q}`, BURNER.apiKey);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: 2,
        errors: expect.arrayContaining([expect.objectContaining({ location })]),
      });
    }
    expectError(await d.call('GET', '/v1/match/orders/not-a-uuid', BURNER.apiKey), 400, 2);
  });

  it('lists with filters and pagination, sorted by createdAt then orderId', async () => {
    const d = newDriver();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await d.placed(d.burn('100.00')));
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1_000 });
    const later = await d.placed(d.burn('100.00'));
    const page = await d.list(BURNER.apiKey, '?pageSize=2&page=2');
    expect(page.pagination).toEqual({ page: 2, pageSize: 2, total: 6 });
    expect(page.orders.map((o) => o.orderId)).toEqual([...ids].sort().slice(2, 4));
    const last = await d.list(BURNER.apiKey, '?from=2026-01-01T00:00:01.000Z');
    expect(last.orders.map((o) => o.orderId)).toEqual([later]);
    expect((await d.list(BURNER.apiKey, `?orderId=${ids[0]}`)).pagination.total).toBe(1);
    expect((await d.list(BURNER.apiKey, '?orderType=MINT')).pagination.total).toBe(0);
    expect((await d.list(MINTER.apiKey)).pagination.total).toBe(0);
  });

  it('never answers 500 to garbage bodies, paths or queries (fuzzed)', async () => {
    const errors: unknown[] = [];
    const sim = createSimulator({ logger: { info: () => {}, error: (_m, e) => errors.push(e) } });
    const paths = [
      '/v1/match/orders',
      '/v1/match/orders/cancel',
      '/v1/match/orders/modify',
      '/v1/match/withdrawals',
      '/_sim/faults',
      '/_sim/auctions/clear',
      '/_sim/phase',
      '/_sim/clock/advance',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.string(),
          fc.json(),
          fc
            .jsonValue()
            .map((v) => JSON.stringify({ orderType: 'BURN', amount: v, auctionId: v, feeBps: v, ms: v })),
        ),
        fc.string(),
        async (path, body, query) => {
          const res = await sim.handle(
            new Request(`http://sim.test${path}?${encodeURIComponent(query)}=${encodeURIComponent(query)}`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${SEEDED.burner.apiKey}`,
                'content-type': 'application/json',
              },
              body,
            }),
          );
          expect(res.status).toBeLessThan(500);
          const listRes = await sim.handle(
            new Request(
              `http://sim.test/v1/match/orders?page=${encodeURIComponent(query)}&from=${encodeURIComponent(body)}`,
              {
                headers: { authorization: `Bearer ${SEEDED.burner.apiKey}` },
              },
            ),
          );
          expect(listRes.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    expect(errors).toEqual([]);
    await sim.close();
  });

  it('x-request-id on every response, echoing a caller-provided one', async () => {
    const d = newDriver();
    const r = await d.call('GET', '/nowhere', null);
    expect(r.status).toBe(404);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    const res = await d.sim.handle(
      new Request('http://sim.test/_sim/state', { headers: { 'x-request-id': 'abc-123' } }),
    );
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('platform paths reach the platform simulator (GET /v1/configuration)', async () => {
    const d = newDriver();
    const r = await d.call('GET', '/v1/configuration', BURNER.apiKey);
    expect(r.status).toBe(200);
    expect(dataOf(r)).toMatchObject({ payments: { masterWalletId: expect.any(String) } });
    expectError(await d.call('GET', '/v1/configuration', null), 401, 401);
  });

  it('POST /v1/match/ws/ticket issues a ticket the simulator verifies', async () => {
    const d = newDriver();
    const r = await d.call('POST', '/v1/match/ws/ticket', BURNER.apiKey);
    expect(r.status).toBe(200);
    const { ticket, expiresAt } = dataOf(r) as { ticket: string; expiresAt: string };
    expect(expiresAt).toBe('2026-01-01T00:00:30.000Z');
    await expect(d.sim.tickets.verify(ticket)).resolves.toEqual({ entityId: BURNER.entityId });
  });
});
