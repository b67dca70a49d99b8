import { checkInvariants, createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

describe('checkInvariants', () => {
  it('is empty for the seeded state and reports tampering', () => {
    const sim = createSimulator();
    expect(checkInvariants(sim)).toEqual([]);
    const wallet = sim.state.wallets.get(SEEDED.burner.walletId);
    if (!wallet) throw new Error('seeded wallet missing');
    wallet.balanceCents += 1;
    wallet.reservedCents += 5;
    const v = checkInvariants(sim.state);
    expect(v.some((m) => m.startsWith('stablecoin not conserved'))).toBe(true);
    expect(v.some((m) => m.includes('reserved 5'))).toBe(true);
  });
});
