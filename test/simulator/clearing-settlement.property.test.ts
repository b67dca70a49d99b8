import fc from 'fast-check';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

describe('settling random books through the engine', () => {
  // Whole cents up to $50,000, limits in centi-bps from a small pool, every post-fill election,
  // sometimes a settlement failure rate: what each order's fill says is exactly what moved.
  const engineOrderArb = fc.record({
    side: fc.constantFrom<'BURN' | 'MINT'>('BURN', 'MINT'),
    cents: fc.integer({ min: 1, max: 5_000_000 }),
    limit: fc.option(fc.integer({ min: 0, max: 1_200 }), { nil: null, freq: 4 }),
    action: fc.constantFrom<'roll' | 'fallback' | 'cancel'>('roll', 'fallback', 'cancel'),
  });
  // Integer operations only: a 2-decimal string and hundredths (of a dollar, of a bps).
  const cents = (m: { amount: string }) => Number(m.amount.replace('.', ''));
  const hundredths = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;

  it('moves fills, fees, rebates, fallbacks and roll reservations to the cent, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.array(engineOrderArb, { maxLength: 40 }),
        fc.option(fc.double({ min: 0, max: 0.5, noNaN: true }), { nil: null }),
        (book, failRate) => {
          const sim = createSimulator({ startTime: 0 });
          if (failRate !== null) sim.setFaults({ failSettlement: failRate });
          const balances = () => {
            const s = sim.getState();
            const of = (name: string) => {
              const e = s.entities.find((x) => x.name === name)!;
              return {
                wallet: cents(e.wallets[0]!.balance),
                walletReserved: cents(e.wallets[0]!.reserved),
                fiat: cents(e.fiatAccounts[0]!.balance),
                venue: cents(e.venueBalance),
                venueReserved: cents(e.venueReserved),
              };
            };
            return {
              burner: of('burner'),
              minter: of('minter'),
              house: { usd: cents(s.house.usd), stablecoin: cents(s.house.stablecoin) },
            };
          };
          const before = balances();
          const ids = book.map((o, i) => {
            const who = o.side === 'BURN' ? SEEDED.burner : SEEDED.minter;
            const key = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
            sim.engine.placeOrder(who.entityId, {
              idempotencyKey: key,
              orderType: o.side,
              amount: { amount: hundredths(o.cents), currency: 'USD' },
              feeBps: o.limit === null ? null : hundredths(o.limit),
              postFillAction: o.action,
              ...(o.side === 'BURN'
                ? { sourceWalletId: who.walletId, fiatAccountId: who.fiatAccountId }
                : {}),
            });
            return key;
          });
          sim.clearAuction();
          const want = structuredClone(before);
          let fees = 0;
          let rebates = 0;
          let failed = 0;
          for (const id of ids) {
            const o = sim.state.orders.get(id)!;
            if (o.status === 'failed') {
              failed++;
              continue;
            }
            const F = o.filledCents;
            const r = o.feeCents;
            const rest = o.amountCents - F;
            const routed = o.postFillAction === 'fallback' ? rest : 0;
            const rolled = o.childOrderId === null ? 0 : rest;
            if (o.orderType === 'BURN') {
              fees += r;
              want.burner.wallet -= F + routed;
              want.burner.fiat += F - r + routed;
              want.burner.walletReserved += rolled;
              want.house.stablecoin += F;
              want.house.usd -= F - r;
            } else {
              rebates += r;
              want.minter.venue -= F + routed;
              want.minter.wallet += F + r + routed;
              want.minter.venueReserved += rolled;
              want.house.usd += F;
              want.house.stablecoin -= F + r;
            }
          }
          expect(balances()).toEqual(want);
          // Without failures the house keeps exactly the fees in USD and pays the rebates in stablecoin.
          if (failed === 0)
            expect(want.house).toEqual({
              usd: before.house.usd + fees,
              stablecoin: before.house.stablecoin - rebates,
            });
          expect(sim.checkInvariants()).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
