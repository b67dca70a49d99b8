/**
 * Seeding a fresh state: how a background population and a scenario put their entities and opening
 * balances in before the first step (engine.ts hands an EngineSeeder to EnginePopulation.seed). They
 * never hold the state itself (state.ts is private to engine/); the money each adds is booked here,
 * once, for both: a venue-only balance is prefunded as the seeded minter's is (a wire that already
 * settled, whose USD the issuer holds), and the seeded ledgers and opening totals are set again, so
 * the invariants count the added money as there from the start.
 */
import { addEntity, type NewEntity } from './new-entity.js';
import { SEEDED, type SeededName } from './seed.js';
import { currencyTotals, type EngineState, mustEntity } from './state.js';

/** A seeded entity's opening balances, in cents; one left undefined stays as seeded. */
export interface OpeningBalances {
  /** Its USD stablecoin wallet (an entity without one, `noaccount`, ignores it). */
  walletCents?: number;
  /** Its venue-only balance (the mint side's prefunding). */
  venueCents?: number;
  /** Its bank account. */
  bankCents?: number;
}

/**
 * What a population or a scenario may do to a fresh state.
 * @hidden
 */
export interface EngineSeeder {
  /** Adds a trading entity (new-entity.ts): one USD wallet, one bank account, a venue-only balance. */
  addEntity(n: NewEntity): void;
  /** Replaces a seeded entity's opening balances. */
  setOpeningBalances(name: SeededName, balances: OpeningBalances): void;
}

/** Runs `seed` on a fresh `state`, then books what it added (see above). */
export function seedState(state: EngineState, seed: (seeder: EngineSeeder) => void): void {
  let prefund = 0;
  seed({
    addEntity: (n) => {
      prefund += addEntity(state, n).venueBalanceCents;
    },
    setOpeningBalances: (name, b) => {
      const ids = SEEDED[name];
      const entity = mustEntity(state, ids.entityId);
      const wallet = state.wallets.get(ids.walletId);
      if (wallet && b.walletCents !== undefined) wallet.balanceCents = b.walletCents;
      const bank = state.fiatAccounts.get(ids.fiatAccountId);
      if (bank && b.bankCents !== undefined) bank.balanceCents = b.bankCents;
      if (b.venueCents !== undefined) {
        prefund += b.venueCents - entity.venueBalanceCents;
        entity.venueBalanceCents = b.venueCents;
      }
    },
  });
  state.issuer.usdCents += prefund;
  state.issuer.stablecoinCents -= prefund;
  state.seededLedgers = { house: state.seededLedgers.house, issuer: { ...state.issuer } };
  state.initialTotals = currencyTotals(state);
}
