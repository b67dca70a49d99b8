import { describe, expect, it } from 'vitest';
import { BURNER, expectError, MINTER, newDriver } from './helpers.js';

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
