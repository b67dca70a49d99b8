import { connect } from 'node:net';
import fc from 'fast-check';
import { createSimulator, DroppedResponseError, SEEDED } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { BURNER, codeOf, dataOf, expectError, key, MINTER, newDriver } from './helpers.js';

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

describe('faults and rate limiting', () => {
  it('errorRate 1: 503 code -1 and nothing applied', async () => {
    const d = newDriver();
    await d.call('POST', '/_sim/faults', null, { errorRate: 1 });
    expectError(await d.burn('100.00'), 503, -1);
    await d.call('POST', '/_sim/faults', null, {});
    expect((await d.list(BURNER.apiKey)).pagination.total).toBe(0);
  });

  it('dropResponse: the request is applied, the in-process caller gets a network-style TypeError', async () => {
    const d = newDriver();
    d.sim.setFaults({ dropResponse: 1 });
    const id = key();
    const req = new Request('http://sim.test/v1/match/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${MINTER.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        idempotencyKey: id,
        orderType: 'MINT',
        amount: { amount: '100.00', currency: 'USD' },
        postFillAction: 'cancel',
      }),
    });
    const err = await d.sim.handle(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DroppedResponseError);
    expect(err).toBeInstanceOf(TypeError);
    expect((await d.order(id, MINTER.apiKey)).status).toBe('pending');
  });

  it('venueWalletInvalid: GET /v1/match/account answers 400 139001', async () => {
    const d = newDriver();
    await d.call('POST', '/_sim/faults', null, { venueWalletInvalid: true });
    expectError(await d.call('GET', '/v1/match/account', BURNER.apiKey), 400, 139001);
    // An entity without an account still gets 138003 first.
    expectError(await d.call('GET', '/v1/match/account', SEEDED.noaccount.apiKey), 404, 138003);
    await d.call('POST', '/_sim/faults', null, {});
    expect((await d.call('GET', '/v1/match/account', BURNER.apiKey)).status).toBe(200);
  });

  it('killSockets signals the WebSocket layer', async () => {
    const d = newDriver();
    const signals: string[] = [];
    d.sim.onControl((s) => signals.push(s.type));
    await d.call('POST', '/_sim/faults', null, { killSockets: true });
    expect(signals).toEqual(['killSockets']);
  });

  it('rate limit: 429 with Retry-After past the configured budget', async () => {
    const d = newDriver({ rateLimit: { requests: 2, windowMs: 60_000 } });
    expect((await d.call('GET', '/v1/match/orders', BURNER.apiKey)).status).toBe(200);
    expect((await d.call('GET', '/v1/match/orders', BURNER.apiKey)).status).toBe(200);
    const r = await d.call('GET', '/v1/match/orders', BURNER.apiKey);
    expectError(r, 429, -1);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await d.call('GET', '/v1/match/orders', MINTER.apiKey)).status).toBe(200);
  });

  it('reset returns to the seeded state', async () => {
    const d = newDriver();
    await d.placed(d.burn('100.00'));
    await d.call('POST', '/_sim/reset', null);
    expect((await d.list(BURNER.apiKey)).pagination.total).toBe(0);
    expect(d.sim.getState().auction.auctionId).toBe(1);
    expect(codeOf(await d.call('POST', '/_sim/phase', null, { phase: 'closed' }))).toBe(2);
    expectError(await d.call('POST', '/_sim/clock/advance', null, { ms: -1 }), 400, 2);
    expectError(await d.call('POST', '/_sim/clock/advance', null, { ms: 604_800_001 }), 400, 2);
    expectError(await d.call('POST', '/_sim/faults', null, { errorRate: 2 }), 400, 2);
  });
});

