import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { BURNER, codeOf, dataOf, expectError, key, MINTER, newDriver } from './helpers.js';

const burnBody = (amount: string, extra: Record<string, unknown> = {}) => ({
  idempotencyKey: key(),
  orderType: 'BURN',
  amount: { amount, currency: 'USD' },
  feeBps: '5',
  postFillAction: 'cancel',
  sourceWalletId: BURNER.walletId,
  fiatAccountId: BURNER.fiatAccountId,
  ...extra,
});

describe('place', () => {
  it('accepts a BURN: 202 pending, orderId = idempotencyKey, wallet amount reserved', async () => {
    const d = newDriver();
    const body = burnBody('1000.00');
    const r = await d.call('POST', '/v1/match/orders', BURNER.apiKey, body);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ data: { auctionId: 1, orderId: body.idempotencyKey, status: 'pending' } });
    expect(d.balances('burner')).toMatchObject({ wallet: '100000000.00', walletReserved: '1000.00' });
    const o = await d.order(body.idempotencyKey, BURNER.apiKey);
    expect(o).toMatchObject({
      orderId: body.idempotencyKey,
      auctionId: 1,
      orderType: 'BURN',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '5',
      status: 'pending',
      fill: null,
      lineage: { parentOrderId: null, childOrderId: null },
      sourceWalletId: BURNER.walletId,
      fiatAccountId: BURNER.fiatAccountId,
    });
  });

  it('accepts a MINT (market order): venue-only balance reserved, wallet fields null', async () => {
    const d = newDriver();
    const id = await d.placed(d.mint('500.00'));
    expect(d.balances('minter')).toMatchObject({
      venue: '100000000.00',
      venueReserved: '500.00',
      wallet: '100000000.00',
      walletReserved: '0.00',
    });
    expect(await d.order(id, MINTER.apiKey)).toMatchObject({
      feeBps: null,
      sourceWalletId: null,
      fiatAccountId: null,
    });
  });

  it('replays the same key + params byte-for-byte, also after the order moved on; 409 137004 on other params', async () => {
    const d = newDriver();
    const body = burnBody('1000.00');
    const first = await d.call('POST', '/v1/match/orders', BURNER.apiKey, body);
    const again = await d.call('POST', '/v1/match/orders', BURNER.apiKey, body);
    expect(again.status).toBe(202);
    expect(again.text).toBe(first.text);
    expect(d.balances('burner').walletReserved).toBe('1000.00');
    await d.clear();
    const later = await d.call('POST', '/v1/match/orders', BURNER.apiKey, body);
    expect(later.status).toBe(202);
    expect(later.text).toBe(first.text);
    expectError(
      await d.call('POST', '/v1/match/orders', BURNER.apiKey, {
        ...body,
        amount: { amount: '2000.00', currency: 'USD' },
      }),
      409,
      137004,
    );
    // The same key from another entity is another request too.
    expectError(await d.call('POST', '/v1/match/orders', MINTER.apiKey, { ...body }), 409, 137004);
  });

  it('137001: BURN above the wallet available, MINT above the venue-only available', async () => {
    const d = newDriver({ transactionLimit: '1000000000.00' });
    expectError(await d.burn('100000100.00'), 400, 137001);
    await d.placed(d.burn('99999900.00'));
    expectError(await d.burn('200.00'), 400, 137001);
    expectError(await d.mint('100000100.00'), 400, 137001);
    expect(d.balances('minter').venueReserved).toBe('0.00');
  });

  it('137002 for another entity wallet or a non-stablecoin wallet; 137003 for an unknown wallet', async () => {
    const d = newDriver();
    expectError(await d.burn('100.00', { sourceWalletId: MINTER.walletId }), 400, 137002);
    expectError(await d.burn('100.00', { sourceWalletId: BURNER.eurWalletId }), 400, 137002);
    expectError(await d.burn('100.00', { sourceWalletId: 'wallet-that-does-not-exist' }), 400, 137003);
  });

  it('137007 for a fiat account that is not the caller’s or unknown', async () => {
    const d = newDriver();
    expectError(await d.burn('100.00', { fiatAccountId: MINTER.fiatAccountId }), 400, 137007);
    expectError(
      await d.burn('100.00', { fiatAccountId: '99999999-0000-4000-8000-000000000000' }),
      400,
      137007,
    );
  });

  it('137006 when the caller has an open order on the opposite side of this auction', async () => {
    const d = newDriver();
    await d.placed(d.burn('100.00'));
    expectError(await d.mint('100.00', {}, BURNER.apiKey), 409, 137006);
    await d.placed(d.burn('100.00'));
    // A cancelled order no longer blocks.
    await d.placed(d.mint('100.00'));
    expect((await d.call('POST', '/v1/match/orders/cancel-all', MINTER.apiKey)).status).toBe(200);
  });

  it('137008 past the per-auction cap; the next auction accepts again', async () => {
    const d = newDriver({ maxOrdersPerAuction: 2 });
    await d.placed(d.burn('100.00'));
    const second = await d.placed(d.burn('100.00'));
    await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 1, orderId: second });
    expectError(await d.burn('100.00'), 400, 137008);
    await d.clear();
    expect((await d.burn('100.00')).status).toBe(202);
  });

  it('137009 above the transaction limit (default 10,000,000.00)', async () => {
    const d = newDriver();
    expectError(await d.burn('10000100.00'), 400, 137009);
    expect((await d.burn('10000000.00')).status).toBe(202);
  });

  it('137010 for an ineligible entity on every venue endpoint', async () => {
    const d = newDriver();
    const k = SEEDED.ineligible.apiKey;
    const any = '00000000-0000-4000-8000-0000000000ff';
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/match/account'],
      ['POST', '/v1/match/orders', burnBody('100.00')],
      ['GET', '/v1/match/orders'],
      ['GET', `/v1/match/orders/${any}`],
      ['POST', '/v1/match/orders/cancel', { auctionId: 1, orderId: any }],
      ['POST', '/v1/match/orders/cancel-all'],
      ['POST', '/v1/match/orders/modify', { auctionId: 1, orderId: any, feeBps: '1' }],
      [
        'POST',
        '/v1/match/withdrawals',
        { idempotencyKey: key(), amount: { amount: '1.00', currency: 'USD' }, fiatAccountId: any },
      ],
      ['POST', '/v1/match/ws/ticket'],
    ];
    for (const [method, path, body] of calls) expectError(await d.call(method, path, k, body), 400, 137010);
  });

  it('places during the lock window into the current auction', async () => {
    const d = newDriver();
    await d.call('POST', '/_sim/phase', null, { phase: 'lock' });
    const r = await d.burn('100.00');
    expect(r.status).toBe(202);
    expect(dataOf(r)).toMatchObject({ auctionId: 1 });
    const cleared = await d.clear();
    expect(cleared.auctionId).toBe(1);
  });

  it('400 code 2 for a MINT carrying BURN fields and for amounts off the 100 grid', async () => {
    const d = newDriver();
    const r = await d.mint('100.00', { sourceWalletId: MINTER.walletId });
    expect(codeOf(r)).toBe(2);
    const bad = await d.burn('150.00');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 2,
      errors: [
        {
          location: 'amount.amount',
          message: 'must be at least 100 and a multiple of 100',
          invalidValue: '150.00',
        },
      ],
    });
  });
});
