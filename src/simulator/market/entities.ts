/**
 * The background participants as venue entities: each its own entity with its own API key, wallet,
 * bank and venue-only balance, added through the engine's seeder (engine/seeder.ts) next to the
 * seeded ones. Their ids are fixed by their number (prefix 5, beside the seeded 1 to 4), so a run
 * can be replayed.
 */
import type { EngineSeeder } from '../engine/seeder.js';
import type { FundingSide } from '../engine/types.js';

/** One background participant's account, as the population acts through it. */
export interface ParticipantAccount {
  /** 1-based, across the whole population. */
  number: number;
  name: string;
  entityId: string;
  walletId: string;
  fiatAccountId: string;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Entity, account, wallet and fiat ids of participant `number` (up to 2^48). */
export function participantIds(number: number) {
  const tail = hex(number, 12);
  return {
    entityId: `50000000-0000-4000-8000-${tail}`,
    accountId: `50000000-0000-4000-80ac-${tail}`,
    walletId: `50000000-0000-4000-80a1-${tail}`,
    fiatAccountId: `50000000-0000-4000-80f1-${tail}`,
  };
}

/**
 * Adds the participants, each holding `balanceCents` in its stablecoin wallet (what BURN orders
 * draw on), as venue-only balance (MINT orders; the seeder prefunds it like the seeded minter's)
 * and in its bank.
 */
export function addParticipants(
  seeder: EngineSeeder,
  people: readonly { name: string; fundingSide: FundingSide }[],
  balanceCents: number,
): ParticipantAccount[] {
  const accounts: ParticipantAccount[] = [];
  people.forEach((p, i) => {
    const number = i + 1;
    const ids = participantIds(number);
    seeder.addEntity({
      ids,
      name: p.name,
      fundingSide: p.fundingSide,
      walletCents: balanceCents,
      venueCents: balanceCents,
      bankCents: balanceCents,
    });
    accounts.push({ number, name: p.name, ...ids });
  });
  return accounts;
}
