import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { BURNER, codeOf, expectError, key, MINTER, newDriver } from './helpers.js';

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