describe('over node:http', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('an unusable Host header is a 400 code 2 with the extended body and a request id', async () => {
    const sim = createSimulator();
    const running = await sim.listen({ port: 0 });
    close = () => sim.close();
    const port = Number(new URL(running.url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /_sim/state HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (b: Buffer) => {
        text += b.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toMatch(/\r\nx-request-id: req_/);
    expect(JSON.parse(body)).toMatchObject({ code: 2, errors: [{ location: 'url' }] });
  });

  it('serves the same handler with keep-alive; dropResponse destroys the socket', async () => {
    const sim = createSimulator();
    const running = await sim.listen({ port: 0 });
    close = () => sim.close();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.wsUrl).toBe(running.url.replace('http', 'ws'));
    const res = await fetch(`${running.url}/v1/match/account`, {
      headers: { authorization: `Bearer ${BURNER.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await res.json()) as { data: { accountId: string } }).data.accountId).toBe(BURNER.accountId);
    const posted = await fetch(`${running.url}/_sim/auctions/clear`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"settle":false}',
    });
    expect(posted.status).toBe(200);
    sim.setFaults({ dropResponse: true });
    await expect(
      fetch(`${running.url}/v1/match/orders`, { headers: { authorization: `Bearer ${BURNER.apiKey}` } }),
    ).rejects.toThrow(TypeError);
    const after = await fetch(`${running.url}/_sim/state`);
    expect(after.status).toBe(200);
  });
});

describe('malformed input: always 400 with the extended body, never a 500', () => {
  it('every code 2 answer carries an errors entry naming the field, also for faults the engine finds', async () => {
    const d = newDriver();
    const burn = (extra: Record<string, unknown>) => ({
      idempotencyKey: key(),
      orderType: 'BURN',
      amount: { amount: '100.00', currency: 'USD' },
      postFillAction: 'cancel',
      sourceWalletId: BURNER.walletId,
      fiatAccountId: BURNER.fiatAccountId,
      ...extra,
    });
    const resting = await d.placed(d.burn('100.00'));
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        '/v1/match/orders',
        burn({ amount: { amount: '100.00', currency: 'EUR' } }),
        'amount.currency',
      ],
      ['POST', '/v1/match/orders', burn({ feeBps: '99999999999999999999' }), 'feeBps'],
      ['POST', '/v1/match/orders', burn({ feeBps: 5 }), 'feeBps'],
      ['POST', '/v1/match/orders', burn({ amount: ['100.00', 'USD'] }), 'amount'],
      ['POST', '/v1/match/orders', burn({ postFillAction: ['roll'] }), 'postFillAction'],
      ['POST', '/v1/match/orders', burn({ sourceWalletId: 7 }), 'sourceWalletId'],
      ['POST', '/v1/match/orders', [burn({})], 'body'],
      ['POST', '/v1/match/orders/cancel', { auctionId: '1', orderId: key() }, 'auctionId'],
      ['POST', '/v1/match/orders/cancel', { auctionId: 1e308, orderId: key() }, 'auctionId'],
      ['POST', '/v1/match/orders/cancel', { auctionId: 1.5, orderId: key() }, 'auctionId'],
      ['POST', '/v1/match/orders/modify', { auctionId: 1, orderId: resting, feeBps: '1e3' }, 'feeBps'],
      [
        'POST',
        '/v1/match/orders/modify',
        { auctionId: 1, orderId: resting, feeBps: '1'.repeat(20) },
        'feeBps',
      ],
      [
        'POST',
        '/v1/match/withdrawals',
        { idempotencyKey: key(), amount: '5.00', fiatAccountId: key() },
        'amount',
      ],
      ['GET', '/v1/match/orders?page=0x10', undefined, 'page'],
      ['GET', '/v1/match/orders?page=1e2', undefined, 'page'],
      ['GET', '/v1/match/orders?page=', undefined, 'page'],
      ['GET', '/v1/match/orders?pageSize=2.0', undefined, 'pageSize'],
      ['GET', '/v1/match/orders?page=99999999999999999999', undefined, 'page'],
    ];
    for (const [method, path, body, location] of cases) {
      const r = await d.call(method, path, BURNER.apiKey, body);
      expect({ path, body, status: r.status, code: codeOf(r) }).toEqual({ path, body, status: 400, code: 2 });
      expect(r.body).toMatchObject({
        message: expect.stringContaining(location),
        errors: expect.arrayContaining([expect.objectContaining({ location, message: expect.any(String) })]),
      });
    }
    expect((await d.list(BURNER.apiKey)).pagination.total).toBe(1);
    expect((await d.order(resting, BURNER.apiKey)).feeBps).toBeNull();
  });

  it('an amount too large for exact cents is above the transaction limit (137009), not a 500 or a code 2', async () => {
    const d = newDriver();
    const huge = { amount: '100000000000000000000000.00', currency: 'USD' };
    expectError(await d.burn('100.00', { amount: huge }), 400, 137009);
    // The key of an accepted order keeps answering 137004 to other parameters, huge ones included.
    const body = {
      idempotencyKey: key(),
      orderType: 'MINT',
      amount: { amount: '100.00', currency: 'USD' },
      postFillAction: 'cancel',
    };
    expect((await d.call('POST', '/v1/match/orders', MINTER.apiKey, body)).status).toBe(202);
    expectError(
      await d.call('POST', '/v1/match/orders', MINTER.apiKey, { ...body, amount: huge }),
      409,
      137004,
    );
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, {
        idempotencyKey: key(),
        amount: huge,
        fiatAccountId: MINTER.fiatAccountId,
      }),
      400,
      137009,
    );
  });

  it('JSON nested deeper than the stack, huge values and huge key sets: 400 code 2, clipped echoes, nothing logged', async () => {
    const logged: unknown[] = [];
    const sim = createSimulator({ logger: { info: () => {}, error: (_m, e) => logged.push(e) } });
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const bodies: [string, string][] = [
      ['/v1/match/orders', deep(100_000)],
      ['/v1/match/orders', `{"orderType":"BURN","amount":${deep(5_000)}}`],
      ['/v1/match/orders/cancel', `{"auctionId":${deep(5_000)},"orderId":"x"}`],
      ['/v1/match/withdrawals', `{"amount":{"amount":${deep(5_000)},"currency":"USD"}}`],
      ['/_sim/faults', `{"failSettlement":${deep(5_000)}}`],
      ['/_sim/faults', `{${Array.from({ length: 5_000 }, (_, i) => `"k${i}":1`).join(',')}}`],
      ['/v1/match/orders', `{"orderType":"MINT","idempotencyKey":"${'x'.repeat(100_000)}"}`],
    ];
    for (const [path, body] of bodies) {
      const res = await sim.handle(
        new Request(`http://sim.test${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SEEDED.burner.apiKey}`, 'content-type': 'application/json' },
          body,
        }),
      );
      const text = await res.text();
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      const parsed = JSON.parse(text) as {
        code: number;
        message: string;
        errors: { invalidValue?: string }[];
      };
      expect(parsed.code).toBe(2);
      expect(parsed.message.length).toBeLessThan(400);
      for (const e of parsed.errors) expect(e.invalidValue?.length ?? 0).toBeLessThanOrEqual(201);
    }
    expect(logged).toEqual([]);
    await sim.close();
  });

  it('names the field once in the message', async () => {
    const d = newDriver();
    const r = await d.call('POST', '/v1/match/orders', BURNER.apiKey, { orderType: 'SWAP' });
    expect(r.body).toMatchObject({ code: 2, message: 'Invalid request: orderType must be BURN or MINT' });
  });
});
