import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { BURNER, dataOf, expectError, MINTER, newDriver } from './helpers.js';

const usd = (amount: string) => ({ amount, currency: 'USD' });

/** What /_sim/state shows of the house and the issuer. */
function ledgers(d: ReturnType<typeof newDriver>) {
  const s = d.sim.getState();
  return {
    house: { usd: s.house.usd.amount, stablecoin: s.house.stablecoin.amount },
    issuer: { usd: s.issuer.usd.amount, stablecoin: s.issuer.stablecoin.amount },
  };
}

describe('mint-side funding: MINT orders draw on the prefunded venue-only balance', () => {
  it('the minter starts prefunded; a MINT order above the unreserved venue-only balance is 137001', async () => {
    const d = newDriver({ transactionLimit: '1000000000.00' });
    expect(d.balances('minter')).toEqual({
      wallet: '100000000.00',
      walletReserved: '0.00',
      fiat: '100000000.00',
      venue: '100000000.00',
      venueReserved: '0.00',
    });
    const over = await d.mint('100000100.00');
    expectError(over, 400, 137001);
    expect((over.body as { message: string }).message).toBe(
      'Venue-only balance has 100000000.00 USD available for MINT orders; prefund it by wire',
    );
    await d.placed(d.mint('60000000.00'));
    await d.placed(d.mint('40000000.00'));
    expect(d.balances('minter')).toMatchObject({ venue: '100000000.00', venueReserved: '100000000.00' });
    expectError(await d.mint('100.00'), 400, 137001);
    // The ordinary wallet's stablecoin does not back MINT orders: a burn-side entity has no
    // venue-only balance until a wire lands one.
    const burner = await d.mint('100.00', {}, BURNER.apiKey);
    expectError(burner, 400, 137001);
    expect((burner.body as { message: string }).message).toContain('has 0.00 USD available');
  });

  it('a fill F with rebate r: venue-only -F, primary wallet +F+r, through the house and the issuer', async () => {
    const d = newDriver();
    // docs/AUCTION.md example 1: clears at 5 bps; the MINTs earn 0.35 and 0.45, the BURNs pay 0.50 and 0.30.
    await d.placed(d.burn('1000.00', { feeBps: '8' }));
    await d.placed(d.burn('600.00', { feeBps: '5' }));
    const m1 = await d.placed(d.mint('700.00', { feeBps: '2' }));
    await d.placed(d.mint('900.00', { feeBps: '5' }));
    expect(d.balances('minter')).toMatchObject({ venue: '100000000.00', venueReserved: '1600.00' });
    expect((await d.clear()).clearingFeeBps).toBe('5.00');
    expect(d.balances('minter')).toEqual({
      wallet: '100001600.80',
      walletReserved: '0.00',
      fiat: '100000000.00',
      venue: '99998400.00',
      venueReserved: '0.00',
    });
    expect(d.balances('burner')).toEqual({
      wallet: '99998400.00',
      walletReserved: '0.00',
      fiat: '100001599.20',
      venue: '0.00',
      venueReserved: '0.00',
    });
    // The house keeps the fees in USD and pays the rebates in stablecoin; the issuer retired the
    // 1,600.00 of venue-only stablecoin and released the USD behind it.
    expect(ledgers(d)).toEqual({
      house: { usd: '1000000000.80', stablecoin: '999999999.20' },
      issuer: { usd: '99998400.00', stablecoin: '-99998400.00' },
    });
    expect((await d.order(m1, MINTER.apiKey)).fill?.filledAmount.amount).toBe('700.00');
    const summary = await d.account(MINTER.apiKey);
    expect(summary.stablecoin).toEqual({
      available: usd('99998400.00'),
      reserved: usd('0.00'),
      total: usd('99998400.00'),
    });
    expect(summary.activity.rebatesEarned).toEqual(usd('0.80'));
  });

  it('a failed BURN counterparty: the house still pays the MINT fill and its rebate', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('400.00'));
    await d.placed(d.mint('400.00'));
    d.sim.setFaults({ failSettlement: [burn] });
    await d.clear();
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('failed');
    expect(d.balances('minter')).toMatchObject({ venue: '99999600.00', wallet: '100000400.20' });
    expect(ledgers(d).house).toEqual({ usd: '1000000400.00', stablecoin: '999999599.80' });
  });

  it('cancel, an unfilled clear and a partial fill release the rest to the venue-only balance', async () => {
    const d = newDriver();
    const resting = await d.placed(d.mint('500.00'));
    expect(d.balances('minter').venueReserved).toBe('500.00');
    const r = await d.call('POST', '/v1/match/orders/cancel', MINTER.apiKey, {
      auctionId: 1,
      orderId: resting,
    });
    expect(r.status).toBe(200);
    expect(d.balances('minter')).toMatchObject({ venue: '100000000.00', venueReserved: '0.00' });

    // No counterparty: the cancel election drops the order, its reservation goes back.
    const lone = await d.placed(d.mint('300.00'));
    await d.clear();
    expect((await d.order(lone, MINTER.apiKey)).status).toBe('cancelled');
    expect(d.balances('minter')).toMatchObject({ venue: '100000000.00', venueReserved: '0.00' });

    // 400.00 of 1,000.00 fills at the 5 bps reference fee: 600.00 stays, unreserved.
    const partial = await d.placed(d.mint('1000.00'));
    await d.placed(d.burn('400.00'));
    await d.clear();
    expect((await d.order(partial, MINTER.apiKey)).status).toBe('partial_fill');
    expect(d.balances('minter')).toMatchObject({
      venue: '99999600.00',
      venueReserved: '0.00',
      wallet: '100000400.20',
    });
    expect((await d.account(MINTER.apiKey)).stablecoin.available).toEqual(usd('99999600.00'));
  });

  it('roll re-reserves the remainder from the venue-only balance; fallback converts it at par', async () => {
    const d = newDriver();
    const rolled = await d.placed(d.mint('1000.00', { postFillAction: 'roll' }));
    await d.placed(d.burn('400.00'));
    await d.clear();
    const child = (await d.order(rolled, MINTER.apiKey)).lineage.childOrderId;
    expect(await d.order(String(child), MINTER.apiKey)).toMatchObject({
      status: 'pending',
      amount: usd('600.00'),
    });
    expect(d.balances('minter')).toMatchObject({
      venue: '99999600.00',
      venueReserved: '600.00',
      wallet: '100000400.20',
    });
    expect((await d.account(MINTER.apiKey)).stablecoin).toEqual({
      available: usd('99999000.00'),
      reserved: usd('600.00'),
      total: usd('99999600.00'),
    });
    await d.call('POST', '/v1/match/orders/cancel', MINTER.apiKey, { auctionId: 2, orderId: child });
    expect(d.balances('minter').venueReserved).toBe('0.00');

    // Fallback: 400.00 fills (0.20 rebate), the standard minting product converts the other 600.00.
    await d.placed(d.mint('1000.00', { postFillAction: 'fallback' }));
    await d.placed(d.burn('400.00'));
    await d.clear();
    expect(d.balances('minter')).toMatchObject({
      venue: '99998600.00',
      venueReserved: '0.00',
      wallet: '100001400.40',
    });
    // The issuer converts without fee: its USD moved only for the fills it retired.
    expect(ledgers(d).issuer).toEqual({ usd: '99999200.00', stablecoin: '-99999200.00' });
  });
});

