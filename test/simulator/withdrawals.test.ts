import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { Withdrawal } from '../../src/generated/schemas.js';
import { dataOf, expectError, key, MINTER, newDriver } from './helpers.js';

/** A minter with 1000.00 of venue-only stablecoin (a market MINT filled by a market BURN). */
async function funded() {
  const d = newDriver();
  await d.placed(d.burn('1000.00', { feeBps: null }));
  await d.placed(d.mint('1000.00', { feeBps: null }));
  await d.clear();
  expect(d.balances('minter').venue).toBe('1000.00');
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
    const d = await funded();
    const events: string[] = [];
    d.sim.onEvent((e) => {
      if (e.event === 'withdrawal.updated') events.push((e.data as { status: string }).status);
    });
    const body = withdraw('250.00');
    const r = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, body);
    expect(r.status).toBe(201);
    const w = Withdrawal.parse(dataOf(r));
    expect(w).toMatchObject({
      id: body.idempotencyKey,
      status: 'pending',
      amount: { amount: '250.00', currency: 'USD' },
    });
    expect((await d.account(MINTER.apiKey)).stablecoin).toMatchObject({ reserved: { amount: '250.00' } });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1_000 });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 2_000 });
    expect(events).toEqual(['pending', 'processing', 'completed']);
    expect(d.balances('minter')).toMatchObject({ venue: '750.00', fiat: '250.00' });
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

  it('138001 above the venue balance; 137001 within it but above what in-flight withdrawals leave', async () => {
    const d = await funded();
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('1000.01')),
      400,
      138001,
    );
    expect((await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('600.00'))).status).toBe(
      201,
    );
    expectError(
      await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('500.00')),
      400,
      137001,
    );
    expect((await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, withdraw('400.00'))).status).toBe(
      201,
    );
  });

  it('138002 for a non-positive or non-USD amount; 138004 for a foreign fiat account; 137009 above the limit', async () => {
    const d = await funded();
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
