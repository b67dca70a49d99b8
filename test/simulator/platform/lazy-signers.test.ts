import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

describe('webhook signing keys', () => {
  it('are not made for events no subscription receives, and are made once a key is asked for', async () => {
    const sim = createSimulator();
    try {
      const res = await sim.handle(
        new Request('http://sim/v1/match/orders', {
          method: 'POST',
          headers: { authorization: `Bearer ${SEEDED.burner.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            idempotencyKey: crypto.randomUUID(),
            orderType: 'BURN',
            amount: { amount: '100.00', currency: 'USD' },
            postFillAction: 'cancel',
            sourceWalletId: SEEDED.burner.walletId,
            fiatAccountId: SEEDED.burner.fiatAccountId,
          }),
        }),
      );
      expect(res.status).toBe(202);
      sim.clearAuction();
      await sim.platform.idle();
      // order.accepted, order.updated and balance.updated went out to nobody: no key was generated.
      expect(sim.platform.state().publicKeyId).toBeUndefined();

      const key = await sim.handle(
        // A UUID, so the lookup runs (a malformed key id is refused before it, with 400).
        new Request('http://sim/v2/notifications/publicKey/00000000-0000-4000-8000-000000000000', {
          headers: { authorization: `Bearer ${SEEDED.burner.apiKey}` },
        }),
      );
      expect(key.status).toBe(404);
      expect(sim.platform.state().publicKeyId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await sim.close();
    }
  });
});