describe('POST /_sim/wires: a settled wire lands on the venue-only balance', () => {
  it('moves USD from the bank to the issuer and as much venue-only stablecoin to the entity', async () => {
    const d = newDriver();
    const events: string[] = [];
    d.sim.onEvent((e) => {
      if (e.channel === 'account' && e.entityId === MINTER.entityId) events.push(e.event);
    });
    const r = await d.wire(MINTER.entityId, '2500.00');
    expect(r.status).toBe(200);
    expect(dataOf(r)).toEqual({
      entityId: MINTER.entityId,
      fiatAccountId: MINTER.fiatAccountId,
      amount: usd('2500.00'),
      settledAt: '2026-01-01T00:00:00.000Z',
      venueBalance: usd('100002500.00'),
      venueAvailable: usd('100002500.00'),
      bankBalance: usd('99997500.00'),
    });
    expect(events).toEqual(['balance.updated']);
    expect(d.balances('minter')).toMatchObject({ venue: '100002500.00', fiat: '99997500.00' });
    expect(ledgers(d).issuer).toEqual({ usd: '100002500.00', stablecoin: '-100002500.00' });
    expect((await d.account(MINTER.apiKey)).stablecoin.total).toEqual(usd('100002500.00'));
    const state = dataOf(await d.call('GET', '/_sim/state', null)) as { wires: unknown[] };
    expect(state.wires).toEqual([
      {
        entityId: MINTER.entityId,
        fiatAccountId: MINTER.fiatAccountId,
        amount: usd('2500.00'),
        settledAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('400 code 2 naming the field for bad input, 404 138003 without a venue account; nothing moves', async () => {
    const d = newDriver();
    const before = d.sim.getState().entities;
    const wire = (body: unknown) => d.call('POST', '/_sim/wires', null, body);
    const location = (body: unknown) => (body as { errors: { location: string }[] }).errors[0]?.location;
    const cases: [unknown, string][] = [
      [{ amount: usd('1.00') }, 'entityId'],
      [{ entityId: MINTER.entityId }, 'amount'],
      [{ entityId: 'nobody', amount: usd('1.00') }, 'entityId'],
      [{ entityId: MINTER.entityId, amount: usd('0.00') }, 'amount.amount'],
      [{ entityId: MINTER.entityId, amount: usd('-5.00') }, 'amount.amount'],
      [{ entityId: MINTER.entityId, amount: usd('1.234') }, 'amount.amount'],
      [{ entityId: MINTER.entityId, amount: { amount: '5.00', currency: 'EUR' } }, 'amount.currency'],
      // An unknown key is the body's fault; the message names it.
      [{ entityId: MINTER.entityId, amount: usd('5.00'), extra: true }, 'body'],
      [{ entityId: MINTER.entityId, amount: usd('100000000.01') }, 'amount.amount'],
      [{ entityId: MINTER.entityId, amount: usd('99999999999999999999.00') }, 'amount.amount'],
    ];
    for (const [body, field] of cases) {
      const r = await wire(body);
      expectError(r, 400, 2);
      expect(location(r.body)).toBe(field);
    }
    const aboveBank = await wire({ entityId: BURNER.entityId, amount: usd('100000000.01') });
    expect((aboveBank.body as { message: string }).message).toBe(
      `Invalid request: amount.amount must not exceed the 100000000.00 USD in the entity's bank (fiat account ${BURNER.fiatAccountId})`,
    );
    expectError(await d.call('POST', '/_sim/wires', null, 'not json'), 400, 2);
    expectError(await wire({ entityId: SEEDED.noaccount.entityId, amount: usd('1.00') }), 404, 138003);
    expect(d.sim.getState().entities).toEqual(before);
    // The whole bank balance may go.
    expect((await wire({ entityId: BURNER.entityId, amount: usd('100000000.00') })).status).toBe(200);
    expect(d.balances('burner')).toMatchObject({ fiat: '0.00', venue: '100000000.00' });
  });

  it('in process: Simulator.wire lands the same wire and throws the same refusals', () => {
    const sim = createSimulator({ startTime: '2026-01-01T00:00:00.000Z' });
    const landed = sim.wire({ entityId: SEEDED.burner.entityId, amount: usd('300.00') });
    expect(landed).toMatchObject({ amount: usd('300.00'), venueBalance: usd('300.00') });
    const refusal = (input: Parameters<typeof sim.wire>[0]) => {
      try {
        sim.wire(input);
      } catch (err) {
        return err;
      }
      throw new Error('wire was not refused');
    };
    expect(refusal({ entityId: SEEDED.burner.entityId, amount: usd('0.50.0') })).toMatchObject({
      status: 400,
      code: 2,
      field: { location: 'amount.amount' },
    });
    expect(refusal({ entityId: SEEDED.noaccount.entityId, amount: usd('1.00') })).toMatchObject({
      status: 404,
      code: 138003,
    });
  });
});

describe('account.stablecoin reports the balance of the entity own side', () => {
  it('mint side: the venue-only balance; burn side: its wallets; the other side does not show', async () => {
    const d = newDriver();
    // A wire and a MINT order of the burn-side burner leave its summary on its wallet.
    expect((await d.wire(BURNER.entityId, '300.00')).status).toBe(200);
    await d.placed(d.mint('300.00', {}, BURNER.apiKey));
    await d.placed(d.burn('1000.00', { feeBps: '9' }, MINTER.apiKey));
    const burner = await d.account(BURNER.apiKey);
    expect(burner.stablecoin).toEqual({
      available: usd('100000000.00'),
      reserved: usd('0.00'),
      total: usd('100000000.00'),
    });
    expect(burner.exposure).toEqual({ activeOrderCount: 1, mintOrderCount: 1, burnOrderCount: 0 });
    // The mint-side minter's BURN reserves in its ordinary wallet, which its summary does not count.
    let minter = await d.account(MINTER.apiKey);
    expect(minter.stablecoin).toEqual({
      available: usd('100000000.00'),
      reserved: usd('0.00'),
      total: usd('100000000.00'),
    });
    expect(d.balances('minter').walletReserved).toBe('1000.00');
    await d.call('POST', '/v1/match/orders/cancel-all', MINTER.apiKey);
    await d.placed(d.mint('500.00'));
    minter = await d.account(MINTER.apiKey);
    expect(minter.stablecoin).toEqual({
      available: usd('99999500.00'),
      reserved: usd('500.00'),
      total: usd('100000000.00'),
    });
    // A burn-side BURN reserves in the wallet its summary reports.
    const e = newDriver();
    await e.placed(e.burn('700.00'));
    expect((await e.account(BURNER.apiKey)).stablecoin).toEqual({
      available: usd('99999300.00'),
      reserved: usd('700.00'),
      total: usd('100000000.00'),
    });
  });
});
