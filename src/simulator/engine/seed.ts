import { SEEDED_API_KEYS } from '../../contract/api-key.js';
import { entityRecord, fiatAccountRecord, walletRecord } from './account-records.js';
import type { Entity, FiatAccount, FundingSide, Wallet } from './types.js';

/** Ids of the seeded entities; fixed so that tests, docs and curl sessions can name them. */
export const SEEDED = {
  /** The burn side: sells stablecoin from its wallet. */
  burner: {
    /** Its name, as `/_sim/state` shows it. */
    name: 'burner',
    /** The entity id. */
    entityId: '10000000-0000-4000-8000-000000000001',
    /** Its venue account id. */
    accountId: '10000000-0000-4000-8000-0000000000ac',
    /** Its test API key (`TEST_API_KEY:…`). */
    apiKey: SEEDED_API_KEYS.burner,
    /** Its USD stablecoin wallet (BURN orders draw on it). */
    walletId: '10000000-0000-4000-8000-00000000a001',
    /** An EUR wallet, refused for orders (137002). */
    eurWalletId: '10000000-0000-4000-8000-00000000a002',
    /** Its bank account (settlement proceeds, withdrawals, wires). */
    fiatAccountId: '10000000-0000-4000-8000-00000000f001',
  },
  /** The mint side: prefunded venue-only balance. */
  minter: {
    /** Its name, as `/_sim/state` shows it. */
    name: 'minter',
    /** The entity id. */
    entityId: '20000000-0000-4000-8000-000000000002',
    /** Its venue account id. */
    accountId: '20000000-0000-4000-8000-0000000000ac',
    /** Its test API key (`TEST_API_KEY:…`). */
    apiKey: SEEDED_API_KEYS.minter,
    /** Its USD stablecoin wallet (BURN orders draw on it). */
    walletId: '20000000-0000-4000-8000-00000000a001',
    /** An EUR wallet, refused for orders (137002). */
    eurWalletId: '20000000-0000-4000-8000-00000000a002',
    /** Its bank account (settlement proceeds, withdrawals, wires). */
    fiatAccountId: '20000000-0000-4000-8000-00000000f001',
  },
  /** Has an account, but the venue refuses its orders (137010). */
  ineligible: {
    /** Its name, as `/_sim/state` shows it. */
    name: 'ineligible',
    /** The entity id. */
    entityId: '30000000-0000-4000-8000-000000000003',
    /** Its venue account id. */
    accountId: '30000000-0000-4000-8000-0000000000ac',
    /** Its test API key (`TEST_API_KEY:…`). */
    apiKey: SEEDED_API_KEYS.ineligible,
    /** Its USD stablecoin wallet (BURN orders draw on it). */
    walletId: '30000000-0000-4000-8000-00000000a001',
    /** An EUR wallet, refused for orders (137002). */
    eurWalletId: '30000000-0000-4000-8000-00000000a002',
    /** Its bank account (settlement proceeds, withdrawals, wires). */
    fiatAccountId: '30000000-0000-4000-8000-00000000f001',
  },
  /** Has no venue account (138003). */
  noaccount: {
    /** Its name, as `/_sim/state` shows it. */
    name: 'noaccount',
    /** The entity id. */
    entityId: '40000000-0000-4000-8000-000000000004',
    /** Its venue account id. */
    accountId: '40000000-0000-4000-8000-0000000000ac',
    /** Its test API key (`TEST_API_KEY:…`). */
    apiKey: SEEDED_API_KEYS.noaccount,
    /** Its USD stablecoin wallet (BURN orders draw on it). */
    walletId: '40000000-0000-4000-8000-00000000a001',
    /** An EUR wallet, refused for orders (137002). */
    eurWalletId: '40000000-0000-4000-8000-00000000a002',
    /** Its bank account (settlement proceeds, withdrawals, wires). */
    fiatAccountId: '40000000-0000-4000-8000-00000000f001',
  },
} as const;

/** The name of a seeded entity. */
export type SeededName = 'burner' | 'minter' | 'ineligible' | 'noaccount';

/**
 * Opening balances (cents). burner and minter (and ineligible, which cannot trade) each hold
 * `stablecoinCents` in their ordinary USD stablecoin wallet, `eurWalletCents` in the EUR wallet
 * and `bankCents` in their bank (the linked fiat account `POST /_sim/wires` draws on). The minter,
 * the mint side, also starts prefunded: `minterPrefundCents` of venue-only stablecoin, as if that
 * much had already been wired in and settled (the issuer holds the USD behind it).
 */
export const SEED_BALANCES = {
  /** Each entity's USD stablecoin wallet. */
  stablecoinCents: 100_000_000_00,
  /** Each entity's EUR wallet. */
  eurWalletCents: 1_000_00,
  /** Each entity's bank. */
  bankCents: 100_000_000_00,
  /** The minter's venue-only balance. */
  minterPrefundCents: 100_000_000_00,
  /** The house float lets settlement of one side proceed when its counterparty fails. */
  houseCents: 1_000_000_000_00,
} as const;

/** The seeded minter is the mint side; every other entity the burn side (docs/AUCTION.md, Funding). */
export function seededFundingSide(name: SeededName): FundingSide {
  return name === 'minter' ? 'MINT' : 'BURN';
}

export interface SeededWorld {
  entities: Entity[];
  wallets: Wallet[];
  fiatAccounts: FiatAccount[];
}

export function seedWorld(): SeededWorld {
  const entities: Entity[] = [];
  const wallets: Wallet[] = [];
  const fiatAccounts: FiatAccount[] = [];
  for (const name of ['burner', 'minter', 'ineligible', 'noaccount'] as const) {
    const s = SEEDED[name];
    // noaccount has no venue account: no wallets, nothing in its bank, and no wire can land.
    const funded = name !== 'noaccount';
    entities.push(
      entityRecord({
        id: s.entityId,
        accountId: s.accountId,
        name,
        apiKey: s.apiKey,
        eligible: name !== 'ineligible',
        hasAccount: funded,
        walletIds: funded ? [s.walletId, s.eurWalletId] : [],
        fiatAccountIds: [s.fiatAccountId],
        fundingSide: seededFundingSide(name),
        venueBalanceCents: name === 'minter' ? SEED_BALANCES.minterPrefundCents : 0,
        venueReservedCents: 0,
        withdrawalHeldCents: 0,
      }),
    );
    if (funded) {
      wallets.push(
        walletRecord({
          id: s.walletId,
          entityId: s.entityId,
          currency: 'USD',
          balanceCents: SEED_BALANCES.stablecoinCents,
          reservedCents: 0,
        }),
      );
      wallets.push(
        walletRecord({
          id: s.eurWalletId,
          entityId: s.entityId,
          currency: 'EUR',
          balanceCents: SEED_BALANCES.eurWalletCents,
          reservedCents: 0,
        }),
      );
    }
    fiatAccounts.push(
      fiatAccountRecord({
        id: s.fiatAccountId,
        entityId: s.entityId,
        balanceCents: funded ? SEED_BALANCES.bankCents : 0,
      }),
    );
  }
  return { entities, wallets, fiatAccounts };
}
