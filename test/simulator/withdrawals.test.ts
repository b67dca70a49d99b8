import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { Withdrawal } from '../../src/generated/validators.js';
import { parse } from '../helpers/checks.js';
import { BURNER, dataOf, expectError, key, MINTER, newDriver } from './helpers.js';

/** The seeded minter: prefunded with 100,000,000.00 of venue-only stablecoin. */
function funded() {
  const d = newDriver();
  expect(d.balances('minter')).toMatchObject({ venue: '100000000.00', venueReserved: '0.00' });
  return d;
}

const withdraw = (amount: string, extra: Record<string, unknown> = {}) => ({
  idempotencyKey: key(),
  amount: { amount, currency: 'USD' },
  fiatAccountId: MINTER.fiatAccountId,
  ...extra,
});

describe('withdrawals', () => {
  it('201 pending, then processing and completed by the payout processor; USD reaches the fiat account', async () => {
    const d = funded();
    const events: string[] = [];
    d.sim.onEvent((e) => {
      if (e.event === 'withdrawal.updated') events.push((e.data as { status: string }).status);
    });
    const body = withdraw('250.00');
    const r = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, body);
    expect(r.status).toBe(201);
    const w = parse(Withdrawal, dataOf(r));
    expect(w).toMatchObject({
      id: body.idempotencyKey,
      status: 'pending',
      amount: { amount: '250.00', currency: 'USD' },
    });
    expect((await d.account(MINTER.apiKey)).stablecoin).toMatchObject({ reserved: { amount: '250.00' } });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1_000 });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 2_000 });
    expect(events).toEqual(['pending', 'processing', 'completed']);
    expect(d.balances('minter')).toMatchObject({ venue: '99999750.00', fiat: '100000250.00' });
    // Same key + params: the original 201 body; other params: 409 137004.
    const again = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, body);
    expect(again.status).toBe(201);
    expect(again.text).toBe(r.text);
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, {
        ...body,
        amount: { amount: '1.00', currency: 'USD' },
      }),
      409,
      137004,
    );
  });

  it('138001 above the unreserved venue-only balance: resting MINT orders and payouts in flight hold theirs', async () => {
    const d = newDriver({ transactionLimit: '1000000000.00' });
    // A resting MINT order holds all but 1,000.00 of the prefund.
    const mint = await d.placed(d.mint('99999000.00', { feeBps: '3' }));
    const over = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('1000.01'));
    expectError(over, 400, 138001);
    expect((over.body as { message: string }).message).toContain(
      'available venue-only balance of 1000.00 USD',
    );
    expect((await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('600.00'))).status).toBe(
      201,
    );
    // Within the balance, but the 600.00 in flight leaves 400.00: still 138001 (not 137001).
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('500.00')),
      400,
      138001,
    );
    expect((await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('400.00'))).status).toBe(
      201,
    );
    expectError(await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('0.01')), 400, 138001);
    expect((await d.account(MINTER.apiKey)).stablecoin).toEqual({
      available: { amount: '0.00', currency: 'USD' },
      reserved: { amount: '100000000.00', currency: 'USD' },
      total: { amount: '100000000.00', currency: 'USD' },
    });
    // Cancelling the order frees its reservation: the unused rest can be wired out.
    expect(
      (await d.call('POST', '/v1/match/orders/cancel', MINTER.apiKey, { auctionId: 1, orderId: mint }))
        .status,
    ).toBe(200);
    expect(
      (await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('99999000.00'))).status,
    ).toBe(201);
    await d.call('POST', '/_sim/clock/advance', null, { ms: 3_000 });
    expect(d.balances('minter')).toMatchObject({
      venue: '0.00',
      venueReserved: '0.00',
      fiat: '200000000.00',
      wallet: '100000000.00',
    });
  });

  it('a burn-side entity has no venue-only balance to withdraw until a wire lands one', async () => {
    const d = newDriver();
    const body = (amount: string) => withdraw(amount, { fiatAccountId: BURNER.fiatAccountId });
    expectError(await d.call('POST', '/v1/match/withdrawals', BURNER.apiKey, body('100.00')), 400, 138001);
    expect((await d.wire(BURNER.entityId, '100.00')).status).toBe(200);
    expect((await d.call('POST', '/v1/match/withdrawals', BURNER.apiKey, body('100.00'))).status).toBe(201);
  });

  it('138002 for a non-positive or non-USD amount; 138004 for a foreign fiat account; 137009 above the limit', async () => {
    const d = funded();
    expectError(await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('0.00')), 400, 138002);
    expectError(await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('-5.00')), 400, 138002);
    expectError(
      await d.call(
        'POST',
        '/v1/match/withdrawals',
        MINTER.apiKey,
        withdraw('5.00', { amount: { amount: '5.00', currency: 'EUR' } }),
      ),
      400,
      138002,
    );
    expectError(
      await d.call(
        'POST',
        '/v1/match/withdrawals',
        MINTER.apiKey,
        withdraw('5.00', { fiatAccountId: SEEDED.burner.fiatAccountId }),
      ),
      400,
      138004,
    );
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('10000000.01')),
      400,
      137009,
    );
    // A missing field is a malformed request (code 2), not 138002.
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, { idempotencyKey: key() }),
      400,
      2,
    );
  });

  it('138003 for an entity without a venue account (account and withdrawal)', async () => {
    const d = newDriver();
    const k = SEEDED.noaccount.apiKey;
    expectError(await d.call('GET', '/v1/match/account', k), 404, 138003);
    expectError(
      await d.call(
        'POST',
        '/v1/match/withdrawals',
        k,
        withdraw('1.00', { fiatAccountId: SEEDED.noaccount.fiatAccountId }),
      ),
      404,
      138003,
    );
  });
});
