import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { BURNER, dataOf, expectError, MINTER, newDriver } from './helpers.js';

describe('/_sim/ control endpoints over the HTTP handler', () => {
  it('GET /_sim/state answers the DESIGN.md shape with the seeded ids', async () => {
    const d = newDriver();
    const r = await d.call('GET', '/_sim/state', null);
    expect(r.status).toBe(200);
    const state = dataOf(r) as {
      auction: { auctionId: number; phase: string };
      entities: {
        name: string;
        apiKey: string;
        wallets: { id: string; balance: unknown }[];
        fiatAccounts: { id: string }[];
      }[];
    };
    expect(state.auction).toMatchObject({ auctionId: 1, phase: 'open' });
    const burner = state.entities.find((e) => e.name === 'burner');
    expect(burner).toMatchObject({
      apiKey: BURNER.apiKey,
      wallets: expect.arrayContaining([
        {
          id: BURNER.walletId,
          balance: { amount: '100000000.00', currency: 'USD' },
          currency: 'USD',
          reserved: expect.anything(),
        },
      ]),
      fiatAccounts: [expect.objectContaining({ id: BURNER.fiatAccountId })],
    });
    expect(state.entities.map((e) => e.name).sort()).toEqual(['burner', 'ineligible', 'minter', 'noaccount']);
    expect(state.entities.find((e) => e.name === 'noaccount')?.apiKey).toBe(SEEDED.noaccount.apiKey);
  });

  it('clear {settle: false} leaves the auction settling until POST /_sim/auctions/settle', async () => {
    const d = newDriver();
    const burn = await d.placed(d.burn('500.00', { feeBps: null }));
    const mint = await d.placed(d.mint('500.00', { feeBps: null }));
    const cleared = await d.call('POST', '/_sim/auctions/clear', null, { settle: false });
    expect(cleared.status).toBe(200);
    expect(dataOf(cleared)).toMatchObject({
      auctionId: 1,
      phase: 'settling',
      clearingFeeBps: '5.00',
      matchedVolume: { amount: '500.00', currency: 'USD' },
      settledAt: null,
    });
    const state = dataOf(await d.call('GET', '/_sim/state', null)) as { settlingAuctionId: number | null };
    expect(state.settlingAuctionId).toBe(1);
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('settling');
    // Nothing moves before settlement: the MINT still holds its 500.00 of the venue-only prefund.
    expect(d.balances('minter')).toMatchObject({
      venue: '100000000.00',
      venueReserved: '500.00',
      wallet: '100000000.00',
    });
    // Cancels wait for settlement: 136002.
    expectError(await d.call('POST', '/v1/match/orders/cancel-all', MINTER.apiKey), 400, 136002);

    const settled = await d.call('POST', '/_sim/auctions/settle', null);
    expect(dataOf(settled)).toMatchObject({ auctionId: 1, phase: 'settled' });
    expect((await d.order(burn, BURNER.apiKey)).status).toBe('filled');
    expect((await d.order(mint, MINTER.apiKey)).status).toBe('filled');
    // 500.00 left the venue-only balance; the wallet got it plus the 0.25 rebate (5 bps).
    expect(d.balances('minter')).toMatchObject({
      venue: '99999500.00',
      venueReserved: '0.00',
      wallet: '100000500.25',
    });
    // Nothing left to settle.
    expect(dataOf(await d.call('POST', '/_sim/auctions/settle', null))).toBeNull();
    expect((await d.call('POST', '/v1/match/orders/cancel-all', MINTER.apiKey)).status).toBe(200);
  });

  it('clock/advance answers the new time; phase moves the window; faults read back; reset restores the seed', async () => {
    const d = newDriver();
    expect(dataOf(await d.call('POST', '/_sim/clock/advance', null, { ms: 1_500 }))).toEqual({
      now: '2026-01-01T00:00:01.500Z',
    });
    expect(dataOf(await d.call('POST', '/_sim/phase', null, { phase: 'lock' }))).toMatchObject({
      auctionId: 1,
      phase: 'lock',
    });
    expect(dataOf(await d.call('POST', '/_sim/phase', null, { phase: 'open' }))).toMatchObject({
      phase: 'open',
    });
    await d.call('POST', '/_sim/faults', null, { latencyMs: 0, failSettlement: ['x'] });
    expect(dataOf(await d.call('GET', '/_sim/faults', null))).toEqual({
      latencyMs: 0,
      failSettlement: ['x'],
    });
    await d.placed(d.burn('100.00'));
    const reset = await d.call('POST', '/_sim/reset', null);
    expect(dataOf(reset)).toMatchObject({ auction: { auctionId: 1, phase: 'open' } });
    expect(dataOf(await d.call('GET', '/_sim/faults', null))).toEqual({});
    expect(d.balances('burner')).toMatchObject({ wallet: '100000000.00', walletReserved: '0.00' });
  });
});
