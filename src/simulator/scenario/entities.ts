/**
 * A scenario's entities on a fresh engine state, through the engine's seeder (engine/seeder.ts,
 * which prefunds venue-only balances and books them): a seeded entity's opening balances replaced, a
 * new entity added with its own API key (`TEST_API_KEY:<name>:sim`), wallet, bank and venue-only
 * balance. Ids of new entities are fixed by their order in the file, so a run can be replayed, and
 * shaped as the seeded ones (docs/MARKET.md, Scenarios): the first group is 6 and the entity's
 * number, the tail says what the id names, as the seeded burner's do.
 */
import { parseCents } from '../engine/money.js';
import { SEEDED, type SeededName } from '../engine/seed.js';
import type { EngineSeeder } from '../engine/seeder.js';
import type { ScenarioEntity } from './schema.js';

/**
 * Entity, account, wallet and fiat ids of the scenario's `number`-th new entity (1-based, below
 * 16^7): the 3rd is entity `60000003-0000-4000-8000-000000000003`, account `…-0000000000ac`,
 * wallet `…-00000000a001`, bank `…-00000000f001` (burner's: `10000000-…` with the same tails).
 */
export function scenarioEntityIds(number: number) {
  const prefix = `6${number.toString(16).padStart(7, '0')}-0000-4000-8000-`;
  return {
    entityId: `${prefix}${number.toString(16).padStart(12, '0')}`,
    accountId: `${prefix}0000000000ac`,
    walletId: `${prefix}00000000a001`,
    fiatAccountId: `${prefix}00000000f001`,
  };
}

const cents = (usd: string | undefined) => (usd === undefined ? undefined : (parseCents(usd) as number));

/** Sets the balances and adds the entities (names checked by check.ts). */
export function applyEntities(
  seeder: EngineSeeder,
  entities: Readonly<Record<string, ScenarioEntity>>,
): void {
  let added = 0;
  for (const [name, e] of Object.entries(entities)) {
    const wallet = cents(e.wallet);
    const venue = cents(e.venueBalance);
    const bank = cents(e.bank);
    if (Object.hasOwn(SEEDED, name)) {
      seeder.setOpeningBalances(name as SeededName, {
        walletCents: wallet,
        venueCents: venue,
        bankCents: bank,
      });
      continue;
    }
    seeder.addEntity({
      ids: scenarioEntityIds(++added),
      name,
      fundingSide: e.fundingSide ?? 'BURN',
      walletCents: wallet ?? 0,
      venueCents: venue ?? 0,
      bankCents: bank ?? 0,
    });
  }
}
