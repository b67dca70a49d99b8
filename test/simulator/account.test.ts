import { describe, expect, it } from 'vitest';
import { BURNER, key, MINTER, newDriver } from './helpers.js';

const usd = (amount: string) => ({ amount, currency: 'USD' });

describe('GET /v1/match/account numbers', () => {
  it('stablecoin, exposure and activity follow fills, resting orders, withdrawals and the 24 h window', async () => {
    const d = newDriver();
    // 1000.00 matched at the 5 bps reference fee (market orders only): fee = rebate = 0.50.
    await d.placed(d.burn('1000.00', { feeBps: null }));
    await d.placed(d.mint('1000.00', { feeBps: null }));
    await d.clear();
    const burner = await d.account(BURNER.apiKey);
    expect(burner.stablecoin).toEqual({
      available: usd('99999000.00'),
      reserved: usd('0.00'),
      total: usd('99999000.00'),
    });
    expect(burner.activity).toEqual({
      from: '2025-12-31T00:00:00.000Z',
      to: '2026-01-01T00:00:00.000Z',
      totalMatched: usd('1000.00'),
      rebatesEarned: usd('0.00'),
      feesPaid: usd('0.50'),
    });
    // The minter is the mint side: its stablecoin is the venue-only balance the fill drew on.
    let minter = await d.account(MINTER.apiKey);
    expect(minter.stablecoin).toEqual({
      available: usd('99999000.00'),
      reserved: usd('0.00'),
      total: usd('99999000.00'),
    });
    expect(minter.activity).toMatchObject({
      totalMatched: usd('1000.00'),
      rebatesEarned: usd('0.50'),
      feesPaid: usd('0.00'),
    });

    // Resting MINT orders count in exposure and reserve venue-only balance, as withdrawals do.
    await d.placed(d.mint('300.00'));
    await d.placed(d.mint('200.00'));
    const withdrawal = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, {
      idempotencyKey: key(),
      amount: usd('400.00'),
      fiatAccountId: MINTER.fiatAccountId,
    });
    expect(withdrawal.status).toBe(201);
    minter = await d.account(MINTER.apiKey);
    expect(minter.exposure).toEqual({ activeOrderCount: 2, mintOrderCount: 2, burnOrderCount: 0 });
    expect(minter.stablecoin).toEqual({
      available: usd('99998100.00'),
      reserved: usd('900.00'),
      total: usd('99999000.00'),
    });

    // The payout completes: the held 400.00 leaves the venue-only balance; the orders still hold 500.00.
    await d.call('POST', '/_sim/clock/advance', null, { ms: 3_000 });
    minter = await d.account(MINTER.apiKey);
    expect(minter.stablecoin).toEqual({
      available: usd('99998100.00'),
      reserved: usd('500.00'),
      total: usd('99998600.00'),
    });
    expect(minter.exposure.mintOrderCount).toBe(2);

    // The window [now - 24 h, now] is inclusive at both ends: the fill at 00:00 counts until
    // exactly 24 h later, and not one millisecond after.
    await d.call('POST', '/_sim/clock/advance', null, { ms: 86_400_000 - 3_000 });
    minter = await d.account(MINTER.apiKey);
    // The resting orders cleared unmatched at the end of their auction and were dropped: their
    // reservation went back to the venue-only balance.
    expect(minter.exposure).toEqual({ activeOrderCount: 0, mintOrderCount: 0, burnOrderCount: 0 });
    expect(minter.stablecoin).toEqual({
      available: usd('99998600.00'),
      reserved: usd('0.00'),
      total: usd('99998600.00'),
    });
    expect(minter.activity).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
      totalMatched: usd('1000.00'),
      rebatesEarned: usd('0.50'),
      feesPaid: usd('0.00'),
    });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1 });
    expect((await d.account(BURNER.apiKey)).activity).toMatchObject({
      totalMatched: usd('0.00'),
      feesPaid: usd('0.00'),
    });
  });
});
