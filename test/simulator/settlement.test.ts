import { describe, expect, it } from 'vitest';
import { rollChildOrderId } from '../../src/simulator/engine/ids.js';
import { BURNER, dataOf, key, MINTER, newDriver } from './helpers.js';

describe('clearing and settlement', () => {
  it('pending -> settling at clear -> filled / partial_fill at settle; money moves to the cent', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('1000.00', { feeBps: '5', postFillAction: 'cancel' }));
    const mint = await d.placed(d.mint('600.00', { feeBps: '3' }));
    const cleared = await d.clear(false);
    // [3, 5] is the interval of maximal volume: its midpoint clears.
    expect(cleared).toMatchObject({
      auctionId: 1,
      clearingFeeBps: '4.00',
      matchedVolume: { amount: '600.00' },
    });
    const settling = await d.order(burn, BURNER.apiKey);
    expect(settling.status).toBe('settling');
    expect(settling.fill).toEqual({
      filledAmount: { amount: '600.00', currency: 'USD' },
      unfilledAmount: { amount: '400.00', currency: 'USD' },
      clearingFeeBps: '4.00',
      matchedAt: '2026-01-01T00:00:00.000Z',
    });
    // Reservations hold until settlement.
    expect(d.balances('burner')).toMatchObject({
      wallet: '100000000.00',
      walletReserved: '1000.00',
      fiat: '100000000.00',
    });
    await d.call('POST', '/_sim/auctions/settle', null);
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('partial_fill');
    expect((await d.order(mint, MINTER.apiKey)).status).toBe('filled');
    // BURN: 600.00 delivered, fee 4 bps = 0.24, 599.76 paid to the fiat account (its bank).
    expect(d.balances('burner')).toEqual({
      wallet: '99999400.00',
      walletReserved: '0.00',
      fiat: '100000599.76',
      venue: '0.00',
      venueReserved: '0.00',
    });
    // MINT: 600.00 leaves the venue-only prefund; 600.00 + 0.24 rebate lands in the wallet.
    expect(d.balances('minter')).toEqual({
      wallet: '100000600.24',
      walletReserved: '0.00',
      fiat: '100000000.00',
      venue: '99999400.00',
      venueReserved: '0.00',
    });
    const acct = await d.account(MINTER.apiKey);
    expect(acct.activity).toMatchObject({
      totalMatched: { amount: '600.00', currency: 'USD' },
      rebatesEarned: { amount: '0.24', currency: 'USD' },
      feesPaid: { amount: '0.00', currency: 'USD' },
    });
    expect((await d.account(BURNER.apiKey)).activity.feesPaid.amount).toBe('0.24');
  });

  it('roll: a chain of children across auctions, lineage both ways, deterministic child ids', async () => {
    const d = newDriver();
    const root = await d.placed(d.burn('1000.00', { feeBps: '5', postFillAction: 'roll' }));
    await d.placed(d.mint('300.00'));
    await d.clear();
    const a = await d.order(root, BURNER.apiKey);
    expect(a.status).toBe('partial_fill');
    const c1 = a.lineage.childOrderId;
    expect(c1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const child = await d.order(String(c1), BURNER.apiKey);
    expect(child).toMatchObject({
      auctionId: 2,
      status: 'pending',
      amount: { amount: '700.00' },
      feeBps: '5',
      postFillAction: 'roll',
      lineage: { parentOrderId: root, childOrderId: null },
    });
    expect(d.balances('burner').walletReserved).toBe('700.00');
    await d.clear(); // nothing to match: unfilled, rolls again
    const c1After = await d.order(String(c1), BURNER.apiKey);
    expect(c1After.status).toBe('unfilled');
    const c2 = String(c1After.lineage.childOrderId);
    await d.placed(d.mint('700.00'));
    await d.clear();
    const last = await d.order(c2, BURNER.apiKey);
    expect(last).toMatchObject({
      auctionId: 3,
      status: 'filled',
      lineage: { parentOrderId: c1, childOrderId: null },
    });
    expect(d.balances('burner')).toMatchObject({
      wallet: '99999000.00',
      walletReserved: '0.00',
      fiat: '100000999.50',
    });
    // The same scenario in a new simulator yields the same ids.
    const d2 = newDriver();
    const r = await d2.call('POST', '/v1/match/orders', BURNER.apiKey, {
      idempotencyKey: root,
      orderType: 'BURN',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '5',
      postFillAction: 'roll',
      sourceWalletId: BURNER.walletId,
      fiatAccountId: BURNER.fiatAccountId,
    });
    expect(r.status).toBe(202);
    await d2.clear();
    expect((await d2.order(root, BURNER.apiKey)).lineage.childOrderId).toBe(c1);
  });

  it('fallback: the remainder goes to the standard minting product at par, recorded in /_sim/state', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('500.00', { feeBps: '2', postFillAction: 'fallback' }));
    const mint = await d.placed(d.mint('800.00', { feeBps: '2', postFillAction: 'fallback' }));
    await d.clear();
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('filled');
    expect((await d.order(mint, MINTER.apiKey)).status).toBe('partial_fill');
    // 500 matched at 2 bps (rebate 0.10); 300 converted at par by the standard product: all 800
    // leave the venue-only balance, 800.10 reach the wallet.
    expect(d.balances('minter')).toMatchObject({
      venue: '99999200.00',
      venueReserved: '0.00',
      wallet: '100000800.10',
    });
    const state = await d.call('GET', '/_sim/state', null);
    expect((dataOf(state) as { fallbacks: unknown[] }).fallbacks).toEqual([
      {
        orderId: mint,
        entityId: MINTER.entityId,
        auctionId: 1,
        orderType: 'MINT',
        amount: { amount: '300.00', currency: 'USD' },
        routedAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('cancel election: an unfilled order ends cancelled, a partial one partial_fill; reservations released', async () => {
    const d = newDriver();
    const lone = await d.placed(d.burn('100.00', { feeBps: '1' }));
    await d.clear();
    const o = await d.order(lone, BURNER.apiKey);
    // Cleared without a match: no fill, ever (the spec: "Null until the order is matched").
    expect(o).toMatchObject({ status: 'cancelled', fill: null });
    expect(d.balances('burner').walletReserved).toBe('0.00');
    const partial = await d.placed(d.burn('500.00', { feeBps: null }));
    await d.placed(d.mint('200.00', { feeBps: null }));
    await d.clear();
    const p = await d.order(partial, BURNER.apiKey);
    expect(p).toMatchObject({ status: 'partial_fill', lineage: { childOrderId: null } });
    expect(p.fill?.filledAmount.amount).toBe('200.00');
    expect(d.balances('burner')).toMatchObject({ wallet: '99999800.00', walletReserved: '0.00' });
  });

  it('BURN fallback: the remainder leaves the wallet and arrives at the fiat account at par', async () => {
    const d = newDriver();
    await d.placed(d.burn('900.00', { feeBps: null, postFillAction: 'fallback' }));
    await d.placed(d.mint('100.00', { feeBps: null }));
    await d.clear();
    // 100 matched at the 5 bps reference fee (0.05 fee), 800 redeemed at par.
    expect(d.balances('burner')).toMatchObject({
      wallet: '99999100.00',
      walletReserved: '0.00',
      fiat: '100000899.95',
    });
  });

  it('a second clear settles the auction still settling first', async () => {
    const d = newDriver();
    const first = await d.placed(d.burn('100.00'));
    await d.clear(false);
    const second = await d.placed(d.burn('100.00'));
    await d.clear(false);
    expect((await d.order(first, BURNER.apiKey)).status).toBe('cancelled');
    expect((await d.order(second, BURNER.apiKey)).status).toBe('settling');
    expect(d.sim.getState()).toMatchObject({ settlingAuctionId: 2, auction: { auctionId: 3 } });
  });

  it('failed: an injected settlement fault fails the order, moves nothing, releases the reservation', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('400.00', { postFillAction: 'roll' }));
    const mint = await d.placed(d.mint('400.00'));
    await d.call('POST', '/_sim/faults', null, { failSettlement: [burn] });
    await d.clear();
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('failed');
    expect((await d.order(burn, BURNER.apiKey)).lineage.childOrderId).toBeNull();
    expect((await d.order(mint, MINTER.apiKey)).status).toBe('filled');
    expect(d.balances('burner')).toMatchObject({
      wallet: '100000000.00',
      walletReserved: '0.00',
      fiat: '100000000.00',
    });
    // The house covers the failed counterparty: the MINT settles in full (0.20 rebate at 5 bps).
    expect(d.balances('minter')).toMatchObject({ venue: '99999600.00', wallet: '100000400.20' });
  });

  it('account summary: available/reserved/total and exposure counts', async () => {
    const d = newDriver();
    await d.placed(d.burn('1000.00'));
    await d.placed(d.burn('500.00'));
    const a = await d.account(BURNER.apiKey);
    expect(a).toMatchObject({
      accountId: BURNER.accountId,
      stablecoin: {
        available: { amount: '99998500.00', currency: 'USD' },
        reserved: { amount: '1500.00', currency: 'USD' },
        total: { amount: '100000000.00', currency: 'USD' },
      },
      exposure: { activeOrderCount: 2, mintOrderCount: 0, burnOrderCount: 2 },
      activity: { from: '2025-12-31T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('the clock drives the cycle: lock at cycle - lock, clear at cycle end, settle settleMs later', async () => {
    const d = newDriver({ cycleMs: 10_000, lockMs: 2_000, settleMs: 1_000 });
    const events: string[] = [];
    d.sim.onEvent((e) => {
      if (e.channel === 'market') events.push(`${e.event}:${(e.data as { auctionId: number }).auctionId}`);
    });
    const burn = await d.placed(d.burn('100.00'));
    await d.call('POST', '/_sim/clock/advance', null, { ms: 7_999 });
    expect(d.sim.getState().auction).toMatchObject({ auctionId: 1, phase: 'open' });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1 });
    expect(d.sim.getState().auction).toMatchObject({ auctionId: 1, phase: 'lock' });
    await d.call('POST', '/_sim/clock/advance', null, { ms: 2_000 });
    expect(d.sim.getState().auction).toMatchObject({ auctionId: 2, phase: 'open' });
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('settling');
    await d.call('POST', '/_sim/clock/advance', null, { ms: 1_000 });
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('cancelled');
    expect(events).toEqual([
      'auction.locked:1',
      'auction.cleared:1',
      'auction.opened:2',
      'auction.settled:1',
    ]);
  });

  it('account events carry the Order as REST shows it', async () => {
    const d = newDriver();
    const seen: { event: string; data: unknown }[] = [];
    d.sim.onEvent((e) => {
      if (e.channel === 'account' && e.entityId === BURNER.entityId)
        seen.push({ event: e.event, data: e.data });
    });
    const id = await d.placed(d.burn('100.00'));
    const accepted = seen.find((e) => e.event === 'order.accepted');
    expect(accepted?.data).toEqual(await d.order(id, BURNER.apiKey));
    expect(seen.some((e) => e.event === 'balance.updated')).toBe(true);
    await d.clear();
    const updates = seen
      .filter((e) => e.event === 'order.updated')
      .map((e) => (e.data as { status: string }).status);
    expect(updates).toEqual(['settling', 'cancelled']);
    expect(key()).not.toBe(id);
  });

  it('a roll that would rest beside an open opposite order of the same entity is not made (no self-trade)', async () => {
    const d = newDriver();
    const root = await d.placed(d.burn('300.00', { feeBps: '5', postFillAction: 'roll' }));
    await d.clear(false); // auction 1 clears unmatched and stays settling
    // While auction 1 settles the same entity opens a MINT in auction 2 (prefunded by a wire): no
    // BURN of its rests there yet.
    expect((await d.wire(BURNER.entityId, '100.00')).status).toBe(200);
    const mint = await d.placed(d.mint('100.00', { feeBps: null }, BURNER.apiKey));
    await d.call('POST', '/_sim/auctions/settle', null);
    const parent = await d.order(root, BURNER.apiKey);
    expect(parent).toMatchObject({
      status: 'unfilled',
      lineage: { parentOrderId: null, childOrderId: null },
    });
    expect(d.balances('burner')).toMatchObject({ walletReserved: '0.00', venueReserved: '100.00' });
    await d.clear();
    // The MINT found no counterparty: without the guard it would have filled against its own BURN.
    const m = await d.order(mint, BURNER.apiKey);
    expect(m).toMatchObject({ status: 'cancelled', fill: null });
    expect((await d.account(BURNER.apiKey)).activity.totalMatched.amount).toBe('0.00');
  });

  it('a roll child never takes the id of an order placed under its derived id', async () => {
    const d = newDriver();
    const root = await d.placed(d.burn('300.00', { feeBps: '5', postFillAction: 'roll' }));
    const squatter = rollChildOrderId(root);
    expect(await d.placed(d.burn('100.00', { idempotencyKey: squatter }))).toBe(squatter);
    await d.clear(); // both unfilled; the root rolls (checkInvariants runs after every call)
    const child = String((await d.order(root, BURNER.apiKey)).lineage.childOrderId);
    expect(child).not.toBe(squatter);
    expect(child).toBe(rollChildOrderId(squatter));
    expect(await d.order(child, BURNER.apiKey)).toMatchObject({
      amount: { amount: '300.00' },
      lineage: { parentOrderId: root },
    });
    expect(await d.order(squatter, BURNER.apiKey)).toMatchObject({
      amount: { amount: '100.00' },
      status: 'cancelled',
      lineage: { parentOrderId: null },
    });
  });
});
