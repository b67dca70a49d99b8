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

describe('cancel, cancel-all, modify (the spec transition rows)', () => {
  it('pending -> cancelled outside the lock window; reservation released; retry answers the same', async () => {
    const d = newDriver();
    const id = await d.placed(d.burn('300.00'));
    const r = await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 1, orderId: id });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { auctionId: 1, orderId: id, status: 'cancelled' } });
    expect(d.balances('burner').walletReserved).toBe('0.00');
    expect((await d.order(id, BURNER.apiKey)).status).toBe('cancelled');
    const retry = await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, {
      auctionId: 1,
      orderId: id,
    });
    expect(retry.text).toBe(r.text);
  });

  it('cancel: 136001 in the lock window, 136002 while the previous auction settles', async () => {
    const d = newDriver();
    const id = await d.placed(d.burn('100.00'));
    await d.call('POST', '/_sim/phase', null, { phase: 'lock' });
    expectError(
      await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 1, orderId: id }),
      400,
      136001,
    );
    expectError(await d.call('POST', '/v1/match/orders/cancel-all', BURNER.apiKey), 400, 136001);
    await d.call('POST', '/_sim/phase', null, { phase: 'open' });
    await d.clear(false);
    const id2 = await d.placed(d.burn('100.00'));
    expectError(
      await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 2, orderId: id2 }),
      400,
      136002,
    );
    expectError(await d.call('POST', '/v1/match/orders/cancel-all', BURNER.apiKey), 400, 136002);
    await d.call('POST', '/_sim/auctions/settle', null);
    const ok = await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 2, orderId: id2 });
    expect(ok.status).toBe(200);
  });

  it('cancel of a cleared order: 400 136002 (settling and settled); unknown or foreign order: 404 156003', async () => {
    const d = newDriver();
    const id = await d.placed(d.burn('100.00'));
    await d.clear(false);
    expect((await d.order(id, BURNER.apiKey)).status).toBe('settling');
    expectError(
      await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 1, orderId: id }),
      400,
      136002,
    );
    await d.call('POST', '/_sim/auctions/settle', null);
    expect((await d.order(id, BURNER.apiKey)).status).toBe('cancelled');
    const m = await d.placed(d.mint('100.00', { postFillAction: 'roll', feeBps: '99' }));
    await d.clear();
    expect((await d.order(m, MINTER.apiKey)).status).toBe('unfilled');
    expectError(
      await d.call('POST', '/v1/match/orders/cancel', MINTER.apiKey, { auctionId: 2, orderId: m }),
      400,
      136002,
    );
    expectError(
      await d.call('POST', '/v1/match/orders/cancel', MINTER.apiKey, { auctionId: 1, orderId: id }),
      404,
      156003,
    );
    expectError(await d.call('GET', `/v1/match/orders/${id}`, MINTER.apiKey), 404, 156003);
    expectError(
      await d.call('GET', '/v1/match/orders/00000000-0000-4000-8000-00000000dead', MINTER.apiKey),
      404,
      156003,
    );
    expectError(
      await d.call('POST', '/v1/match/orders/cancel', BURNER.apiKey, { auctionId: 7, orderId: id }),
      404,
      156003,
    );
  });

  it('cancel-all cancels every resting order of the caller in the current cycle, and nothing else', async () => {
    const d = newDriver();
    const a = await d.placed(d.burn('100.00'));
    const b = await d.placed(d.burn('200.00'));
    const other = await d.placed(d.mint('100.00'));
    const r = await d.call('POST', '/v1/match/orders/cancel-all', BURNER.apiKey);
    expect(r.body).toEqual({ data: { auctionId: 1, orderIds: [a, b], status: 'cancelled' } });
    expect((await d.order(other, MINTER.apiKey)).status).toBe('pending');
    const empty = await d.call('POST', '/v1/match/orders/cancel-all', BURNER.apiKey);
    expect(empty.body).toEqual({ data: { auctionId: 1, orderIds: [], status: 'cancelled' } });
    expect(d.balances('burner').walletReserved).toBe('0.00');
  });

  it('modify: any fee outside lock, only feeBps changes, null makes a market order', async () => {
    const d = newDriver();
    const id = await d.placed(d.burn('100.00', { feeBps: '5' }));
    const before = await d.order(id, BURNER.apiKey);
    const r = await d.call('POST', '/v1/match/orders/modify', BURNER.apiKey, {
      auctionId: 1,
      orderId: id,
      feeBps: '9.5',
    });
    expect(r.body).toEqual({ data: { auctionId: 1, orderId: id, status: 'pending' } });
    const after = await d.order(id, BURNER.apiKey);
    expect(after).toEqual({ ...before, feeBps: '9.5' });
    await d.call('POST', '/v1/match/orders/modify', BURNER.apiKey, {
      auctionId: 1,
      orderId: id,
      feeBps: null,
    });
    expect((await d.order(id, BURNER.apiKey)).feeBps).toBeNull();
  });

  it('modify in the lock window: only a more competitive fee (BURN lower, MINT higher); unchanged or less is 137005', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('100.00', { feeBps: '5' }));
    const mint = await d.placed(d.mint('100.00', { feeBps: '5' }));
    await d.call('POST', '/_sim/phase', null, { phase: 'lock' });
    const modify = (k: string, orderId: string, feeBps: string | null) =>
      d.call('POST', '/v1/match/orders/modify', k, { auctionId: 1, orderId, feeBps });

    // BURN: the fee is a maximum it pays; more competitive is lower.
    expectError(await modify(BURNER.apiKey, burn, '5'), 400, 137005);
    // The same limit written differently is still unchanged.
    expectError(await modify(BURNER.apiKey, burn, '5.00'), 400, 137005);
    expectError(await modify(BURNER.apiKey, burn, '5.01'), 400, 137005);
    expect((await modify(BURNER.apiKey, burn, '4.99')).body).toEqual({
      data: { auctionId: 1, orderId: burn, status: 'pending' },
    });
    // A retry of the change that just landed is unchanged now: refused like any other.
    expectError(await modify(BURNER.apiKey, burn, '4.99'), 400, 137005);

    // MINT: the fee is a minimum rebate; more competitive is higher.
    expectError(await modify(MINTER.apiKey, mint, '5'), 400, 137005);
    expectError(await modify(MINTER.apiKey, mint, '4.99'), 400, 137005);
    expect((await modify(MINTER.apiKey, mint, '5.01')).status).toBe(200);
    expectError(await modify(MINTER.apiKey, mint, '5.01'), 400, 137005);

    expect(await d.order(burn, BURNER.apiKey)).toMatchObject({ feeBps: '4.99', status: 'pending' });
    expect(await d.order(mint, MINTER.apiKey)).toMatchObject({ feeBps: '5.01', status: 'pending' });
  });

  it('modify in the lock window: a market order (null) is the least competitive fee on both sides', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('100.00', { feeBps: '5' }));
    const mint = await d.placed(d.mint('100.00', { feeBps: '5' }));
    const marketBurn = await d.placed(d.burn('100.00', { feeBps: null }));
    await d.call('POST', '/_sim/phase', null, { phase: 'lock' });
    const modify = (k: string, orderId: string, feeBps: string | null) =>
      d.call('POST', '/v1/match/orders/modify', k, { auctionId: 1, orderId, feeBps });
    // A market BURN takes any fee: an unbounded maximum, the highest there is.
    expectError(await modify(BURNER.apiKey, burn, null), 400, 137005);
    // A market MINT takes any rebate: a minimum of nothing, the lowest there is.
    expectError(await modify(MINTER.apiKey, mint, null), 400, 137005);
    // Market to market is unchanged; from market, any limit is more competitive.
    expectError(await modify(BURNER.apiKey, marketBurn, null), 400, 137005);
    expect((await modify(BURNER.apiKey, marketBurn, '20')).status).toBe(200);
    expect((await d.order(burn, BURNER.apiKey)).feeBps).toBe('5');
    expect((await d.order(mint, MINTER.apiKey)).feeBps).toBe('5');
    expect((await d.order(marketBurn, BURNER.apiKey)).feeBps).toBe('20');
  });

  it('modify outside the lock window accepts an unchanged fee', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('100.00', { feeBps: '5' }));
    const r = await d.call('POST', '/v1/match/orders/modify', BURNER.apiKey, {
      auctionId: 1,
      orderId: burn,
      feeBps: '5',
    });
    expect(r.body).toEqual({ data: { auctionId: 1, orderId: burn, status: 'pending' } });
  });

  it('modify of a cleared order: 400 136002', async () => {
    const d = newDriver();
    const id = await d.placed(d.burn('100.00'));
    await d.clear();
    expectError(
      await d.call('POST', '/v1/match/orders/modify', BURNER.apiKey, {
        auctionId: 1,
        orderId: id,
        feeBps: '1',
      }),
      400,
      136002,
    );
  });
});
