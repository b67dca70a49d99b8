import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

describe('checkInvariants', () => {
  it('is empty for the seeded state and reports tampering', () => {
    const sim = createSimulator();
    expect(sim.checkInvariants()).toEqual([]);
    // Tampering goes through the engine's writable state: `sim.state` is a read-only view.
    const wallet = sim.engine.writableState().wallets.get(SEEDED.burner.walletId);
    if (!wallet) throw new Error('seeded wallet missing');
    wallet.balanceCents += 1;
    wallet.reservedCents += 5;
    const v = sim.checkInvariants();
    expect(v.some((m) => m.startsWith('stablecoin not conserved'))).toBe(true);
    expect(v.some((m) => m.includes('reserved 5'))).toBe(true);
  });
});

describe('checkInvariants over the funding flows', () => {
  const mint = (sim: ReturnType<typeof createSimulator>, key: string, amount: string) =>
    sim.engine.placeOrder(SEEDED.minter.entityId, {
      idempotencyKey: key,
      orderType: 'MINT',
      amount: { amount, currency: 'USD' },
      postFillAction: 'cancel',
    });

  it('reports venue-only reservations that differ from the MINT orders holding them, and over-reservation', () => {
    const sim = createSimulator();
    mint(sim, '00000000-0000-4000-8000-000000000001', '500.00');
    expect(sim.checkInvariants()).toEqual([]);
    const state = sim.engine.writableState();
    const minter = state.entities.get(SEEDED.minter.entityId);
    if (!minter) throw new Error('seeded minter missing');
    minter.venueReservedCents -= 100;
    expect(sim.checkInvariants()).toContain(
      'entity minter venue-only reserved 49900 != resting MINT orders 50000',
    );
    minter.venueReservedCents += 100;
    // Conserved (the stablecoin went to the issuer) but now below what the order holds.
    minter.venueBalanceCents = 400_00;
    state.issuer.stablecoinCents += 100_000_000_00 - 400_00;
    expect(sim.checkInvariants()).toContain('entity minter venue-only balance negative or over-reserved');
  });

  it('reports house and issuer moves that the settled fills, fees, rebates and wires do not explain', () => {
    const sim = createSimulator();
    sim.engine.placeOrder(SEEDED.burner.entityId, {
      idempotencyKey: '00000000-0000-4000-8000-000000000002',
      orderType: 'BURN',
      amount: { amount: '1000.00', currency: 'USD' },
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    mint(sim, '00000000-0000-4000-8000-000000000003', '1000.00');
    sim.clearAuction();
    sim.wire({ entityId: SEEDED.burner.entityId, amount: { amount: '10.00', currency: 'USD' } });
    expect(sim.checkInvariants()).toEqual([]);
    // A rebate paid twice, the second time by the house to the wallet: conserved, not explained.
    const state = sim.engine.writableState();
    const wallet = state.wallets.get(SEEDED.minter.walletId);
    if (!wallet) throw new Error('seeded wallet missing');
    wallet.balanceCents += 50;
    state.house.stablecoinCents -= 50;
    // The fill's 0.50 rebate is the house's only stablecoin move; the tampering doubles it.
    expect(sim.checkInvariants()).toEqual(['house stablecoin moved -100, settled fills explain -50']);
    state.house.stablecoinCents += 50;
    wallet.balanceCents -= 50;
    // USD handed from the issuer back to the bank without a record: conserved, not explained.
    const bank = state.fiatAccounts.get(SEEDED.burner.fiatAccountId);
    if (!bank) throw new Error('seeded fiat account missing');
    state.issuer.usdCents -= 1000;
    bank.balanceCents += 1000;
    expect(sim.checkInvariants()).toEqual([
      'issuer USD moved -100000, wires, fills, fallbacks and withdrawals explain -99000',
      'issuer USD and stablecoin moved unevenly',
    ]);
  });
});
